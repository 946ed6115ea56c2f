#include "ui/widgets/replicationlagcharts.h"

#include "core/common/units.h"
#include "core/experiments/replicationsummary.h"
#include "ui/charts/livechartview.h"

#include <QGridLayout>

ReplicationLagCharts::ReplicationLagCharts(QWidget* parent)
    : QWidget(parent)
    , m_grid(new QGridLayout(this))
{
    setObjectName(QStringLiteral("replicationLagCharts"));
    m_grid->setContentsMargins(0, 0, 0, 0);
    setConsumers({});
}

QString ReplicationLagCharts::kneeName(double rate)
{
    return tr("knee %1 writes/s").arg(Units::formatNumber(rate, 0));
}

QList<LiveChartView*> ReplicationLagCharts::charts() const
{
    QList<LiveChartView*> out;
    for (const QString& uri : m_order)
        out << m_charts.value(uri);
    return out;
}

LiveChartView* ReplicationLagCharts::addChart(const QString& uri)
{
    auto* chart = new LiveChartView(this);
    chart->setObjectName(QStringLiteral("lagChart%1").arg(m_order.size()));
    chart->setTitle(uri.isEmpty() ? tr("Replication lag") : tr("Lag on %1").arg(uri));
    chart->setAxisTitles(tr("Time (s)"), tr("lag (ms)"));
    chart->setRightAxisTitle(tr("writes/s"));
    chart->setPlaceholderText(tr("each consumer's lag (ms) and the supplier's writes/s, live"));
    chart->setDashed(p99Name());
    chart->setColorLike(p99Name(), p50Name()); // the p99 line beside its p50, one colour, dashed
    const int n = int(m_order.size());
    m_grid->addWidget(chart, n / 2, n % 2);
    m_order << uri;
    m_charts.insert(uri, chart);
    return chart;
}

void ReplicationLagCharts::setConsumers(const QStringList& uris)
{
    for (LiveChartView* c : std::as_const(m_charts))
        delete c;
    m_charts.clear();
    m_order.clear();
    m_lastT.clear();
    m_behind.clear();
    for (const QString& uri : uris)
        addChart(uri);
    if (uris.isEmpty())
        addChart(QString()); // the placeholder before a run
}

LiveChartView* ReplicationLagCharts::chartFor(const QString& uri)
{
    if (LiveChartView* chart = m_charts.value(uri))
        return chart;
    if (m_order == QStringList { QString() }) { // the placeholder chart goes
        delete m_charts.take(QString());
        m_order.clear();
    }
    return addChart(uri);
}

void ReplicationLagCharts::addInterval(const QJsonObject& interval)
{
    const ReplicationFigures::Interval iv = ReplicationFigures::Interval::fromJson(interval);
    const double t = iv.t;
    const double writes = iv.writeOkPerS;
    for (const ReplicationFigures::ConsumerFigures& c : iv.consumers) {
        const QString& uri = c.uri;
        LiveChartView* chart = chartFor(uri);
        ReplicationFigures::ConsumerSeries s;
        ReplicationFigures::addInterval(interval, uri, &s);
        const LiveChartView::Batch batch(chart);
        // writes/s first, so that each series has the same colour in every run (the behind line comes when it does)
        if (ReplicationFigures::rateSpanOk(m_lastT.value(uri, 0), t))
            chart->appendPoints(writesName(), { QPointF(t, writes) }, LiveChartView::Axis::Right);
        chart->appendPoints(p50Name(), s.p50);
        chart->appendPoints(p99Name(), s.p99);
        if (s.everBehind && !m_behind.value(uri) && m_lastT.contains(uri))
            chart->appendPoints(behindName(), { QPointF(m_lastT.value(uri), 0) }); // from 0 at the interval before
        if (s.everBehind || m_behind.value(uri)) {
            m_behind.insert(uri, true);
            chart->appendPoints(behindName(), s.behindMs);
        }
        m_lastT.insert(uri, t);
    }
}

void ReplicationLagCharts::addIntervals(const QJsonArray& intervals)
{
    for (const auto& v : intervals)
        addInterval(v.toObject());
}

void ReplicationLagCharts::markKnee(std::optional<double> writeRate)
{
    if (!writeRate)
        return;
    for (LiveChartView* chart : std::as_const(m_charts)) {
        if (chart->pointCount() == 0)
            continue;
        const auto [x0, x1] = chart->xRange();
        const QString name = kneeName(*writeRate);
        chart->setDashed(name);
        chart->appendPoints(name, { QPointF(x0, *writeRate), QPointF(x1, *writeRate) }, LiveChartView::Axis::Right);
    }
}
