// The coordinator's record: the merged intervals and summary (agentmerge.h), `spec.agents` and `agents[]`.
#include "core/agents/agentmerge.h"
#include "core/agents/coordinator_p.h"
#include "core/common/environment.h"
#include "core/run/runcontext.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace Agents {

namespace {

double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

QString statusOf(const AgentLink& a)
{
    if (a.phase == AgentLink::Phase::Lost)
        return QStringLiteral("lost");
    return a.final.value(QStringLiteral("status")).toString(QStringLiteral("failed"));
}

QJsonArray intervalsJson(const QList<LoadInterval>& list)
{
    QJsonArray out;
    for (const LoadInterval& iv : list)
        out.append(iv.toJson());
    return out;
}

} // namespace

QJsonObject Coordinator::specAgents() const
{
    const bool local = std::all_of(m_spec.hosts.begin(), m_spec.hosts.end(), [](const auto& h) { return h.local; });
    const bool pods = std::all_of(m_spec.hosts.begin(), m_spec.hosts.end(), [](const auto& h) { return h.isPod(); });
    QStringList hosts;
    for (const auto& h : m_spec.hosts)
        hosts << h.name;
    return QJsonObject { { QStringLiteral("launcher"),
                             local      ? QStringLiteral("local")
                                 : pods ? QStringLiteral("kubectl")
                                        : QStringLiteral("ssh") },
        { QStringLiteral("hosts"), QJsonArray::fromStringList(hosts) },
        { QStringLiteral("count"), int(m_spec.hosts.size()) },
        { QStringLiteral("ssh_options"), QJsonArray::fromStringList(m_spec.sshOptions) },
        { QStringLiteral("agent_command"), m_spec.agentCommand },
        { QStringLiteral("on_agent_loss"),
            m_spec.continueOnLoss ? QStringLiteral("continue") : QStringLiteral("fail") },
        { QStringLiteral("allow_clock_skew"), m_spec.allowClockSkew } };
}

QJsonObject Coordinator::agentJson(const AgentLink& a) const
{
    const LoadSummary s = LoadSummary::fromJson(a.final.value(QStringLiteral("summary")).toObject());
    QList<LoadInterval> list = a.intervals;
    if (!m_spec.load.intervalHistograms)
        for (LoadInterval& iv : list) {
            iv.all.latencyHistogramNs = {};
            for (auto& [kind, f] : iv.byOperation)
                f.latencyHistogramNs = {};
        }
    QJsonObject o { { QStringLiteral("name"), a.name() },
        { QStringLiteral("address"), a.hello.value(QStringLiteral("host")) },
        { QStringLiteral("pid"), a.hello.value(QStringLiteral("pid")) },
        { QStringLiteral("version"), a.hello.value(QStringLiteral("version")) },
        { QStringLiteral("cpus"), a.hello.value(QStringLiteral("cpus")) },
        { QStringLiteral("share"),
            QJsonObject { { QStringLiteral("threads"), a.threads },
                { QStringLiteral("rate"), a.rate > 0 ? QJsonValue(a.rate) : QJsonValue(QJsonValue::Null) } } },
        { QStringLiteral("offset_ms"), a.best ? QJsonValue(round3(a.offsetMs())) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("rtt_ms"),
            a.best ? QJsonValue(round3(double(a.best->rttNs()) / 1e6)) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("start_ns"),
            a.startedRealNs && a.best ? QJsonValue(qint64(a.startedRealNs - a.best->offsetNs()))
                                      : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("status"), statusOf(a) }, { QStringLiteral("ok"), s.all.ok },
        { QStringLiteral("cpu_s"), a.final.value(QStringLiteral("cpu_s")) },
        { QStringLiteral("summary"), a.final.value(QStringLiteral("summary")) },
        { QStringLiteral("warnings"), a.final.value(QStringLiteral("warnings")) },
        { QStringLiteral("intervals"), intervalsJson(list) } };
    if (!a.lostWhy.isEmpty())
        o.insert(QStringLiteral("failure"), a.lostWhy);
    else if (a.final.value(QStringLiteral("failure")).isString())
        o.insert(QStringLiteral("failure"), a.final.value(QStringLiteral("failure")));
    return o;
}

RunRecord Coordinator::record()
{
    RunRecord& r = m_rec;
    r.spec = m_spec.load.toJson();
    r.spec.insert(QStringLiteral("agents"), specAgents());
    r.environment = Environment::collect();
    QList<QList<LoadInterval>> perAgent;
    QList<LoadSummary> summaries;
    QJsonArray agents;
    QList<double> starts;
    for (const auto& a : m_agents) {
        perAgent << a->intervals;
        summaries << LoadSummary::fromJson(a->final.value(QStringLiteral("summary")).toObject());
        const QJsonObject aj = agentJson(*a);
        if (aj.value(QStringLiteral("start_ns")).isDouble())
            starts << aj.value(QStringLiteral("start_ns")).toDouble();
        agents.append(aj);
        const QJsonArray warnings = a->final.value(QStringLiteral("warnings")).toArray();
        for (const auto& w : warnings) {
            const QJsonObject wo = w.toObject();
            r.addWarning(wo.value(QStringLiteral("code")).toString(),
                a->name() + QStringLiteral(": ") + wo.value(QStringLiteral("message")).toString());
        }
    }
    QList<LoadInterval> merged = mergeByIndex(perAgent, m_spec.load.intervalHistograms);
    r.intervals = {};
    for (qsizetype k = 0; k < merged.size(); ++k) {
        merged[k].server = m_server.value(k, QJsonValue::Null);
        r.intervals.append(merged.at(k).toJson());
    }
    LoadSummary s = mergeSummary(perAgent, summaries);
    if (m_monitorOk && !m_monStart.isEmpty()) {
        // At the end of the measured span, before the agents' cleanup; a run that stopped early reads it now.
        const QMap<QString, double>* atEnd = endReading();
        const auto end = atEnd ? *atEnd : m_monitor->read(m_session, nullptr);
        QJsonObject srv;
        for (auto it = end.begin(); it != end.end(); ++it)
            if (MonitorReader::isCounter(it.key()) && m_monStart.contains(it.key()))
                srv.insert(it.key(), it.value() - m_monStart.value(it.key()));
        s.server = srv.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(srv);
    }
    r.summary = s.toJson();
    r.extra.insert(QStringLiteral("agents"), agents);
    if (starts.size() > 0) {
        const auto [lo, hi] = std::minmax_element(starts.begin(), starts.end());
        r.extra.insert(QStringLiteral("start_spread_ms"), round3((*hi - *lo) / 1e6));
    }
    if (!m_failure.isEmpty()) {
        r.status = QStringLiteral("failed");
        r.failure = m_failure;
    } else if (m_cancelled) {
        r.status = QStringLiteral("cancelled");
    } else if (s.all.ok == 0) {
        r.status = QStringLiteral("failed");
        r.failure = QStringLiteral("no operation succeeded on any agent");
    } else if (std::any_of(m_agents.begin(), m_agents.end(), [](const auto& a) {
                   return a->phase == AgentLink::Phase::Final
                       && a->final.value(QStringLiteral("status")).toString() == u"failed";
               })) {
        r.status = QStringLiteral("failed");
        for (const auto& a : m_agents)
            if (a->final.value(QStringLiteral("status")).toString() == u"failed" && r.failure.isEmpty())
                r.failure = sharpName(*a) + QStringLiteral(" failed: ")
                    + a->final.value(QStringLiteral("failure")).toString();
    }
    if (r.status == u"ok")
        m_ctx.setProgress(1.0);
    return r;
}

} // namespace Agents
