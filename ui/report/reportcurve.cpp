// Curve records: coverage of the entry cache vs ok/s (completed ops/s for a record older than ok/s), the fitted
// service-time model and the guide's reference (HP-UX DS 8.1 tuning guide, Figure 3's shape scaled to the fit's fully
// cached rate).
#include "core/common/reportformat.h"
#include "core/sizing/referencecurve.h"
#include "ui/report/loadfigures.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"

namespace ReportSections {

void curve(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    const QJsonObject& s = r.summary;
    const QJsonArray points = s.value(QStringLiteral("points")).toArray();
    bool completed = false; // a record older than ok/s: its points hold completed ops/s
    for (const auto& v : points)
        completed = completed || LoadFigures::pointRate(v.toObject()).completed;
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
    const auto percent = [](const QJsonValue& v) {
        return v.isDouble() ? ReportFormat::number(v.toDouble() * 100) : ReportFormat::value(v);
    };
    for (const auto& v : points) {
        const QJsonObject p = v.toObject();
        const LoadFigures::PointRate rate = LoadFigures::pointRate(p);
        measured.points.append({ p.value(QStringLiteral("coverage")).toDouble() * 100, rate.perS });
        t.rows.append({ p.value(QStringLiteral("series")).toString(), percent(p.value(QStringLiteral("target"))),
            percent(p.value(QStringLiteral("coverage"))), percent(p.value(QStringLiteral("hit_ratio"))),
            rate.present ? ReportFormat::number(rate.perS) : QStringLiteral("n/a") });
    }
    c.series << measured;
    const QJsonObject fit = s.value(QStringLiteral("fit")).toObject();
    const double tHitUs = fit.value(QStringLiteral("t_hit_us")).toDouble();
    if (!fit.isEmpty()) {
        ReportSeries f;
        f.name = QStringLiteral("fitted model");
        const QJsonArray curveList = fit.value(QStringLiteral("curve")).toArray();
        for (const auto& v : curveList) {
            const QJsonObject p = v.toObject();
            f.points.append(
                { p.value(QStringLiteral("coverage")).toDouble() * 100, p.value(QStringLiteral("ops")).toDouble() });
        }
        if (!f.points.isEmpty())
            c.series << f;
        if (tHitUs > 0) {
            ReportSeries ref;
            ref.name = QStringLiteral("guide Fig. 3 shape (normalised to the fit)");
            ref.dashed = true;
            for (const ReferencePoint& p : ReferenceCurve::figure3Shape(20))
                ref.points.append({ p.coverage * 100, p.normalised * 1e6 / tHitUs });
            c.series << ref;
            cite(sources, ReferenceCurve::source());
        }
    }
    section.blocks << ReportBlock::ofChart(c);
    QList<QStringList> rows;
    for (const char16_t* k : { u"entries", u"access", u"t_hit_us", u"t_miss_us" })
        if (s.contains(QString::fromUtf16(k)))
            rows.append(
                { ReportFormat::label(QString::fromUtf16(k)), ReportFormat::value(s.value(QString::fromUtf16(k))) });
    if (!fit.isEmpty())
        for (const char16_t* k : { u"t_hit_stderr_us", u"t_miss_stderr_us", u"residual_stderr_us", u"policy" })
            rows.append({ QString(u"fit: " + ReportFormat::label(QString::fromUtf16(k))),
                ReportFormat::value(fit.value(QString::fromUtf16(k))) });
    section.blocks << ReportBlock::subheading(QStringLiteral("Model"));
    section.blocks << ReportBlock::keyValues(rows);
    section.blocks << ReportBlock::subheading(QStringLiteral("Measured points"));
    if (completed)
        section.blocks << ReportBlock::paragraph(
            QStringLiteral("This record's points predate ok/s: they hold ops/s (completed per second), "
                           "failed searches included, and the fit is made to them."));
    section.blocks << ReportBlock::ofTable(t);
    for (const QString& src : ReportJson::sourcesIn(s))
        cite(sources, src);
}

} // namespace ReportSections
