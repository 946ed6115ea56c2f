#include "core/experiments/curvesummary.h"

#include "core/common/jsonread.h"
#include "core/common/reportformat.h"

#include <QJsonArray>

#include <algorithm>

namespace CurveRecord {

namespace {

QList<QStringList> curveModelRows(const QJsonObject& s, const QJsonObject& fit)
{
    QList<QStringList> rows;
    for (const char* k : { "entries", "access", "t_hit_us", "t_miss_us" })
        if (s.contains(QLatin1String(k)))
            rows.append({ ReportFormat::label(QLatin1String(k)), ReportFormat::value(s.value(QLatin1String(k))) });
    if (!fit.isEmpty())
        for (const char* k : { "t_hit_stderr_us", "t_miss_stderr_us", "residual_stderr_us", "policy" })
            rows.append({ QString(u"fit: " + ReportFormat::label(QLatin1String(k))),
                ReportFormat::value(fit.value(QLatin1String(k))) });
    return rows;
}

} // namespace

PointFigures PointFigures::fromJson(const QJsonObject& o)
{
    PointFigures p;
    p.series = o.value(QLatin1String("series")).toString();
    p.target = JsonRead::number(o, "target");
    p.coverage = JsonRead::number(o, "coverage");
    p.hitRatio = JsonRead::number(o, "hit_ratio");
    p.okPerS = JsonRead::number(o, "ok_per_s");
    p.opsPerS = JsonRead::number(o, "ops_per_s");
    p.errors = JsonRead::number(o, "errors");
    p.cached = JsonRead::number(o, o.contains(QLatin1String("cache_entries")) ? "cache_entries" : "working_set");
    return p;
}

Summary Summary::of(const RunRecord& r)
{
    const QJsonObject& s = r.summary;
    Summary out;
    out.mode = s.value(QLatin1String("mode")).toString();
    const QJsonArray pointsArray = s.value(QLatin1String("points")).toArray();
    for (const auto& v : pointsArray)
        out.points.append(PointFigures::fromJson(v.toObject()));
    out.entries = s.value(QLatin1String("entries")).toDouble();
    out.access = s.value(QLatin1String("access")).toString();
    out.tHitUs = JsonRead::number(s, "t_hit_us");
    out.tMissUs = JsonRead::number(s, "t_miss_us");
    const QJsonObject fit = s.value(QLatin1String("fit")).toObject();
    out.hasFit = !fit.isEmpty();
    out.fitMethod = fit.value(QLatin1String("method")).toString();
    out.fitTHitUs = fit.value(QLatin1String("t_hit_us")).toDouble();
    const QJsonArray curveArray = fit.value(QLatin1String("curve")).toArray();
    for (const auto& v : curveArray) {
        const QJsonObject p = v.toObject();
        out.fitCurve.append(
            { p.value(QLatin1String("coverage")).toDouble(), p.value(QLatin1String("ops")).toDouble() });
    }
    out.modelRows = curveModelRows(s, fit);
    out.bytesPerEntry = r.extra.value(QLatin1String("bytes_per_entry")).toDouble();
    return out;
}

bool Summary::completed() const
{
    return std::any_of(points.begin(), points.end(), [](const PointFigures& p) { return p.rateCompleted(); });
}

QList<CurvePoint> Summary::curvePoints() const
{
    QList<CurvePoint> out;
    for (const PointFigures& p : points)
        out.append({ p.coverage.value_or(0), p.ratePerS(), p.hitRatio });
    return out;
}

QString Summary::fitText() const
{
    return fitSentence(
        tHitUs.value_or(0), tMissUs.value_or(0), completed() ? QStringLiteral("ops/s") : QStringLiteral("ok/s"));
}

QString fitSentence(double hit, double miss, const QString& unit)
{
    if (hit <= 0 || miss <= 0)
        return {};
    return QString(ReportFormat::number(1e6 / miss) + u' ' + unit + u" with no entry cached to "
        + ReportFormat::number(1e6 / hit) + u' ' + unit + u" with every entry cached (the fit's t_miss "
        + ReportFormat::number(miss) + u" µs, t_hit " + ReportFormat::number(hit) + u" µs)");
}

} // namespace CurveRecord
