#include "ui/widgets/replayresultview.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "core/ldap/loadresult.h"
#include "core/replay/replaysummary.h"
#include "ui/charts/livechartview.h"
#include "ui/widgets/scrolled.h"
#include "ui/widgets/verdictlist.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

QString replayFigure(const std::optional<double>& v, int decimals)
{
    return v ? Units::formatNumber(*v, decimals) : QStringLiteral("–");
}

} // namespace

ReplayResultView::ReplayResultView(QWidget* parent)
    : QWidget(parent)
    , m_chart(new LiveChartView(this))
    , m_table(new QTableWidget(this))
    , m_figures(new QLabel(this))
    , m_preview(new QPlainTextEdit(this))
    , m_verdicts(new VerdictList(this))
{
    m_chart->setObjectName(QStringLiteral("replayScheduleChart"));
    m_chart->setTitle(tr("Rate against the log's schedule"));
    m_chart->setAxisTitles(tr("time (s)"), tr("ops/s"));
    m_chart->setRightAxisTitle(tr("lag (ms)"));
    m_chart->setDashed(scheduledSeries());
    m_chart->setPlaceholderText(tr("No replay yet"));
    m_chart->setMinimumHeight(200);
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
    m_table->setMinimumHeight(150);
    m_figures->setWordWrap(true);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setObjectName(QStringLiteral("replayFigures"));
    m_preview->setObjectName(QStringLiteral("replayPreview"));
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_verdicts->setPlaceholder(tr("The fidelity verdicts appear after a replay."));
    // The chart above, what the run ended with below it (scrolled: on a laptop screen it is taller than the room).
    auto* details = new QWidget(this);
    auto* detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_verdicts);
    detailsLayout->addWidget(m_figures);
    detailsLayout->addWidget(m_table, 1);
    detailsLayout->addWidget(m_preview, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("replayResultSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(m_chart);
    split->addWidget(Scrolled::vertically(details, split));
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
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
    m_table->show();
    m_verdicts->clear();
}

void ReplayResultView::addInterval(const QJsonObject& values)
{
    const LoadInterval iv = LoadInterval::fromJson(values); // its t: the interval's end
    const double t = iv.t;
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
            addInterval(s.values);
}

void ReplayResultView::showPreview(const QString& text)
{
    m_preview->setPlainText(text.trimmed());
    m_preview->setVisible(!text.isEmpty());
    m_table->setVisible(text.isEmpty());
}

void ReplayResultView::showRecord(const RunRecord& record)
{
    m_chart->clear();
    {
        LiveChartView::Batch batch(m_chart);
        for (const auto& v : record.intervals)
            addInterval(v.toObject());
    }
    const ReplaySummary summary = ReplaySummary::of(record);
    fillTable(summary);
    QStringList lines = summary.lines(); // the drift sentences are the warning "fidelity-drift" above
    if (summary.hasFidelity() && summary.drift.isEmpty())
        lines << tr("No drift beyond %1 percentage points.").arg(summary.tolerancePp);
    m_figures->setText(lines.join(u'\n'));
    m_figures->setVisible(!lines.isEmpty());
    m_preview->hide();
    m_table->show();
    m_verdicts->setVerdicts(record.verdicts);
    if (record.verdicts.isEmpty())
        m_verdicts->setPlaceholder(summary.rate ? tr("No verdict in this record.")
                                                : tr("No rate verdict: a closed-loop replay is not paced by the log."));
}

void ReplayResultView::fillTable(const ReplaySummary& summary)
{
    m_table->setRowCount(int(summary.rows.size()));
    for (int r = 0; r < summary.rows.size(); ++r) {
        const ReplayTemplateRow& row = summary.rows.at(r);
        const QStringList cells { row.kind, Units::formatNumber(row.logged, 0), Units::formatNumber(row.replayed, 0),
            replayFigure(row.loggedShare, 1), replayFigure(row.replayedShare, 1), row.loggedTopCode,
            row.replayedTopCode, replayFigure(row.etimeP50Ms, 3), replayFigure(row.etimeP99Ms, 3),
            replayFigure(row.latencyP50Ms, 3), replayFigure(row.latencyP99Ms, 3), row.templateText };
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
    return m_preview->toPlainText();
}
