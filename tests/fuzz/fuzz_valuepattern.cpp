// Value patterns ([A-B] ranges, zero padding, \[ escapes, [file:PATH]) from arbitrary text: parse never crashes,
// and what parses renders every key of its range without reading past its tables.
#include "core/ldap/valuepattern.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    // [file:...] would read real files: the fuzzer explores the grammar, not the file system.
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    if (text.contains(QLatin1String("file:")))
        return 0;
    ProbeError error;
    const auto pattern = ValuePattern::parse(text, QStringLiteral("fuzz"), &error);
    if (!pattern) {
        if (error.field.isEmpty())
            __builtin_trap(); // every refusal names its field
        return 0;
    }
    // The first key, the last key and one in between of every range, then keys drawn by the sampler.
    std::vector<uint64_t> keys(size_t(pattern->rangeCount()));
    QByteArray out;
    for (int pick = 0; pick < 3; ++pick) {
        for (int i = 0; i < pattern->rangeCount(); ++i) {
            const uint64_t n = pattern->keyCount(i);
            keys[size_t(i)] = pick == 0 ? 0 : pick == 1 ? n - 1 : n / 2;
        }
        pattern->renderKeys(out, keys);
    }
    ValuePattern drawn = *pattern;
    drawn.setDistribution(AccessDistribution());
    AccessDistribution::Rng rng(size);
    for (int i = 0; i < 4; ++i)
        drawn.render(out, rng);
    return 0;
}
