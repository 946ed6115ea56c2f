#include "ui/charts/barchartview.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/chartlegend.h"
#include "ui/charts/charttheme.h"
#include "ui/widgets/notestyle.h"

#include <QApplication>
#include <QCursor>
#include <QFontMetricsF>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QResizeEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QHorizontalStackedBarSeries>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kLogOffset = 0.5;
// QtCharts gives the vertical axes at most 40 % of the plot's width; a label wider than that is cut at the left.
constexpr double kAxisPortion = 0.4;
// What the axis adds around its labels (padding, tick, text margins), with a little to spare.
constexpr int kLabelSlack = 20;

const BarChartView::Tone kTones[] = { BarChartView::Tone::Measured, BarChartView::Tone::Good, BarChartView::Tone::Warn,
    BarChartView::Tone::Bad, BarChartView::Tone::Neutral };

QString toneName(BarChartView::Tone t)
{
    switch (t) {
    case BarChartView::Tone::Good:
        return QObject::tr("meets it");
    case BarChartView::Tone::Warn:
        return QObject::tr("only while bursting / check");
    case BarChartView::Tone::Bad:
        return QObject::tr("does not meet it");
    case BarChartView::Tone::Measured:
        return QObject::tr("measured");
    case BarChartView::Tone::Neutral:
        break;
    }
    return QObject::tr("published limit");
}

QString compact(double v, const QString& unit)
{
    const QString n = v >= 1000 ? QLocale(QLocale::English).toString(v / 1000, 'f', 0) + u'k'
                                : QLocale(QLocale::English).toString(v, 'f', 0);
    return unit.isEmpty() ? n : n + u' ' + unit;
}

} // namespace

BarChartView::BarChartView(QWidget* parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_legend(new ChartLegend(this))
{
    ChartTheme::apply(m_chart);
    m_chart->setMargins(QMargins(8, 4, 8, 4));
    m_chart->legend()->setVisible(false); // m_legend wraps where QLegend would cut
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("barChartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(180);
    ChartExport::addSaveActions(m_view, this);
    m_categoryAxis = new QBarCategoryAxis(m_chart);
    m_categoryAxis->setTruncateLabels(false); // fitLabels() wraps them into the room they get: never "P10 12…"
    m_chart->addAxis(m_categoryAxis, Qt::AlignLeft);
    m_logAxis = new QCategoryAxis(m_chart);
    m_logAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_chart->addAxis(m_logAxis, Qt::AlignBottom);
    m_valueAxis = new QValueAxis(m_chart);
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_chart->addAxis(m_valueAxis, Qt::AlignBottom);
    m_targetAxis = new QValueAxis(m_chart);
    m_targetAxis->setRange(0, 1);
    m_targetAxis->setVisible(false);
    m_chart->addAxis(m_targetAxis, Qt::AlignRight);
    m_placeholder = new QLabel(this);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setStyleSheet(QStringLiteral("color: %1;").arg(NoteStyle::colour(QApplication::palette()).name()));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    layout->addWidget(m_placeholder);
    ChartTheme::followFont(m_chart, this); // View → Text size reaches the axes and the title
    rebuild();
}

void BarChartView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitLabels(); // the labels' lines at the new size (followFont set the axes' font first)
}

void BarChartView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitLabels();
}

// Each label wrapped into the room QtCharts gives the axis at this width, and the view as tall as its lines need.
void BarChartView::fitLabels()
{
    if (m_bars.isEmpty()) {
        m_chart->setTitle(m_title.toHtmlEscaped());
        return;
    }
    const QMarginsF margins = m_chart->margins();
    const double room
        = std::max(60.0, kAxisPortion * (m_view->width() - margins.left() - margins.right()) - kLabelSlack);
    const QFontMetricsF fm(m_categoryAxis->labelsFont());
    QStringList shown;
    int lines = 0;
    for (qsizetype i = m_bars.size() - 1; i >= 0; --i) { // the first bar at the top
        int n = 0;
        shown << ChartTheme::wrapped(m_bars.at(i).label, fm, room, &n);
        lines += n;
    }
    if (shown != m_categoryAxis->categories())
        m_categoryAxis->setCategories(shown);
    const QFontMetricsF titleFm(m_chart->titleFont());
    int titleLines = 0;
    m_chart->setTitle(ChartTheme::wrapped(m_title, titleFm, std::max(60, m_view->width() - 24), &titleLines));
    // Never so narrow that a label's longest word cannot have its line.
    double word = 0;
    for (const Bar& b : std::as_const(m_bars))
        for (const QString& w : b.label.split(u' '))
            word = std::max(word, fm.horizontalAdvance(w));
    m_view->setMinimumWidth(int(std::ceil((word + kLabelSlack) / kAxisPortion + margins.left() + margins.right())));
    const int perLine = int(std::ceil(fm.lineSpacing() * 1.15)); // the lines of a bar and a little air
    const int overhead = 40 + titleLines * 2 * perLine + (m_axisTitle.isEmpty() ? 0 : perLine);
    m_view->setMinimumHeight(std::max(180, overhead + perLine + lines * perLine));
}

void BarChartView::showBarTip(bool on, int index)
{
    const qsizetype bar = m_bars.size() - 1 - index;
    if (on && bar >= 0 && bar < m_bars.size())
        QToolTip::showText(QCursor::pos(), m_bars.at(bar).label, m_view);
    else
        QToolTip::hideText();
}

void BarChartView::setTitle(const QString& title)
{
    m_title = title;
    fitLabels();
}

void BarChartView::setAxisTitle(const QString& title)
{
    m_axisTitle = title;
    rebuild();
}

void BarChartView::setLogScale(bool log, const QString& unit)
{
    m_log = log;
    m_unit = unit;
    rebuild();
}

void BarChartView::setBars(const QList<Bar>& bars)
{
    m_bars = bars;
    rebuild();
}

void BarChartView::setTarget(double value, const QString& name)
{
    m_target = value;
    m_targetName = name;
    rebuild();
}

void BarChartView::setToneNames(const QStringList& names)
{
    m_toneNames = names;
    rebuild();
}

void BarChartView::setPlaceholderText(const QString& text)
{
    m_placeholder->setText(text);
    rebuild();
}

QStringList BarChartView::labels() const
{
    QStringList out;
    for (const auto& b : m_bars)
        out << b.label;
    return out;
}

QList<double> BarChartView::values() const
{
    QList<double> out;
    for (const auto& b : m_bars)
        out << b.value;
    return out;
}

QList<BarChartView::Tone> BarChartView::tones() const
{
    QList<Tone> out;
    for (const auto& b : m_bars)
        out << b.tone;
    return out;
}

bool BarChartView::isPlaceholderVisible() const
{
    return m_placeholder->isVisibleTo(this);
}

QColor BarChartView::color(Tone tone)
{
    switch (tone) {
    case Tone::Good:
        return QColor(0x2e, 0x7d, 0x32);
    case Tone::Warn:
        return QColor(0xf9, 0xa8, 0x25);
    case Tone::Bad:
        return QColor(0xc6, 0x28, 0x28);
    case Tone::Measured:
        return QColor(0x15, 0x65, 0xc0);
    case Tone::Neutral:
        break;
    }
    return QColor(0x90, 0xa4, 0xae);
}

double BarChartView::x(double value) const
{
    if (value <= 0)
        return 0;
    // log: 1 GiB sits half a decade from the axis' start, so the smallest bar still shows
    return m_log ? std::log10(std::max(1.0, value)) + kLogOffset : value;
}

void BarChartView::rebuild()
{
    // Series are rebuilt, axes kept: an axis removed from a QChart leaves its title and labels drawn (over the new
    // axis' ones) until its item is deleted later.
    m_chart->removeAllSeries();
    m_placeholder->setVisible(m_bars.isEmpty());
    m_view->setVisible(!m_bars.isEmpty());
    if (m_bars.isEmpty()) {
        m_legend->setEntries({});
        return;
    }

    // One stacked set per tone: each bar is non-zero in exactly one set, so it takes that tone's colour.
    auto* series = new QHorizontalStackedBarSeries;
    series->setBarWidth(0.7);
    double max = m_target;
    for (const Bar& b : std::as_const(m_bars))
        max = std::max(max, b.value);
    for (const Tone tone : kTones) {
        if (std::none_of(m_bars.begin(), m_bars.end(), [&](const Bar& b) { return b.tone == tone; }))
            continue;
        const qsizetype t = qsizetype(tone);
        auto* set
            = new QBarSet(t < m_toneNames.size() && !m_toneNames.at(t).isEmpty() ? m_toneNames.at(t) : toneName(tone));
        set->setColor(color(tone));
        set->setBorderColor(color(tone));
        for (qsizetype i = m_bars.size() - 1; i >= 0; --i) // the first bar at the top
            set->append(m_bars.at(i).tone == tone ? x(m_bars.at(i).value) : 0.0);
        series->append(set);
    }
    m_chart->addSeries(series);
    connect(series, &QHorizontalStackedBarSeries::hovered, this,
        [this](bool on, int index, QBarSet*) { showBarTip(on, index); });
    m_categoryAxis->clear();
    fitLabels(); // the categories, wrapped
    series->attachAxis(m_categoryAxis);
    QAbstractAxis* xAxis = setUpValueAxis(max);
    series->attachAxis(xAxis);

    if (m_target > 0) { // a vertical line over the bars, on a hidden 0..1 axis
        auto* line = new QLineSeries;
        line->setName(m_targetName);
        QPen pen(ChartTheme::paletteIsDark() ? QColor(0xcf, 0xd8, 0xdc) : QColor(0x37, 0x47, 0x4f));
        pen.setWidthF(2);
        pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        line->append(x(m_target), 0);
        line->append(x(m_target), 1);
        m_chart->addSeries(line);
        line->attachAxis(xAxis);
        line->attachAxis(m_targetAxis);
    }
    m_legend->sync(m_chart);
}

// The bars' axis: decades on the log axis, round numbers on the linear one; the other one hidden.
QAbstractAxis* BarChartView::setUpValueAxis(double max)
{
    QString last;
    QAbstractAxis* xAxis = nullptr;
    if (m_log) {
        const QStringList old = m_logAxis->categoriesLabels();
        for (const QString& label : old)
            m_logAxis->remove(label);
        const int decades = std::max(1, int(std::ceil(std::log10(std::max(10.0, max * 1.5)))));
        for (int d = 0; d <= decades; ++d)
            m_logAxis->append(compact(std::pow(10.0, d), m_unit), d + kLogOffset);
        m_logAxis->setRange(0, decades + kLogOffset);
        last = m_logAxis->categoriesLabels().constLast();
        xAxis = m_logAxis;
    } else {
        m_valueAxis->setRange(0, max > 0 ? max * 1.15 : 1);
        m_valueAxis->applyNiceNumbers();
        last = QString::number(m_valueAxis->max(), 'f', 0);
        xAxis = m_valueAxis;
    }
    m_logAxis->setVisible(m_log);
    m_valueAxis->setVisible(!m_log);
    xAxis->setTitleText(m_axisTitle);
    // The last tick label is centred on the plot's right edge: room for its right half, never cut there.
    QMarginsF margins = m_chart->margins();
    margins.setRight(8 + std::ceil(QFontMetricsF(xAxis->labelsFont()).horizontalAdvance(last) / 2));
    m_chart->setMargins(margins.toMargins());
    return xAxis;
}
