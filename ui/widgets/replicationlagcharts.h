#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QWidget>

#include <optional>

class LiveChartView;
class QGridLayout;

// A lag chart per consumer over the run's time: p50 and p99 lag (ms) of the markers seen in each interval, the age
// of the oldest unseen marker once the consumer falls behind ("behind for at least", ms), and on the right axis
// the writes the supplier acknowledged per second; after a write ramp the knee's rate as a dashed line there.
// The charts are LiveChartViews (axes kept, wrapping legends, PNG/SVG in their context menu).
class ReplicationLagCharts final : public QWidget
{
    Q_OBJECT
public:
    explicit ReplicationLagCharts(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ReplicationLagCharts)

    void setConsumers(const QStringList& uris); // one chart each, empty (the charts of an earlier run go)
    void addInterval(const QJsonObject& interval);
    void addIntervals(const QJsonArray& intervals);
    void markKnee(std::optional<double> writeRate);
    LiveChartView* chartOf(const QString& uri) const { return m_charts.value(uri); }
    QList<LiveChartView*> charts() const;
    static QString p50Name() { return tr("p50 lag"); }
    static QString p99Name() { return tr("p99 lag"); }
    static QString behindName() { return tr("behind for at least"); }
    static QString writesName() { return tr("writes/s"); }
    static QString kneeName(double rate);

private:
    LiveChartView* addChart(const QString& uri);
    LiveChartView* chartFor(const QString& uri); // its chart, made when a consumer first appears

    QGridLayout* m_grid = nullptr;
    QStringList m_order;
    QHash<QString, LiveChartView*> m_charts;
    QHash<QString, double> m_lastT;
    QHash<QString, bool> m_behind;
};
