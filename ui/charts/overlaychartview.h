#pragma once

#include "core/common/runrecord.h"

#include <QWidget>

class ChartLegend;
class QChart;
class QLabel;
class QValueAxis;

// The History page's overlaid interval chart: one line per run of the headline's per-interval value (ops/s, MB/s,
// IOPS) against seconds since the measured phase began. Runs whose metric differs from the first one's are left
// out and named in the note.
class OverlayChartView final : public QWidget
{
    Q_OBJECT
public:
    struct Run
    {
        QString label;
        RunRecord record;
    };

    explicit OverlayChartView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(OverlayChartView)

    void setRuns(const QList<Run>& runs);
    void clear() { setRuns({}); }
    int lineCount() const;
    QString note() const;
    QString metricKey() const { return m_key; }

private:
    QChart* m_chart;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLabel* m_note;
    ChartLegend* m_legend;
    QString m_key;
};
