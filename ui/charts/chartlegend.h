#pragma once

#include <QColor>
#include <QLabel>
#include <QList>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

// The legend under a chart of this folder, in place of QtCharts' own: QLegend lays its entries out in one row and
// cuts them ("meets it, sustai…") when they do not fit; this one wraps between entries and never cuts a name. It
// mirrors the chart's legend markers (name, colour, line or box; none for a series without points), so a view
// calls sync() after it changes its series. Rich text in the palette's colours, so it reads on a light and a dark
// window.
class ChartLegend final : public QLabel
{
    Q_OBJECT
public:
    enum class Shape
    {
        Line,
        Dashed,
        Dotted,
        Point,
        Box
    };
    struct Entry
    {
        QString name;
        QColor color;
        Shape shape = Shape::Box;
    };

    explicit ChartLegend(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ChartLegend)

    // The chart's markers with a name and a series with points, in the chart's order; hides the chart's own legend.
    void sync(QChart* chart);
    void setEntries(const QList<Entry>& entries);
    QStringList names() const;

private:
    QList<Entry> m_entries;
};
