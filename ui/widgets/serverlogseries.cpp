#include "ui/widgets/serverlogseries.h"

#include "ui/charts/livechartview.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QList>
#include <QPointF>

namespace ServerLogSeries {

QString name(const QString& percentile)
{
    return QCoreApplication::translate("LdapLoadView", "server etime %1").arg(percentile);
}

int draw(LiveChartView* chart, const QJsonObject& serverLog)
{
    const QJsonArray intervals = serverLog.value(QLatin1String("intervals")).toArray();
    if (intervals.isEmpty())
        return 0;
    QList<QPointF> p50, p99;
    for (const auto& v : intervals) {
        const QJsonObject i = v.toObject();
        const QJsonObject etime = i.value(QLatin1String("etime_ms")).toObject();
        if (etime.isEmpty())
            continue; // the server logged nothing in this interval
        const double t = i.value(QLatin1String("t")).toDouble();
        p50 << QPointF(t, etime.value(QLatin1String("p50")).toDouble());
        p99 << QPointF(t, etime.value(QLatin1String("p99")).toDouble());
    }
    const LiveChartView::Batch batch(chart);
    for (const auto& [percentile, points] :
        { std::pair { QStringLiteral("p50"), &p50 }, { QStringLiteral("p99"), &p99 } }) {
        chart->setDashed(name(percentile));
        chart->setColorLike(name(percentile), percentile);
        chart->appendPoints(name(percentile), *points);
    }
    return int(p50.size());
}

} // namespace ServerLogSeries
