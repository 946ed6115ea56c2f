#include "core/agents/agentsrecord.h"

#include "core/common/jsonread.h"

#include <QJsonArray>

namespace Agents {

AgentFigures AgentFigures::fromJson(const QJsonObject& o)
{
    AgentFigures a;
    a.name = o.value(QLatin1String("name")).toString();
    const QJsonObject share = o.value(QLatin1String("share")).toObject();
    a.threads = share.value(QLatin1String("threads")).toInt();
    a.rate = JsonRead::number(share, "rate");
    a.ok = JsonRead::number(o, "ok");
    a.offsetMs = JsonRead::number(o, "offset_ms");
    a.rttMs = JsonRead::number(o, "rtt_ms");
    a.startNs = JsonRead::number(o, "start_ns");
    a.cpuS = JsonRead::number(o, "cpu_s");
    a.status = o.value(QLatin1String("status")).toString();
    if (o.value(QLatin1String("failure")).isString())
        a.failure = o.value(QLatin1String("failure")).toString();
    a.summary = LoadSummary::fromJson(o.value(QLatin1String("summary")).toObject());
    return a;
}

AgentsFigures AgentsFigures::of(const RunRecord& r)
{
    AgentsFigures out;
    const QJsonArray agentsArray = r.extra.value(QLatin1String("agents")).toArray();
    for (const auto& v : agentsArray)
        out.agents.append(AgentFigures::fromJson(v.toObject()));
    out.startSpreadMs = JsonRead::number(r.extra, "start_spread_ms");
    return out;
}

std::optional<double> AgentsFigures::firstStartNs() const
{
    std::optional<double> first;
    for (const AgentFigures& a : agents)
        if (a.startNs && (!first || *a.startNs < *first))
            first = a.startNs;
    return first;
}

} // namespace Agents
