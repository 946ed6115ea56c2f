#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <utility>

class ChartLegend;

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QResizeEvent;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

// A coverage curve: measured points (scatter), a fitted line with its band (a shaded area between two lines),
// a reference overlay (dashed, named after its source) and a horizontal target line. It takes points, not core
// types: x is the coverage in percent (0..100), y is ops/s. A placeholder stands in the plot while it is empty.
// Like LiveChartView, this file keeps QtCharts out of sight of its users.
class CurveChartView final : public QWidget
{
    Q_OBJECT
public:
    explicit CurveChartView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(CurveChartView)

    void setMeasured(const QList<QPointF>& points, const QString& name);
    // Measured points that are not where the sweep asked (the server clamped the cache): ringed, each labelled
    // with the coverage it was measured at; they are drawn there (setMeasured), never at the asked coverage.
    void setMoved(const QList<QPointF>& points, const QString& name);
    int movedCount() const;
    void setFit(const QList<QPointF>& line, const QList<QPointF>& low, const QList<QPointF>& high, const QString& name);
    void setReference(const QList<QPointF>& points, const QString& name);
    // A horizontal line at y (ops/s); y <= 0 hides it.
    void setTarget(double opsPerSec, const QString& name);
    void clear();
    void setAxisTitles(const QString& x, const QString& y);
    // Above the plot; clear() keeps it.
    void setTitle(const QString& title);
    QString title() const;
    void setPlaceholderText(const QString& text);
    bool isPlaceholderVisible() const;

    int measuredCount() const;
    int fitCount() const;
    int referenceCount() const;
    bool hasBand() const;
    bool hasTarget() const;
    double target() const { return m_target; }
    QString referenceName() const;
    std::pair<double, double> yRange() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rescale();
    void updatePlaceholder();
    void fitTitle();
    void updateTargetLine();

    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QValueAxis* m_xAxis = nullptr;
    QValueAxis* m_yAxis = nullptr;
    QScatterSeries* m_measured = nullptr;
    QScatterSeries* m_moved = nullptr;
    QLineSeries* m_fit = nullptr;
    QLineSeries* m_low = nullptr;
    QLineSeries* m_high = nullptr;
    QAreaSeries* m_band = nullptr;
    QLineSeries* m_reference = nullptr;
    QLineSeries* m_targetLine = nullptr;
    QLabel* m_placeholder = nullptr;
    QString m_title;
    ChartLegend* m_legend = nullptr;
    double m_target = 0;
};
