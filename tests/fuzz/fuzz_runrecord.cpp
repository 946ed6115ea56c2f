// RunRecord JSON import (history import, `report --in`, drag and drop) on arbitrary bytes: no crash; a record that
// is accepted serialises and reads back to the same JSON.
#include "core/common/runrecord.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    QString error;
    const auto rec = RunRecord::fromJsonBytes(bytes, &error);
    if (!rec) {
        if (error.isEmpty())
            __builtin_trap(); // a refusal says why
        return 0;
    }
    const QByteArray out = rec->toJsonBytes();
    const auto again = RunRecord::fromJsonBytes(out, &error);
    if (!again || again->toJson() != rec->toJson())
        __builtin_trap();
    return 0;
}
