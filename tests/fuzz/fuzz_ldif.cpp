// The LDIF reader on arbitrary bytes, fed in chunks split at places the input itself chooses: no crash, and the
// statistics are the same however the input is split (the scanner is a streaming state machine).
#include "core/sizing/ldifstats.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
        return 0;
    const char* text = reinterpret_cast<const char*>(data + 1);
    const qsizetype n = qsizetype(size - 1);
    LdifScanner whole;
    whole.feed(text, n);
    const LdifStats a = whole.finish();
    // Chunks of 1 + data[0] % 17 bytes.
    LdifScanner pieces;
    const qsizetype step = 1 + data[0] % 17;
    for (qsizetype at = 0; at < n; at += step)
        pieces.feed(text + at, std::min(step, n - at));
    const LdifStats b = pieces.finish();
    if (a.entries != b.entries || a.attributes.size() != b.attributes.size())
        __builtin_trap();
    (void)a.toJson();
    return 0;
}
