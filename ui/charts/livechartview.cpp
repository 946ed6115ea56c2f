#include "ui/charts/livechartview.h"

#include <QPainter>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

// The smallest of 1, 2, 2.5, 5 x 10^k that divides span into at most maxTicks steps.
double niceStep(double span, int maxTicks)
{
    const double raw = span / maxTicks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : { 1.0, 2.0, 2.5, 5.0 })
        if (m * mag >= raw)
            return m * mag;
    return 10.0 * mag;
}

// sprintf-style label format with the decimals the step needs (numbers in full, never "1e+06").
QString labelFormat(double step)
{
    if (std::fabs(step - std::round(step)) < 1e-9)
        return QStringLiteral("%.0f");
    if (std::fabs(step * 10 - std::round(step * 10)) < 1e-6)
        return QStringLiteral("%.1f");
    return QStringLiteral("%.2f");
}

// Range exactly as given; ticks on multiples of a round step (anchored at 0), so the plot wastes no space.
void setAxis(QValueAxis* axis, double min, double max, int maxTicks)
{
    const double step = niceStep(max - min, maxTicks);
    axis->setRange(min, max);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setLabelFormat(labelFormat(step));
}

} // namespace

LiveChartView::LiveChartView(QWidget* parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_xAxis(new QValueAxis)
    , m_yAxis(new QValueAxis)
{
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setBackgroundRoundness(0);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setVisible(false);
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    m_xAxis->setTickType(QValueAxis::TicksDynamic);
    m_yAxis->setTickType(QValueAxis::TicksDynamic);
    setAxis(m_xAxis, 0, 10, 8);
    setAxis(m_yAxis, 0, 100, 6);

    // The view takes ownership of the chart. Never setUseOpenGL: it crashes on the offscreen platform.
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("chartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(200);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

LiveChartView::~LiveChartView() = default;

QLineSeries* LiveChartView::seriesFor(const QString& name)
{
    if (QLineSeries* s = m_series.value(name))
        return s;
    auto* s = new QLineSeries(m_chart);
    s->setName(name);
    m_chart->addSeries(s);
    s->attachAxis(m_xAxis);
    s->attachAxis(m_yAxis);
    QPen pen = s->pen();
    pen.setWidthF(2.0);
    s->setPen(pen);
    m_series.insert(name, s);
    m_order.append(name);
    m_chart->legend()->setVisible(true);
    return s;
}

void LiveChartView::appendPoints(const QString& series, const QList<QPointF>& points)
{
    if (points.isEmpty())
        return;
    QLineSeries* s = seriesFor(series);
    s->append(points); // one bulk append: one repaint per batch, not per point
    const int excess = s->count() - m_maxPoints;
    if (excess > 0)
        s->removePoints(0, excess);
    rescale();
}

void LiveChartView::clear()
{
    for (QLineSeries* s : std::as_const(m_series)) {
        m_chart->removeSeries(s);
        delete s;
    }
    m_series.clear();
    m_order.clear();
    m_chart->legend()->setVisible(false);
    setAxis(m_xAxis, 0, 10, 8);
    setAxis(m_yAxis, 0, 100, 6);
}

void LiveChartView::setAxisTitles(const QString& x, const QString& y)
{
    m_xAxis->setTitleText(x);
    m_yAxis->setTitleText(y);
}

void LiveChartView::setTitle(const QString& title)
{
    m_chart->setTitle(title);
}

int LiveChartView::pointCount() const
{
    int n = 0;
    for (const QLineSeries* s : m_series)
        n += s->count();
    return n;
}

int LiveChartView::pointCount(const QString& series) const
{
    const QLineSeries* s = m_series.value(series);
    return s ? s->count() : 0;
}

std::pair<double, double> LiveChartView::xRange() const
{
    return { m_xAxis->min(), m_xAxis->max() };
}

std::pair<double, double> LiveChartView::yRange() const
{
    return { m_yAxis->min(), m_yAxis->max() };
}

void LiveChartView::setMaxPointsPerSeries(int n)
{
    m_maxPoints = std::max(2, n);
    for (QLineSeries* s : std::as_const(m_series)) {
        const int excess = s->count() - m_maxPoints;
        if (excess > 0)
            s->removePoints(0, excess);
    }
    rescale();
}

void LiveChartView::rescale()
{
    double xMin = std::numeric_limits<double>::max();
    double xMax = std::numeric_limits<double>::lowest();
    double yMin = 0; // throughput charts start at zero
    double yMax = std::numeric_limits<double>::lowest();
    bool any = false;
    for (const QLineSeries* s : std::as_const(m_series)) {
        const QList<QPointF> pts = s->points();
        for (const QPointF& p : pts) {
            if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
                continue;
            any = true;
            xMin = std::min(xMin, p.x());
            xMax = std::max(xMax, p.x());
            yMin = std::min(yMin, p.y());
            yMax = std::max(yMax, p.y());
        }
    }
    if (!any)
        return;
    xMin = std::min(xMin, 0.0);
    if (xMax <= xMin)
        xMax = xMin + 1;
    yMax = yMax * 1.05;
    if (yMax <= yMin)
        yMax = yMin + 1;
    setAxis(m_xAxis, xMin, xMax, 8);
    setAxis(m_yAxis, yMin, yMax, 6);
}
