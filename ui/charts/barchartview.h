#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

class ChartLegend;

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QBarCategoryAxis;
class QCategoryAxis;
class QChart;
class QChartView;
class QEvent;
class QLabel;
class QResizeEvent;
class QValueAxis;
QT_END_NAMESPACE

// Labelled horizontal bars, coloured by meaning, with an optional vertical target line: what a stakeholder reads at a
// glance ("P10 · 128 GiB", "t3.medium caps it"). The label carries the figure, the bar its size; a log scale puts
// 4 GiB and 32 TiB on one chart. Like the other views here, it takes plain values and keeps QtCharts out of sight.
class BarChartView final : public QWidget
{
    Q_OBJECT
public:
    enum class Tone
    {
        Good,
        Warn,
        Bad,
        Neutral,
        Measured
    };
    struct Bar
    {
        QString label;
        double value = 0; // <= 0: no bar (the label still shows, e.g. "no size meets it")
        Tone tone = Tone::Neutral;
    };

    explicit BarChartView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(BarChartView)

    void setTitle(const QString& title);
    void setAxisTitle(const QString& title);
    void setLogScale(bool log, const QString& unit = QString()); // log: 1, 10, 100, ... with "unit" labels
    void setBars(const QList<Bar>& bars);
    void setTarget(double value, const QString& name); // <= 0 hides it
    void setPlaceholderText(const QString& text);
    // Legend names for Good, Warn, Bad, Neutral, Measured (in that order); an empty name keeps the default.
    void setToneNames(const QStringList& names);

    int barCount() const { return int(m_bars.size()); }
    QStringList labels() const;
    QList<double> values() const;
    QList<Tone> tones() const;
    double target() const { return m_target; }
    bool isPlaceholderVisible() const;
    static QColor color(Tone tone);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void fitLabels();
    QAbstractAxis* setUpValueAxis(double max);
    void showBarTip(bool on, int index);
    double x(double value) const;

    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_placeholder = nullptr;
    ChartLegend* m_legend = nullptr;
    QBarCategoryAxis* m_categoryAxis = nullptr; // the axes: added once, owned by the chart
    QCategoryAxis* m_logAxis = nullptr;
    QValueAxis* m_valueAxis = nullptr;
    QValueAxis* m_targetAxis = nullptr;
    QList<Bar> m_bars;
    bool m_log = false;
    QString m_unit;
    QString m_axisTitle;
    QString m_title; // wrapped into the chart's width by fitLabels()
    double m_target = 0;
    QString m_targetName;
    QStringList m_toneNames;
};
