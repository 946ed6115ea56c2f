// The agent protocol's stream (what an agent or a coordinator reads from the other side) on arbitrary bytes: the
// line framing in uneven pieces, every line decoded, a spec read back, a histogram out of any object merged and
// read. No crash; a line refused says why; a spec accepted writes and reads back to itself.
#include "core/agents/agentprotocol.h"
#include "core/common/histogram.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    Agents::LineBuffer buf;
    const qsizetype step = size > 0 ? qsizetype(data[0] % 17) + 1 : 1;
    LatencyHistogram total;
    for (qsizetype at = 0; at < bytes.size(); at += step) {
        buf.feed(bytes.mid(at, step));
        for (const QByteArray& line : buf.take()) {
            if (line.contains('\n'))
                __builtin_trap(); // a line never holds its separator
            QString why;
            const auto m = Agents::decode(line, &why);
            if (!m) {
                if (why.isEmpty())
                    __builtin_trap();
                continue;
            }
            const auto spec = Agents::AgentSpec::fromJson(*m, &why);
            if (spec) {
                const auto again = Agents::AgentSpec::fromJson(spec->toJson(), &why);
                if (!again || again->args != spec->args || again->password != spec->password)
                    __builtin_trap();
            }
            const LatencyHistogram h = LatencyHistogram::fromJson(m->value(QStringLiteral("h")).toObject());
            total.merge(h);
            (void)total.percentile(0.99);
        }
    }
    return 0;
}
