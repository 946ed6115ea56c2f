#include "ui/charts/chartlegend.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>

namespace {

ChartLegend::Shape shapeOf(QLegendMarker* marker)
{
    const QAbstractSeries* s = marker->series();
    if (qobject_cast<const QScatterSeries*>(s))
        return ChartLegend::Shape::Point;
    if (const auto* line = qobject_cast<const QLineSeries*>(s)) {
        switch (line->pen().style()) {
        case Qt::DashLine:
        case Qt::DashDotLine:
            return ChartLegend::Shape::Dashed;
        case Qt::DotLine:
            return ChartLegend::Shape::Dotted;
        default:
            return ChartLegend::Shape::Line;
        }
    }
    return ChartLegend::Shape::Box;
}

QColor colorOf(QLegendMarker* marker)
{
    if (const auto* line = qobject_cast<const QLineSeries*>(marker->series());
        line && !qobject_cast<const QScatterSeries*>(marker->series()))
        return line->pen().color();
    return marker->brush().color();
}

// A series with nothing to draw has no entry (QtCharts gives even an empty series a marker). Not the marker's own
// visibility: with the chart's legend hidden, every marker reads as hidden.
bool hasData(QLegendMarker* marker)
{
    QAbstractSeries* s = marker->series();
    if (!s->isVisible())
        return false;
    if (const auto* area = qobject_cast<QAreaSeries*>(s))
        return area->upperSeries() && area->upperSeries()->count() > 0;
    if (const auto* xy = qobject_cast<QXYSeries*>(s))
        return xy->count() > 0;
    return true;
}

QString swatch(ChartLegend::Shape shape)
{
    switch (shape) {
    case ChartLegend::Shape::Line:
        return QStringLiteral("\u2501\u2501");
    case ChartLegend::Shape::Dashed:
        return QStringLiteral("\u254D\u254D");
    case ChartLegend::Shape::Dotted:
        return QStringLiteral("\u2509\u2509");
    case ChartLegend::Shape::Point:
        return QStringLiteral("\u25CF");
    case ChartLegend::Shape::Box:
        break;
    }
    return QStringLiteral("\u25A0");
}

} // namespace

ChartLegend::ChartLegend(QWidget* parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("chartLegend"));
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    setContentsMargins(4, 0, 4, 2);
    hide();
}

void ChartLegend::sync(QChart* chart)
{
    chart->legend()->setVisible(false);
    QList<Entry> entries;
    const QList<QLegendMarker*> markers = chart->legend()->markers();
    for (QLegendMarker* m : markers) {
        if (m->label().isEmpty() || !hasData(m))
            continue;
        entries << Entry { m->label(), colorOf(m), shapeOf(m) };
    }
    setEntries(entries);
}

void ChartLegend::setEntries(const QList<Entry>& entries)
{
    m_entries = entries;
    QStringList parts;
    for (const Entry& e : entries)
        parts << QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
                     .arg(e.color.name(), swatch(e.shape), e.name.toHtmlEscaped());
    // A plain space between entries (the only place a line may break besides the spaces of a long name).
    setText(parts.join(QStringLiteral("&nbsp;&nbsp; ")));
    setVisible(!entries.isEmpty());
}

QStringList ChartLegend::names() const
{
    QStringList out;
    for (const Entry& e : m_entries)
        out << e.name;
    return out;
}
