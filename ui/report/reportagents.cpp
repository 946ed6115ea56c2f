// A load from many hosts (`ldap --agents`, the LDAP page's "these hosts"): a row per agent under the LDAP section,
// from the record's agents[]; the merged figures above it are the run's.
#include "core/common/reportformat.h"
#include "core/common/runrecord.h"
#include "core/ldap/loadresult.h"
#include "ui/report/reportsections.h"

#include <QJsonArray>

#include <algorithm>
#include <limits>

namespace ReportSections {

namespace {

QString figure(const QJsonValue& v)
{
    return v.isDouble() ? ReportFormat::number(v.toDouble()) : QStringLiteral("n/a");
}

QString share(const QJsonObject& s)
{
    const int threads = s.value(QStringLiteral("threads")).toInt();
    QString text = QString::number(threads) + (threads == 1 ? QStringLiteral(" thread") : QStringLiteral(" threads"));
    if (s.value(QStringLiteral("rate")).isDouble())
        text += u", " + ReportFormat::number(s.value(QStringLiteral("rate")).toDouble()) + QStringLiteral(" ops/s");
    return text;
}

} // namespace

void agentsTable(const RunRecord& r, ReportSection& section)
{
    const QJsonArray agents = r.extra.value(QStringLiteral("agents")).toArray();
    if (agents.isEmpty())
        return;
    double first = std::numeric_limits<double>::max();
    for (const auto& a : agents)
        if (a.toObject().value(QStringLiteral("start_ns")).isDouble())
            first = std::min(first, a.toObject().value(QStringLiteral("start_ns")).toDouble());
    ReportTable t;
    t.header = { QStringLiteral("agent"), QStringLiteral("share"), QStringLiteral("ok"), QStringLiteral("ok/s"),
        QStringLiteral("offset (ms)"), QStringLiteral("RTT (ms)"), QStringLiteral("start (ms after the first)"),
        QStringLiteral("status"), QStringLiteral("CPU (s)") };
    for (const auto& v : agents) {
        const QJsonObject a = v.toObject();
        const OpFigures all = LoadSummary::fromJson(a.value(QStringLiteral("summary")).toObject()).all;
        const QJsonValue start = a.value(QStringLiteral("start_ns"));
        QString status = a.value(QStringLiteral("status")).toString();
        if (a.value(QStringLiteral("failure")).isString())
            status += u": " + a.value(QStringLiteral("failure")).toString();
        t.rows.append({ a.value(QStringLiteral("name")).toString(), share(a.value(QStringLiteral("share")).toObject()),
            figure(a.value(QStringLiteral("ok"))), ReportFormat::number(all.okPerS),
            figure(a.value(QStringLiteral("offset_ms"))), figure(a.value(QStringLiteral("rtt_ms"))),
            start.isDouble() ? ReportFormat::number((start.toDouble() - first) / 1e6) : QStringLiteral("n/a"), status,
            figure(a.value(QStringLiteral("cpu_s"))) });
    }
    section.blocks << ReportBlock::subheading(QStringLiteral("Agents (%1)").arg(agents.size()));
    section.blocks << ReportBlock::paragraph(
        QStringLiteral("The load came from %1 agents started at one instant (start spread %2 ms); the figures above "
                       "are their intervals merged exactly, the rows below each agent's own.")
            .arg(agents.size())
            .arg(figure(r.extra.value(QStringLiteral("start_spread_ms")))));
    section.blocks << ReportBlock::ofTable(t);
}

} // namespace ReportSections
