#include "ui/widgets/replayresultview.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "core/ldap/loadresult.h"
#include "core/replay/replaysummary.h"
#include "ui/charts/livechartview.h"
#include "ui/widgets/verdictlist.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

QString figure(const std::optional<double>& v, int decimals)
{
    return v ? Units::formatNumber(*v, decimals) : QStringLiteral("–");
}

} // namespace

ReplayResultView::ReplayResultView(QWidget* parent)
    : QWidget(parent)
    , m_chart(new LiveChartView(this))
    , m_table(new QTableWidget(this))
    , m_figures(new QLabel(this))
    , m_preview(new QLabel(this))
    , m_verdicts(new VerdictList(this))
{
    m_chart->setObjectName(QStringLiteral("replayScheduleChart"));
    m_chart->setTitle(tr("Rate against the log's schedule"));
    m_chart->setAxisTitles(tr("time (s)"), tr("ops/s"));
    m_chart->setRightAxisTitle(tr("send lag p99 (ms)"));
    m_chart->setDashed(scheduledSeries());
    m_chart->setPlaceholderText(tr("No replay yet"));
    m_chart->setMinimumHeight(180);
    const QStringList headers { tr("Kind"), tr("Logged"), tr("Replayed"), tr("Log %"), tr("Replay %"), tr("Code (log)"),
        tr("Code (replay)"), tr("etime p50 (ms)"), tr("etime p99 (ms)"), tr("latency p50 (ms)"), tr("latency p99 (ms)"),
        tr("Template") };
    m_table->setObjectName(QStringLiteral("replayFidelityTable"));
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Per template: the logged against the replayed count and share of the mix, the most "
                           "frequent result code of each, the log's server time (etime) against the replay's "
                           "latency"));
    m_table->setMinimumHeight(120);
    for (QLabel* l : { m_figures, m_preview }) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_figures->setObjectName(QStringLiteral("replayFigures"));
    m_preview->setObjectName(QStringLiteral("replayPreview"));
    m_preview->setFont(QFont(QStringLiteral("monospace")));
    m_verdicts->setPlaceholder(tr("The fidelity verdicts appear after a replay."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_chart, 2);
    layout->addWidget(m_verdicts);
    layout->addWidget(m_figures);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_preview);
    clear();
}

QString ReplayResultView::scheduledSeries()
{
    return tr("scheduled (log)");
}

QString ReplayResultView::answeredSeries()
{
    return tr("answered ok/s");
}

QString ReplayResultView::sendLagSeries()
{
    return tr("send lag p99");
}

void ReplayResultView::clear()
{
    m_chart->clear();
    m_table->setRowCount(0);
    m_figures->clear();
    m_figures->hide();
    m_preview->clear();
    m_preview->hide();
    m_verdicts->clear();
}

void ReplayResultView::addInterval(const QJsonObject& values, double t)
{
    const LoadInterval iv = LoadInterval::fromJson(values);
    const ReplayIntervalExtra extra = ReplayIntervalExtra::fromJson(values);
    m_chart->appendPoints(answeredSeries(), { QPointF(t, iv.all.okPerS) });
    if (extra.scheduledOpsPerS)
        m_chart->appendPoints(scheduledSeries(), { QPointF(t, *extra.scheduledOpsPerS) });
    if (extra.sendLagP99Ms)
        m_chart->appendPoints(sendLagSeries(), { QPointF(t, *extra.sendLagP99Ms) }, LiveChartView::Axis::Right);
}

void ReplayResultView::addSamples(const SampleBatch& samples)
{
    LiveChartView::Batch batch(m_chart);
    for (const Sample& s : samples)
        if (!s.isStatus())
            addInterval(s.values, s.t);
}

void ReplayResultView::showPreview(const QString& text)
{
    m_preview->setText(text.trimmed());
    m_preview->setVisible(!text.isEmpty());
}

void ReplayResultView::showRecord(const RunRecord& record)
{
    m_chart->clear();
    {
        LiveChartView::Batch batch(m_chart);
        for (const QJsonValue& v : record.intervals) {
            const QJsonObject o = v.toObject();
            addInterval(o, o.value(QStringLiteral("t")).toDouble());
        }
    }
    const ReplaySummary summary = ReplaySummary::of(record);
    fillTable(summary);
    QStringList lines = summary.lines();
    for (const QString& d : summary.drift)
        lines << tr("Drift: %1").arg(d);
    if (summary.hasFidelity() && summary.drift.isEmpty())
        lines << tr("No drift beyond %1 percentage points.").arg(summary.tolerancePp);
    m_figures->setText(lines.join(u'\n'));
    m_figures->setVisible(!lines.isEmpty());
    m_verdicts->setVerdicts(record.verdicts);
    if (record.verdicts.isEmpty())
        m_verdicts->setPlaceholder(summary.rate ? tr("No verdict in this record.")
                                                : tr("No rate verdict: a closed-loop replay is not paced by the log."));
    m_preview->hide();
}

void ReplayResultView::fillTable(const ReplaySummary& summary)
{
    m_table->setRowCount(int(summary.rows.size()));
    for (int r = 0; r < summary.rows.size(); ++r) {
        const ReplayTemplateRow& row = summary.rows.at(r);
        const QStringList cells { row.kind, Units::formatNumber(row.logged, 0), Units::formatNumber(row.replayed, 0),
            figure(row.loggedShare, 1), figure(row.replayedShare, 1), row.loggedTopCode, row.replayedTopCode,
            figure(row.etimeP50Ms, 3), figure(row.etimeP99Ms, 3), figure(row.latencyP50Ms, 3),
            figure(row.latencyP99Ms, 3), row.templateText };
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells.at(c));
            if (c > 0 && c < cells.size() - 1)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, c, item);
        }
    }
    m_table->resizeColumnsToContents();
}

QString ReplayResultView::figuresText() const
{
    return m_figures->text();
}

QString ReplayResultView::previewText() const
{
    return m_preview->text();
}
