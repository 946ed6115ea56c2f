// Curve records: coverage of the entry cache vs ok/s (completed ops/s for a record older than ok/s), the fitted
// service-time model and the guide's reference (HP-UX DS 8.1 tuning guide, Figure 3's shape scaled to the fit's fully
// cached rate).
#include "core/common/reportformat.h"
#include "core/experiments/curvesummary.h"
#include "core/sizing/referencecurve.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"

namespace ReportSections {

void curve(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    const CurveRecord::Summary s = CurveRecord::Summary::of(r);
    const bool completed = s.completed(); // a record older than ok/s: its points hold completed ops/s
    const QString unit = completed ? QStringLiteral("ops/s") : QStringLiteral("ok/s");
    ReportChart c;
    c.title = QStringLiteral("Entry-cache coverage vs throughput");
    c.xLabel = QStringLiteral("coverage (%)");
    c.yLabel = unit;
    ReportSeries measured;
    measured.name = QStringLiteral("measured");
    measured.markers = true;
    measured.line = false;
    ReportTable t;
    t.header = { QStringLiteral("point"), QStringLiteral("asked (% cached)"), QStringLiteral("measured (% cached)"),
        QStringLiteral("hit ratio (%)"), unit };
    const auto percent
        = [](const std::optional<double>& v) { return v ? ReportFormat::number(*v * 100) : QStringLiteral("n/a"); };
    for (const CurveRecord::PointFigures& p : s.points) {
        measured.points.append({ p.coverage.value_or(0) * 100, p.ratePerS() });
        t.rows.append({ p.series, percent(p.target), percent(p.coverage), percent(p.hitRatio),
            p.ratePresent() ? ReportFormat::number(p.ratePerS()) : QStringLiteral("n/a") });
    }
    c.series << measured;
    if (s.hasFit) {
        ReportSeries f;
        f.name = QStringLiteral("fitted model");
        for (const QPointF& p : s.fitCurve)
            f.points.append({ p.x() * 100, p.y() });
        if (!f.points.isEmpty())
            c.series << f;
        if (s.fitTHitUs > 0) {
            ReportSeries ref;
            ref.name = QStringLiteral("guide Fig. 3 shape (normalised to the fit)");
            ref.dashed = true;
            for (const ReferencePoint& p : ReferenceCurve::figure3Shape(20))
                ref.points.append({ p.coverage * 100, p.normalised * 1e6 / s.fitTHitUs });
            c.series << ref;
            cite(sources, ReferenceCurve::source());
        }
    }
    section.blocks << ReportBlock::ofChart(c);
    section.blocks << ReportBlock::subheading(QStringLiteral("Model"));
    section.blocks << ReportBlock::keyValues(s.modelRows);
    section.blocks << ReportBlock::subheading(QStringLiteral("Measured points"));
    if (completed)
        section.blocks << ReportBlock::paragraph(
            QStringLiteral("This record's points predate ok/s: they hold ops/s (completed per second), "
                           "failed searches included, and the fit is made to them."));
    section.blocks << ReportBlock::ofTable(t);
    for (const QString& src : ReportJson::sourcesIn(r.summary))
        cite(sources, src);
}

} // namespace ReportSections
