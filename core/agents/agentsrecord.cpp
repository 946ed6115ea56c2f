#include "core/agents/agentsrecord.h"

#include <QJsonArray>

namespace Agents {

namespace {

std::optional<double> agentsRecordNumber(const QJsonObject& o, const char* key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

} // namespace

AgentFigures AgentFigures::fromJson(const QJsonObject& o)
{
    AgentFigures a;
    a.name = o.value(QLatin1String("name")).toString();
    const QJsonObject share = o.value(QLatin1String("share")).toObject();
    a.threads = share.value(QLatin1String("threads")).toInt();
    a.rate = agentsRecordNumber(share, "rate");
    a.ok = agentsRecordNumber(o, "ok");
    a.offsetMs = agentsRecordNumber(o, "offset_ms");
    a.rttMs = agentsRecordNumber(o, "rtt_ms");
    a.startNs = agentsRecordNumber(o, "start_ns");
    a.cpuS = agentsRecordNumber(o, "cpu_s");
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
    out.startSpreadMs = agentsRecordNumber(r.extra, "start_spread_ms");
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
