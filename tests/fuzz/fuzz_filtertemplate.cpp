// Filter templates and access distributions from arbitrary text: the structural check and the parse never crash,
// a refusal always names its field, and normalising what was accepted gives a fixed point.
#include "core/ldap/accessdistribution.h"
#include "core/ldap/filtertemplate.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    ProbeError error;
    (void)AccessDistribution::parse(text, &error);
    if (text.contains(QLatin1String("file:")))
        return 0; // no real files
    const auto normal = FilterTemplate::normalise(text, &error);
    if (normal) {
        const auto again = FilterTemplate::normalise(*normal);
        if (!again || *again != *normal)
            __builtin_trap(); // normalising is idempotent
    } else if (error.field.isEmpty()) {
        __builtin_trap();
    }
    const auto pattern = FilterTemplate::parse(text, &error);
    if (pattern) {
        std::vector<uint64_t> keys(size_t(pattern->rangeCount()), 0);
        (void)pattern->renderKeys(keys);
    }
    return 0;
}
