#pragma once

#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <utility>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

// A live line chart that takes points, not core types: one line per series name, each batch applied with one
// append and one axis rescale. It keeps a bounded window per series (the last maxPointsPerSeries() points).
// This folder is the only code that includes QtCharts; the header keeps it out of sight of its users.
class LiveChartView final : public QWidget
{
    Q_OBJECT
public:
    explicit LiveChartView(QWidget* parent = nullptr);
    ~LiveChartView() override;
    Q_DISABLE_COPY_MOVE(LiveChartView)

    void appendPoints(const QString& series, const QList<QPointF>& points);
    void clear();
    void setAxisTitles(const QString& x, const QString& y);
    void setTitle(const QString& title);

    int pointCount() const;
    int pointCount(const QString& series) const;
    QStringList seriesNames() const { return m_order; }
    // The axes' current ranges (min, max); they always cover every point shown.
    std::pair<double, double> xRange() const;
    std::pair<double, double> yRange() const;

    int maxPointsPerSeries() const { return m_maxPoints; }
    void setMaxPointsPerSeries(int n);

private:
    QLineSeries* seriesFor(const QString& name);
    void rescale();

    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QValueAxis* m_xAxis = nullptr;
    QValueAxis* m_yAxis = nullptr;
    QHash<QString, QLineSeries*> m_series;
    QStringList m_order;
    int m_maxPoints = 20000;
};
