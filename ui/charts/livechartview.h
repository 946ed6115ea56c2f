#pragma once

#include <QColor>
#include <QFont>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <utility>

class ChartLegend;

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLabel;
class QResizeEvent;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

// A live line chart that takes points, not core types: one line per series name, each batch applied with one
// append and one axis rescale. It keeps a bounded window per series (the last maxPointsPerSeries() points).
// A series goes on the left value axis or on a second one at the right (for a quantity in other units); the
// right axis appears with its first series. A placeholder text stands in the plot while there is no point.
// This folder is the only code that includes QtCharts; the header keeps it out of sight of its users.
class LiveChartView final : public QWidget
{
    Q_OBJECT
public:
    explicit LiveChartView(QWidget* parent = nullptr);
    ~LiveChartView() override;
    Q_DISABLE_COPY_MOVE(LiveChartView)

    enum class Axis
    {
        Left,
        Right
    };

    // Between beginBatch() and the matching endBatch() (they nest), appends and range hints only collect: the axes
    // are rescaled once, at the end (each rescale relays the axes out). Batch below shows it as a scope.
    void beginBatch();
    void endBatch();
    class Batch
    {
    public:
        explicit Batch(LiveChartView* view)
            : m_view(view)
        {
            m_view->beginBatch();
        }
        ~Batch() { m_view->endBatch(); }
        Q_DISABLE_COPY_MOVE(Batch)

    private:
        LiveChartView* m_view;
    };

    // A series stays on the axis it was first appended to.
    void appendPoints(const QString& series, const QList<QPointF>& points, Axis axis = Axis::Left);
    void clear();
    void removeSeries(const QString& series); // its points and its legend entry; nothing when there is none
    void setAxisTitles(const QString& x, const QString& y);
    void setRightAxisTitle(const QString& title);
    // Draws a series dashed (now or when it appears), e.g. one that often lies on top of another.
    void setDashed(const QString& series);
    // Draws a series (when it appears) in the colour another has then: a witness beside what it witnesses.
    void setColorLike(const QString& series, const QString& like);
    QColor seriesColor(const QString& series) const; // invalid when there is no such series
    void setTitle(const QString& title);
    QString title() const;
    // Shown in the middle of the plot while it has no point ("not exposed by the server", "no run yet").
    void setPlaceholderText(const QString& text);
    QString placeholderText() const;
    bool isPlaceholderVisible() const;
    // The x axis covers at least [min, max] (charts stacked on one time axis share it).
    void setMinimumXRange(double min, double max);
    // The x axis counts things (client threads, entries): its ticks fall on whole numbers only.
    void setWholeNumbersOnX(bool whole);
    double xTickInterval() const;

    int pointCount() const;
    // The font of the time axis's tick labels (the application font: View → Text size reaches it).
    QFont axisLabelsFont() const;
    int pointCount(const QString& series) const;
    QStringList seriesNames() const { return m_order; }
    // The axes' current ranges (min, max); they always cover every point shown (once a batch has ended).
    std::pair<double, double> xRange() const;
    std::pair<double, double> yRange() const;
    std::pair<double, double> rightRange() const;
    bool hasRightAxis() const { return m_rightAttached; }

    int maxPointsPerSeries() const { return m_maxPoints; }
    void setMaxPointsPerSeries(int n);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QLineSeries* seriesFor(const QString& name, Axis axis);
    void rescale();
    void requestRescale(); // now, or at the end of the batch
    // How many intervals the vertical axes may have: each label needs its line's height, or QtCharts elides it
    // to "..." (a short chart, at a large text size).
    int verticalIntervals() const;
    void updatePlaceholder();
    void fitTitle();

    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QValueAxis* m_xAxis = nullptr;
    QValueAxis* m_yAxis = nullptr;
    QValueAxis* m_rightAxis = nullptr; // attached (hidden) from the start: see the constructor
    QLabel* m_placeholder = nullptr;
    QString m_title;
    ChartLegend* m_legend = nullptr;
    QHash<QString, QLineSeries*> m_series;
    QHash<QString, Axis> m_seriesAxis;
    QStringList m_dashed;
    QHash<QString, QString> m_colorLike;
    QStringList m_order;
    int m_maxPoints = 20000;
    int m_batchDepth = 0;
    int m_plotHeight = -1;
    bool m_rescalePending = false;
    bool m_rightAttached = false; // shown, with a series on it
    double m_minX = 0;
    bool m_wholeX = false;
    double m_maxX = 0;
};
