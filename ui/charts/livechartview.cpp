#include "ui/charts/livechartview.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/chartlegend.h"
#include "ui/charts/charttheme.h"
#include "ui/widgets/notestyle.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QLabel>
#include <QPainter>
#include <QResizeEvent>
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

// sprintf-style label format with the decimals the step needs (numbers in full, never "1e+06"): a step of 0.0025
// needs four, or its labels repeat ("0.01, 0.01, 0.01").
QString labelFormat(double step)
{
    for (int decimals = 0; decimals < 9; ++decimals) {
        const double scaled = step * std::pow(10.0, decimals);
        if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
            return QStringLiteral("%.") + QString::number(decimals) + u'f';
    }
    return QStringLiteral("%.9f");
}

// Range exactly as given; ticks on multiples of a round step (anchored at 0), so the plot wastes no space.
// The step changes on the side that keeps the tick count small: a range 0..15,000 with the old step of 2 would
// make QtCharts create 7,500 ticks (seconds of a frozen window) before the new step arrives.
// Each property is set only when it changes: every setter relays the axis out (its labels are text items), and
// setLabelFormat does so even when given the format it has.
void setAxis(QValueAxis* axis, double min, double max, int maxTicks, double leastStep = 0)
{
    const double step = std::max(leastStep, niceStep(max - min, maxTicks));
    if (axis->tickAnchor() != 0)
        axis->setTickAnchor(0);
    const bool newRange = axis->min() != min || axis->max() != max;
    if (step >= axis->tickInterval()) {
        if (axis->tickInterval() != step)
            axis->setTickInterval(step);
        if (newRange)
            axis->setRange(min, max);
    } else {
        if (newRange)
            axis->setRange(min, max);
        axis->setTickInterval(step);
    }
    if (const QString format = labelFormat(step); axis->labelFormat() != format)
        axis->setLabelFormat(format);
}

} // namespace

LiveChartView::LiveChartView(QWidget* parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_xAxis(new QValueAxis)
    , m_yAxis(new QValueAxis)
    , m_rightAxis(new QValueAxis)
    , m_legend(new ChartLegend(this))
{
    ChartTheme::apply(m_chart);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->legend()->setVisible(false); // ChartLegend below the view stands for it
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    m_xAxis->setTickType(QValueAxis::TicksDynamic);
    m_yAxis->setTickType(QValueAxis::TicksDynamic);
    setAxis(m_xAxis, 0, 10, 8);
    setAxis(m_yAxis, 0, 100, 6);
    m_rightAxis->setTickType(QValueAxis::TicksDynamic);
    setAxis(m_rightAxis, 0, 10, 6);
    // Attached for good, shown with its first series: an axis removed from a QChart leaves its title and labels
    // drawn until its item is deleted later, over the new one ("ms ms").
    m_chart->addAxis(m_rightAxis, Qt::AlignRight);
    m_rightAxis->setVisible(false);

    // The view takes ownership of the chart. Never setUseOpenGL: it crashes on the offscreen platform.
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("chartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    // A live chart moves its items at every batch (series, axes, grid lines): a BSP index of them is rebuilt each
    // time (a queued update of the scene per change), which a scene of a few dozen items does not need.
    m_view->scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    // A plot made lower may hold fewer labels on its vertical axes: the ticks follow (at most once per change).
    connect(m_chart, &QChart::plotAreaChanged, this, [this](const QRectF& area) {
        if (int(area.height()) != m_plotHeight) {
            m_plotHeight = int(area.height());
            requestRescale();
        }
        if (m_placeholder)
            updatePlaceholder();
    });
    // The whole view (plot and legend) has the minimum: a caller that lowers it shrinks the plot, never drops the
    // legend or cuts the plot's axis off.
    setMinimumHeight(200);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    ChartExport::addSaveActions(m_view, this);
    ChartTheme::followFont(m_chart, this); // View → Text size reaches the axes and the title

    m_placeholder = new QLabel(m_view);
    m_placeholder->setObjectName(QStringLiteral("chartPlaceholder"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_placeholder->setStyleSheet(QStringLiteral("QLabel { color: %1; background: transparent; }")
                                     .arg(NoteStyle::colour(QApplication::palette()).name()));
    m_placeholder->hide();
}

LiveChartView::~LiveChartView() = default;

QLineSeries* LiveChartView::seriesFor(const QString& name, Axis axis)
{
    if (QLineSeries* s = m_series.value(name))
        return s;
    auto* s = new QLineSeries(m_chart);
    s->setName(name);
    m_chart->addSeries(s);
    s->attachAxis(m_xAxis);
    if (axis == Axis::Right) {
        if (!m_rightAttached) {
            m_rightAxis->setVisible(true);
            m_rightAttached = true;
        }
        s->attachAxis(m_rightAxis);
    } else {
        s->attachAxis(m_yAxis);
    }
    QPen pen = s->pen();
    pen.setWidthF(2.0);
    if (m_dashed.contains(name))
        pen.setStyle(Qt::DashLine);
    if (const QLineSeries* like = m_series.value(m_colorLike.value(name)))
        pen.setColor(like->pen().color());
    s->setPen(pen);
    m_series.insert(name, s);
    m_seriesAxis.insert(name, axis);
    m_order.append(name);
    return s;
}

void LiveChartView::appendPoints(const QString& series, const QList<QPointF>& points, Axis axis)
{
    if (points.isEmpty())
        return;
    const bool fresh = !m_series.contains(series);
    QLineSeries* s = seriesFor(series, axis);
    s->append(points); // one bulk append: one repaint per batch, not per point
    if (fresh)
        m_legend->sync(m_chart); // now that it has points
    const int excess = s->count() - m_maxPoints;
    if (excess > 0)
        s->removePoints(0, excess);
    requestRescale();
    updatePlaceholder();
}

void LiveChartView::beginBatch()
{
    ++m_batchDepth;
}

void LiveChartView::endBatch()
{
    if (m_batchDepth > 0 && --m_batchDepth == 0 && m_rescalePending)
        rescale();
}

void LiveChartView::requestRescale()
{
    if (m_batchDepth > 0)
        m_rescalePending = true;
    else
        rescale();
}

void LiveChartView::clear()
{
    for (QLineSeries* s : std::as_const(m_series)) {
        m_chart->removeSeries(s);
        delete s;
    }
    m_series.clear();
    m_seriesAxis.clear();
    m_order.clear();
    m_rightAxis->setVisible(false);
    m_rightAttached = false;
    m_minX = m_maxX = 0;
    m_legend->sync(m_chart);
    setAxis(m_xAxis, 0, 10, 8);
    setAxis(m_yAxis, 0, 100, 6);
    setAxis(m_rightAxis, 0, 10, 6);
    updatePlaceholder();
}

void LiveChartView::removeSeries(const QString& series)
{
    QLineSeries* s = m_series.take(series);
    if (!s)
        return;
    m_chart->removeSeries(s);
    delete s;
    m_seriesAxis.remove(series);
    m_order.removeAll(series);
    m_legend->sync(m_chart);
    requestRescale();
    updatePlaceholder();
}

void LiveChartView::setAxisTitles(const QString& x, const QString& y)
{
    m_xAxis->setTitleText(x);
    m_yAxis->setTitleText(y);
}

void LiveChartView::setColorLike(const QString& series, const QString& like)
{
    m_colorLike.insert(series, like);
}

QColor LiveChartView::seriesColor(const QString& series) const
{
    const QLineSeries* s = m_series.value(series);
    return s ? s->pen().color() : QColor();
}

void LiveChartView::setDashed(const QString& series)
{
    if (!m_dashed.contains(series))
        m_dashed << series;
    if (QLineSeries* s = m_series.value(series)) {
        QPen pen = s->pen();
        pen.setStyle(Qt::DashLine);
        s->setPen(pen);
        m_legend->sync(m_chart);
    }
}

void LiveChartView::setRightAxisTitle(const QString& title)
{
    m_rightAxis->setTitleText(title);
}

void LiveChartView::setTitle(const QString& title)
{
    m_title = title;
    fitTitle();
}

QString LiveChartView::title() const
{
    return m_title;
}

// QtCharts cuts a title wider than the chart ("Server threads and connections (cn=m..."): wrapped instead.
// Set only when it changes: a new title lays the whole chart out again (its axes' labels are text documents).
void LiveChartView::fitTitle()
{
    const QString wrapped
        = ChartTheme::wrapped(m_title, QFontMetricsF(m_chart->titleFont()), std::max(60, m_view->width() - 24));
    if (m_chart->title() != wrapped)
        m_chart->setTitle(wrapped);
}

void LiveChartView::setPlaceholderText(const QString& text)
{
    m_placeholder->setText(text);
    updatePlaceholder();
}

QString LiveChartView::placeholderText() const
{
    return m_placeholder->text();
}

bool LiveChartView::isPlaceholderVisible() const
{
    return !m_placeholder->isHidden();
}

void LiveChartView::updatePlaceholder()
{
    m_placeholder->setVisible(!m_placeholder->text().isEmpty() && pointCount() == 0);
    if (!m_placeholder->isHidden()) {
        // Over the plot only, never over the axes' labels and titles.
        // QChartView shows the scene from the chart's corner, so scene -> view is a shift by the viewport's place.
        // (mapFromScene is not: before the view has its new size it still centres the old scene rect, and the
        // placeholder landed half a view off, over the axis labels, on a page shown after the window.)
        const QRect plot
            = m_chart->mapRectToScene(m_chart->plotArea()).toAlignedRect().translated(m_view->viewport()->pos());
        m_placeholder->setGeometry(
            plot.isValid() ? plot.adjusted(4, 4, -4, -4) : m_view->rect().adjusted(40, 30, -40, -30));
        m_placeholder->raise();
    }
}

void LiveChartView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitTitle();
    updatePlaceholder();
}

int LiveChartView::verticalIntervals() const
{
    // QtCharts gives each of n labels (n - 1 intervals) the axis height / n, less twice its padding (4 px).
    const double lineHeight = QFontMetricsF(m_yAxis->labelsFont()).height() + 2 * 4 + 1;
    const int labels = int(m_chart->plotArea().height() / lineHeight);
    return std::clamp(labels - 1, 2, 6);
}

void LiveChartView::setWholeNumbersOnX(bool whole)
{
    m_wholeX = whole;
    requestRescale();
}

double LiveChartView::xTickInterval() const
{
    return m_xAxis->tickInterval();
}

void LiveChartView::setMinimumXRange(double min, double max)
{
    m_minX = min;
    m_maxX = max;
    requestRescale();
}

QFont LiveChartView::axisLabelsFont() const
{
    return m_xAxis->labelsFont();
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

std::pair<double, double> LiveChartView::rightRange() const
{
    return { m_rightAxis->min(), m_rightAxis->max() };
}

void LiveChartView::setMaxPointsPerSeries(int n)
{
    m_maxPoints = std::max(2, n);
    for (QLineSeries* s : std::as_const(m_series)) {
        const int excess = s->count() - m_maxPoints;
        if (excess > 0)
            s->removePoints(0, excess);
    }
    requestRescale();
}

void LiveChartView::rescale()
{
    m_rescalePending = false;
    struct Range
    {
        double min = 0; // value charts start at zero
        double max = std::numeric_limits<double>::lowest();
        bool any = false;
    };
    double xMin = std::numeric_limits<double>::max();
    double xMax = std::numeric_limits<double>::lowest();
    Range left;
    Range right;
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it) {
        Range& r = m_seriesAxis.value(it.key()) == Axis::Right ? right : left;
        const QList<QPointF> pts = it.value()->points();
        for (const QPointF& p : pts) {
            if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
                continue;
            r.any = true;
            xMin = std::min(xMin, p.x());
            xMax = std::max(xMax, p.x());
            r.min = std::min(r.min, p.y());
            r.max = std::max(r.max, p.y());
        }
    }
    const bool hint = m_maxX > m_minX;
    if (!left.any && !right.any && !hint) {
        setAxis(m_yAxis, 0, 100, verticalIntervals()); // the empty chart's axis, as few labels as its height holds
        return;
    }
    if (hint) {
        xMin = std::min(xMin, m_minX);
        xMax = std::max(xMax, m_maxX);
    }
    xMin = std::min(xMin, 0.0);
    if (xMax <= xMin)
        xMax = xMin + 1;
    setAxis(m_xAxis, xMin, xMax, 8, m_wholeX ? 1.0 : 0.0);
    for (auto [axis, r] : { std::pair { m_yAxis, left }, std::pair { m_rightAxis, right } }) {
        if (!r.any)
            continue;
        double yMax = r.max * 1.05;
        if (yMax <= r.min)
            yMax = r.min + 1;
        // Up to the next tick: the axis (and its labels, text items) then changes only when the data crosses a
        // tick, not at every batch whose maximum moves a little.
        // The range on the fine step (the plot keeps its height for the data, whatever the text size); the labels
        // on as many ticks as the plot's height holds.
        const double step = niceStep(yMax - r.min, 6);
        yMax = r.min + std::ceil((yMax - r.min) / step - 1e-9) * step;
        setAxis(axis, r.min, yMax, verticalIntervals());
    }
}
