#include "core/sizing/referencecurve.h"

#include <QJsonArray>

namespace ReferenceCurve {

QString source()
{
    return QStringLiteral("HP-UX Directory Server 8.1 Performance Tuning and Sizing Guidelines (HP technical white "
                          "paper), Table 5 (page 15) and Figure 3 (page 11)");
}

const QList<PublishedRow>& table5()
{
    static const QList<PublishedRow> rows {
        { 100, 19597.22, 12049.68 },
        { 10000, 19169.68, 11314.75 },
        { 100000, 18983.23, 11399.68 },
        { 250000, 18545.38, 11056.25 },
        { 500000, 18487.29, 11048.27 },
        { 1000000, 18398.92, 10817.41 },
    };
    return rows;
}

const PublishedRow* row(qint64 entries)
{
    for (const auto& r : table5())
        if (r.entries == entries)
            return &r;
    return nullptr;
}

CurveFit calibration(const PublishedRow& r)
{
    CurveFit f;
    f.tHit = r.tHit();
    f.tMiss = r.tMiss();
    f.entries = quint64(r.entries);
    f.access = AccessDistribution::uniform();
    f.points = 2;
    f.method = QStringLiteral("Table 5 end points");
    f.meanHit = 0.5;
    f.sxx = 0.5;
    return f;
}

QList<ReferencePoint> normalise(const CurveFit& fit, int steps)
{
    QList<ReferencePoint> out;
    const double full = 1.0 / fit.tHit;
    for (int i = 0; i <= steps; ++i) {
        ReferencePoint p;
        p.coverage = double(i) / steps;
        p.opsPerSec = fit.opsAt(p.coverage);
        p.normalised = p.opsPerSec / full;
        out.append(p);
    }
    return out;
}

QList<ReferencePoint> figure3Shape(int steps)
{
    return normalise(calibration(*row(500000)), steps);
}

QJsonObject toJson(int steps)
{
    QJsonArray rows;
    for (const auto& r : table5())
        rows.append(QJsonObject { { QStringLiteral("entries"), double(r.entries) },
            { QStringLiteral("cached_ops"), r.cachedOpsPerSec },
            { QStringLiteral("uncached_ops"), r.uncachedOpsPerSec }, { QStringLiteral("t_hit_us"), r.tHit() * 1e6 },
            { QStringLiteral("t_miss_us"), r.tMiss() * 1e6 },
            { QStringLiteral("uncached_normalised"), r.uncachedOpsPerSec / r.cachedOpsPerSec } });
    QJsonArray shape;
    for (const auto& p : figure3Shape(steps))
        shape.append(QJsonObject { { QStringLiteral("coverage"), p.coverage }, { QStringLiteral("ops"), p.opsPerSec },
            { QStringLiteral("normalised"), p.normalised } });
    return QJsonObject { { QStringLiteral("source"), source() }, { QStringLiteral("table5"), rows },
        { QStringLiteral("figure3_shape"), shape },
        { QStringLiteral("figure3_note"),
            QStringLiteral("Figure 3's points are printed only as a chart; this is the model through Table 5's "
                           "500k end points under uniform access, normalised to the fully cached rate") } };
}

} // namespace ReferenceCurve
