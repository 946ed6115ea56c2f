#include "core/agents/agentlive.h"

#include <QJsonArray>

namespace Agents {

Sample AgentsLive::toSample(double t) const
{
    QJsonArray list;
    for (const AgentLiveRow& r : rows)
        list.append(QJsonObject { { QStringLiteral("name"), r.name }, { QStringLiteral("state"), r.state },
            { QStringLiteral("ok_per_s"), r.okPerS }, { QStringLiteral("ops_per_s"), r.opsPerS },
            { QStringLiteral("ok"), r.ok }, { QStringLiteral("cpu_s"), r.cpuS } });
    Sample s;
    s.series = QString::fromUtf16(kSeries);
    s.t = t;
    s.values = QJsonObject { { QStringLiteral("agents"), list } };
    return s;
}

std::optional<AgentsLive> AgentsLive::fromSample(const Sample& s)
{
    if (s.series != QStringView(kSeries))
        return std::nullopt;
    AgentsLive out;
    const QJsonArray list = s.values.value(QStringLiteral("agents")).toArray();
    for (const auto& v : list) {
        const QJsonObject o = v.toObject();
        out.rows << AgentLiveRow { o.value(QStringLiteral("name")).toString(),
            o.value(QStringLiteral("state")).toString(), o.value(QStringLiteral("ok_per_s")).toDouble(),
            o.value(QStringLiteral("ops_per_s")).toDouble(), o.value(QStringLiteral("ok")).toDouble(),
            o.value(QStringLiteral("cpu_s")).toDouble(-1) };
    }
    return out;
}

} // namespace Agents
