// A load from many hosts (`ldap --agents`, the LDAP page's "these hosts"): a row per agent under the LDAP section,
// from the record's agents[]; the merged figures above it are the run's.
#include "core/agents/agentsrecord.h"
#include "core/common/reportformat.h"
#include "core/common/runrecord.h"
#include "core/ldap/loadresult.h"
#include "ui/report/reportsections.h"

namespace ReportSections {

namespace {

QString agentsFigure(const std::optional<double>& v)
{
    return v ? ReportFormat::number(*v) : QStringLiteral("n/a");
}

QString agentsShare(const Agents::AgentFigures& a)
{
    QString text
        = QString::number(a.threads) + (a.threads == 1 ? QStringLiteral(" thread") : QStringLiteral(" threads"));
    if (a.rate)
        text += u", " + ReportFormat::number(*a.rate) + QStringLiteral(" ops/s");
    return text;
}

} // namespace

void agentsTable(const RunRecord& r, ReportSection& section)
{
    const Agents::AgentsFigures figures = Agents::AgentsFigures::of(r);
    if (figures.agents.isEmpty())
        return;
    const double first = figures.firstStartNs().value_or(0);
    ReportTable t;
    t.header = { QStringLiteral("agent"), QStringLiteral("share"), QStringLiteral("ok"), QStringLiteral("ok/s"),
        QStringLiteral("offset (ms)"), QStringLiteral("RTT (ms)"), QStringLiteral("start (ms after the first)"),
        QStringLiteral("status"), QStringLiteral("CPU (s)") };
    for (const Agents::AgentFigures& a : figures.agents) {
        QString status = a.status;
        if (a.failure)
            status += u": " + *a.failure;
        t.rows.append({ a.name, agentsShare(a), agentsFigure(a.ok), ReportFormat::number(a.summary.all.okPerS),
            agentsFigure(a.offsetMs), agentsFigure(a.rttMs),
            a.startNs ? ReportFormat::number((*a.startNs - first) / 1e6) : QStringLiteral("n/a"), status,
            agentsFigure(a.cpuS) });
    }
    section.blocks << ReportBlock::subheading(QStringLiteral("Agents (%1)").arg(figures.agents.size()));
    section.blocks << ReportBlock::paragraph(
        QStringLiteral("The load came from %1 agents started at one instant (start spread %2 ms); the figures above "
                       "are their intervals merged exactly, the rows below each agent's own.")
            .arg(figures.agents.size())
            .arg(agentsFigure(figures.startSpreadMs)));
    section.blocks << ReportBlock::ofTable(t);
}

} // namespace ReportSections
