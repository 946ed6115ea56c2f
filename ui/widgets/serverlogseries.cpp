#include "ui/widgets/serverlogseries.h"

#include "core/workload/serverlogfigures.h"
#include "ui/charts/livechartview.h"

#include <QCoreApplication>
#include <QList>
#include <QPointF>

namespace ServerLogSeries {

QString name(const QString& percentile)
{
    return QCoreApplication::translate("LdapLoadView", "server etime %1").arg(percentile);
}

namespace {

void style(LiveChartView* chart)
{
    for (const QString& percentile : { QStringLiteral("p50"), QStringLiteral("p99") }) {
        chart->setDashed(name(percentile));
        chart->setColorLike(name(percentile), percentile);
    }
}

} // namespace

void appendLive(LiveChartView* chart, double t, double p50Ms, double p99Ms)
{
    style(chart);
    const LiveChartView::Batch batch(chart);
    chart->appendPoints(name(QStringLiteral("p50")), { QPointF(t, p50Ms) });
    chart->appendPoints(name(QStringLiteral("p99")), { QPointF(t, p99Ms) });
}

void remove(LiveChartView* chart)
{
    chart->removeSeries(name(QStringLiteral("p50")));
    chart->removeSeries(name(QStringLiteral("p99")));
}

int draw(LiveChartView* chart, const QJsonObject& serverLog)
{
    const ServerLogFigures figures = ServerLogFigures::fromJson(serverLog);
    if (figures.allIntervals == 0)
        return 0;
    QList<QPointF> p50, p99;
    for (const ServerLogFigures::Point& i : figures.intervals) {
        p50 << QPointF(i.t, i.etimeP50Ms);
        p99 << QPointF(i.t, i.etimeP99Ms);
    }
    style(chart);
    const LiveChartView::Batch batch(chart);
    chart->appendPoints(name(QStringLiteral("p50")), p50);
    chart->appendPoints(name(QStringLiteral("p99")), p99);
    return int(p50.size());
}

} // namespace ServerLogSeries
