#include "ui/charts/overlaychartview.h"

#include "core/common/intervaljson.h"
#include "core/store/comparison.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/chartlegend.h"
#include "ui/charts/charttheme.h"

#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace {

// The first metric of the record that is also an interval value.
std::optional<Comparison::Metric> intervalMetric(const RunRecord& r)
{
    for (const Comparison::Metric& m : Comparison::metrics(r))
        if (!m.intervalKey.isEmpty())
            return m;
    return std::nullopt;
}

// (t, value) of the record's intervals; with several series (repeats, suite parts, curve points) the first series
// that holds the value, so that one run stays one line.
QList<QPointF> points(const RunRecord& r, const QString& key)
{
    QList<QPointF> out;
    QString series;
    bool seriesChosen = false;
    for (const auto& v : r.intervals) {
        const QJsonObject o = v.toObject();
        const QJsonValue y = o.value(key);
        if (!y.isDouble())
            continue;
        const QString s = IntervalJson::seriesOf(o);
        if (!seriesChosen) {
            series = s;
            seriesChosen = true;
        }
        if (s == series || r.kind == u"curve" || r.kind == u"database-size")
            out << QPointF(IntervalJson::timeOf(o).value_or(0), y.toDouble());
    }
    return out;
}

} // namespace

OverlayChartView::OverlayChartView(QWidget* parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_x(new QValueAxis)
    , m_y(new QValueAxis)
    , m_note(new QLabel(this))
    , m_legend(new ChartLegend(this))
{
    ChartTheme::apply(m_chart);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->legend()->setVisible(false); // m_legend stands for it
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_x->setTitleText(tr("seconds"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    auto* view = new QChartView(m_chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(360, 180);
    m_note->setObjectName(QStringLiteral("overlayNote"));
    m_note->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view, 1);
    layout->addWidget(m_legend);
    layout->addWidget(m_note);
    ChartExport::addSaveActions(view, this);
    ChartTheme::followFont(m_chart, this); // View → Text size reaches the axes and the title
}

void OverlayChartView::setRuns(const QList<Run>& runs)
{
    m_chart->removeAllSeries();
    m_key.clear();
    QStringList left;
    double maxX = 1, maxY = 1;
    QString unit;
    for (const Run& run : runs) {
        const auto m = intervalMetric(run.record);
        if (!m || (!m_key.isEmpty() && m->intervalKey != m_key)) {
            left << run.label;
            continue;
        }
        if (m_key.isEmpty()) {
            m_key = m->intervalKey;
            unit = m->unit;
        }
        const QList<QPointF> pts = points(run.record, m_key);
        if (pts.isEmpty()) {
            left << run.label;
            continue;
        }
        auto* s = new QLineSeries(m_chart);
        s->setName(run.label);
        s->append(pts);
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        for (const QPointF& p : pts) {
            maxX = std::max(maxX, p.x());
            maxY = std::max(maxY, p.y());
        }
    }
    m_x->setRange(0, maxX);
    m_x->applyNiceNumbers();
    m_x->setLabelFormat(maxX < 10 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    m_y->setRange(0, maxY * 1.05);
    m_y->applyNiceNumbers();
    m_y->setTitleText(unit);
    m_note->setText(left.isEmpty()
            ? QString()
            : tr("Not on the chart (no comparable intervals): %1").arg(left.join(QStringLiteral(", "))));
    m_note->setVisible(!left.isEmpty());
    m_legend->sync(m_chart);
}

int OverlayChartView::lineCount() const
{
    return int(m_chart->series().size());
}

QString OverlayChartView::note() const
{
    return m_note->text();
}
