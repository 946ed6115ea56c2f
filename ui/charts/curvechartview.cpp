#include "ui/charts/curvechartview.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/chartlegend.h"
#include "ui/charts/charttheme.h"

#include <QFontMetricsF>
#include <QLabel>
#include <QPainter>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace {

double niceStep(double span, int maxTicks)
{
    const double raw = span / maxTicks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : { 1.0, 2.0, 2.5, 5.0 })
        if (m * mag >= raw)
            return m * mag;
    return 10.0 * mag;
}

template <typename S> S* addSeries(QChart* chart, QValueAxis* x, QValueAxis* y)
{
    auto* s = new S(chart);
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
    return s;
}

QList<QPointF> finite(const QList<QPointF>& in)
{
    QList<QPointF> out;
    for (const QPointF& p : in)
        if (std::isfinite(p.x()) && std::isfinite(p.y()))
            out << p;
    return out;
}

} // namespace

CurveChartView::CurveChartView(QWidget* parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_xAxis(new QValueAxis)
    , m_yAxis(new QValueAxis)
    , m_legend(new ChartLegend(this))
{
    ChartTheme::apply(m_chart);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->legend()->setVisible(false); // m_legend stands for it
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    m_xAxis->setRange(0, 100);
    m_xAxis->setTickType(QValueAxis::TicksDynamic);
    m_xAxis->setTickAnchor(0);
    m_xAxis->setTickInterval(10);
    m_xAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_yAxis->setTickType(QValueAxis::TicksDynamic);
    m_yAxis->setTickAnchor(0);
    m_yAxis->setLabelFormat(QStringLiteral("%.0f"));

    // Drawn in this order: band under the lines, points on top.
    m_low = new QLineSeries(m_chart);
    m_high = new QLineSeries(m_chart);
    m_band = addSeries<QAreaSeries>(m_chart, m_xAxis, m_yAxis);
    m_band->setUpperSeries(m_high);
    m_band->setLowerSeries(m_low);
    m_band->setName(tr("fit band"));
    m_band->setColor(QColor(33, 150, 243, 50));
    m_band->setBorderColor(QColor(33, 150, 243, 90));
    m_reference = addSeries<QLineSeries>(m_chart, m_xAxis, m_yAxis);
    m_reference->setPen(QPen(QColor(120, 120, 120), 2, Qt::DashLine));
    m_fit = addSeries<QLineSeries>(m_chart, m_xAxis, m_yAxis);
    m_fit->setPen(QPen(QColor(21, 101, 192), 2.5));
    m_targetLine = addSeries<QLineSeries>(m_chart, m_xAxis, m_yAxis);
    m_targetLine->setPen(QPen(QColor(198, 40, 40), 1.5, Qt::DotLine));
    m_measured = addSeries<QScatterSeries>(m_chart, m_xAxis, m_yAxis);
    m_measured->setMarkerSize(11);
    m_measured->setColor(QColor(255, 143, 0));
    m_measured->setBorderColor(QColor(90, 50, 0));
    m_moved = addSeries<QScatterSeries>(m_chart, m_xAxis, m_yAxis);
    m_moved->setMarkerSize(19);
    m_moved->setColor(Qt::transparent);
    m_moved->setBorderColor(QColor(198, 40, 40));
    m_moved->setPointLabelsFormat(QStringLiteral("measured at @xPoint %"));
    m_moved->setPointLabelsVisible(true);
    m_moved->setPointLabelsClipping(false);

    m_view = new QChartView(m_chart, this); // never setUseOpenGL (offscreen)
    m_view->setObjectName(QStringLiteral("curveChartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(220); // the whole view's, plot and legend: see LiveChartView
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    ChartExport::addSaveActions(m_view, this);
    ChartTheme::followFont(m_chart, this); // View → Text size reaches the axes and the title

    m_placeholder = new QLabel(m_view);
    m_placeholder->setObjectName(QStringLiteral("curvePlaceholder"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAttribute(Qt::WA_TransparentForMouseEvents);
    // #666 was 2.9:1 on the dark chart; these read at ≥ 5:1 on either.
    m_placeholder->setStyleSheet(
        QStringLiteral("QLabel { color: %1; background: transparent; }")
            .arg(ChartTheme::paletteIsDark() ? QStringLiteral("#a8a8a8") : QStringLiteral("#595959")));
    clear();
}

void CurveChartView::setMeasured(const QList<QPointF>& points, const QString& name)
{
    m_measured->replace(finite(points));
    m_measured->setName(name);
    rescale();
}

void CurveChartView::setMoved(const QList<QPointF>& points, const QString& name)
{
    m_moved->replace(finite(points));
    m_moved->setName(name);
    m_legend->sync(m_chart);
}

int CurveChartView::movedCount() const
{
    return int(m_moved->count());
}

void CurveChartView::setFit(
    const QList<QPointF>& line, const QList<QPointF>& low, const QList<QPointF>& high, const QString& name)
{
    m_fit->replace(finite(line));
    m_fit->setName(name);
    const QList<QPointF> l = finite(low);
    const QList<QPointF> h = finite(high);
    const bool band = !l.isEmpty() && l.size() == h.size();
    m_low->replace(band ? l : QList<QPointF>());
    m_high->replace(band ? h : QList<QPointF>());
    m_band->setVisible(band);
    rescale();
}

void CurveChartView::setReference(const QList<QPointF>& points, const QString& name)
{
    m_reference->replace(finite(points));
    m_reference->setName(name);
    rescale();
}

void CurveChartView::setTarget(double opsPerSec, const QString& name)
{
    m_target = std::isfinite(opsPerSec) && opsPerSec > 0 ? opsPerSec : 0;
    m_targetLine->setName(name);
    rescale();
}

void CurveChartView::clear()
{
    m_measured->clear();
    m_moved->clear();
    m_fit->clear();
    m_low->clear();
    m_high->clear();
    m_band->setVisible(false);
    m_reference->clear();
    m_target = 0;
    m_targetLine->clear();
    rescale();
}

void CurveChartView::setAxisTitles(const QString& x, const QString& y)
{
    m_xAxis->setTitleText(x);
    m_yAxis->setTitleText(y);
}

void CurveChartView::setTitle(const QString& title)
{
    m_title = title;
    fitTitle();
}

QString CurveChartView::title() const
{
    return m_title;
}

// QtCharts cuts a title wider than the chart ("Server threads and connections (cn=m..."): wrapped instead.
void CurveChartView::fitTitle()
{
    m_chart->setTitle(
        ChartTheme::wrapped(m_title, QFontMetricsF(m_chart->titleFont()), std::max(60, m_view->width() - 24)));
}

void CurveChartView::setPlaceholderText(const QString& text)
{
    m_placeholder->setText(text);
    updatePlaceholder();
}

bool CurveChartView::isPlaceholderVisible() const
{
    return !m_placeholder->isHidden();
}

int CurveChartView::measuredCount() const
{
    return int(m_measured->count());
}

int CurveChartView::fitCount() const
{
    return int(m_fit->count());
}

int CurveChartView::referenceCount() const
{
    return int(m_reference->count());
}

bool CurveChartView::hasBand() const
{
    return m_band->isVisible() && m_low->count() > 0;
}

bool CurveChartView::hasTarget() const
{
    return m_targetLine->count() > 0;
}

QString CurveChartView::referenceName() const
{
    return m_reference->name();
}

std::pair<double, double> CurveChartView::yRange() const
{
    return { m_yAxis->min(), m_yAxis->max() };
}

void CurveChartView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitTitle();
    updatePlaceholder();
}

void CurveChartView::updatePlaceholder()
{
    const bool empty = m_measured->count() == 0 && m_fit->count() == 0 && m_reference->count() == 0;
    m_placeholder->setVisible(!m_placeholder->text().isEmpty() && empty);
    if (!m_placeholder->isHidden()) {
        m_placeholder->setGeometry(m_view->rect().adjusted(40, 30, -40, -30));
        m_placeholder->raise();
    }
    // An empty series still has a legend marker: show only those with points.
    const auto markers = m_chart->legend()->markers();
    for (auto* marker : markers) {
        auto* s = marker->series();
        bool visible = true;
        if (s == m_band)
            visible = hasBand();
        else if (auto* xy = qobject_cast<QXYSeries*>(s))
            visible = xy->count() > 0;
        marker->setVisible(visible);
    }
    m_legend->sync(m_chart);
}

void CurveChartView::rescale()
{
    double yMax = m_target;
    for (const QXYSeries* s :
        { static_cast<QXYSeries*>(m_measured), static_cast<QXYSeries*>(m_fit), static_cast<QXYSeries*>(m_reference) }) {
        const QList<QPointF> pts = s->points();
        for (const QPointF& p : pts)
            yMax = std::max(yMax, p.y());
    }
    if (m_band->isVisible()) {
        // The band may run off to infinity near 1/t_hit: never let it set the scale beyond 1.5 × the rest.
        const double cap = yMax * 1.5;
        const QList<QPointF> pts = m_high->points();
        for (const QPointF& p : pts)
            yMax = std::max(yMax, std::min(p.y(), cap));
    }
    yMax = yMax > 0 ? yMax * 1.08 : 100;
    const double step = niceStep(yMax, 6);
    // The step first when it grows, the range first when it shrinks: never thousands of ticks in between.
    if (step >= m_yAxis->tickInterval()) {
        m_yAxis->setTickInterval(step);
        m_yAxis->setRange(0, std::ceil(yMax / step) * step);
    } else {
        m_yAxis->setRange(0, std::ceil(yMax / step) * step);
        m_yAxis->setTickInterval(step);
    }
    m_targetLine->clear();
    if (m_target > 0)
        m_targetLine->append({ QPointF(0, m_target), QPointF(100, m_target) });
    updatePlaceholder();
}
