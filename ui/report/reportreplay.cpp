// Replay records (kind "replay"): the replayed load's charts, the rate against the log's schedule, the fidelity
// table per template and the sentences of ReplaySummary (the ones the window and the command line print).
#include "core/common/units.h"
#include "core/ldap/loadresult.h"
#include "core/replay/replaysummary.h"
#include "ui/report/reportsections.h"

namespace ReportSections {

namespace {

QString fidelityFigure(const std::optional<double>& v, int decimals)
{
    return v ? Units::formatNumber(*v, decimals) : QStringLiteral("-");
}

ReportChart scheduleChart(const QJsonArray& intervals)
{
    ReportSeries scheduled, answered;
    scheduled.name = QStringLiteral("scheduled by the log (ops/s)");
    scheduled.dashed = true;
    answered.name = QStringLiteral("answered ok/s");
    for (const auto& v : intervals) {
        const QJsonObject o = v.toObject();
        const LoadInterval iv = LoadInterval::fromJson(o);
        if (const auto s = ReplayIntervalExtra::fromJson(o).scheduledOpsPerS)
            scheduled.points << QPointF(iv.t, *s);
        answered.points << QPointF(iv.t, iv.all.okPerS);
    }
    ReportChart c;
    if (scheduled.points.isEmpty())
        return c; // closed loop: no schedule to compare with
    c.title = QStringLiteral("Rate against the log's schedule");
    c.xLabel = QStringLiteral("t (s)");
    c.yLabel = QStringLiteral("ops/s");
    c.series << scheduled << answered;
    return c;
}

ReportTable fidelityTable(const ReplaySummary& s)
{
    ReportTable t;
    t.header = { QStringLiteral("kind"), QStringLiteral("logged"), QStringLiteral("replayed"), QStringLiteral("log %"),
        QStringLiteral("replay %"), QStringLiteral("code (log)"), QStringLiteral("code (replay)"),
        QStringLiteral("etime p50/p99 (ms)"), QStringLiteral("latency p50/p99 (ms)"), QStringLiteral("template") };
    for (const ReplayTemplateRow& r : s.rows)
        t.rows.append({ r.kind, Units::formatNumber(r.logged, 0), Units::formatNumber(r.replayed, 0),
            fidelityFigure(r.loggedShare, 1), fidelityFigure(r.replayedShare, 1), r.loggedTopCode, r.replayedTopCode,
            fidelityFigure(r.etimeP50Ms, 3) + u" / " + fidelityFigure(r.etimeP99Ms, 3),
            fidelityFigure(r.latencyP50Ms, 3) + u" / " + fidelityFigure(r.latencyP99Ms, 3), r.templateText });
    return t;
}

} // namespace

void replay(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    Q_UNUSED(sources)
    const ReplaySummary s = ReplaySummary::of(r);
    section.blocks << ReportBlock::paragraph(s.countsLine());
    loadCharts(r.intervals, section);
    if (const ReportChart c = scheduleChart(r.intervals); !c.isEmpty())
        section.blocks << ReportBlock::ofChart(c);
    if (!s.rows.isEmpty()) {
        section.blocks << ReportBlock::subheading(QStringLiteral("Fidelity per template"));
        section.blocks << ReportBlock::ofTable(fidelityTable(s));
    }
    for (const QString& line :
        { s.rateLine(), s.perSecondLine(), s.connectionsLine(), s.sendLagLine(), s.writesLine() })
        if (!line.isEmpty())
            section.blocks << ReportBlock::paragraph(line);
    for (const QString& d : s.drift)
        section.blocks << ReportBlock::paragraph(QStringLiteral("Drift: ") + d);
}

} // namespace ReportSections
