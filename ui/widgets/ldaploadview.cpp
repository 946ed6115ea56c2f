#include "ui/widgets/ldaploadview.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "core/ldap/loadrecordfacts.h"
#include "core/ldap/loadresult.h"
#include "core/ldap/loadspec.h"
#include "ui/charts/drawqueue.h"
#include "ui/charts/livechartview.h"
#include "ui/models/intervalsamples.h"
#include "ui/models/operationmodel.h"
#include "ui/models/resultcodemodel.h"
#include "ui/report/loadfigures.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/runstatuslabel.h"
#include "ui/widgets/serverlogseries.h"
#include "ui/widgets/stableheightbox.h"
#include "ui/widgets/warningslabel.h"

#include <QDateTime>
#include <QGridLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

// The server values a user looks at, in the order shown: key, label, on the gauge chart (else ops chart).
struct ServerKey
{
    const char* key;
    const char* label;
    bool gauge;
};
constexpr ServerKey kServerKeys[]
    = { { "all_completed_per_s", QT_TRANSLATE_NOOP("LdapLoadView", "operations/s"), false },
          { "search_completed_per_s", QT_TRANSLATE_NOOP("LdapLoadView", "searches/s"), false },
          { "threads_active", QT_TRANSLATE_NOOP("LdapLoadView", "threads active"), true },
          { "read_waiters", QT_TRANSLATE_NOOP("LdapLoadView", "read waiters"), true },
          { "connections_current", QT_TRANSLATE_NOOP("LdapLoadView", "connections"), true } };

const char* const kPercentiles[] = { "p50", "p95", "p99" };

QString seriesName(const ServerKey& k)
{
    const QString label = LdapLoadView::tr(k.label);
    return k.gauge ? label : LdapLoadView::tr("server: %1").arg(label);
}

std::optional<double> percentile(const LatencyFigures& f, const char* p)
{
    const QLatin1String name(p);
    return name == QLatin1String("p50") ? f.p50 : name == QLatin1String("p95") ? f.p95 : f.p99;
}

// Failed operations per second over an interval.
double errorsPerS(const LoadInterval& i)
{
    if (i.seconds > 0)
        return std::round(i.all.errors / i.seconds * 10.0) / 10.0;
    return std::max(0.0, i.all.opsPerS - i.all.okPerS);
}

QString coalescedMark(bool on)
{
    return on ? LdapLoadView::tr(" (coalesced reads)") : QString();
}

QString derivedMark(bool on)
{
    return on ? LdapLoadView::tr(" (derived: ops − errors)") : QString();
}

// "ldap-search" -> "search"; a mix's rows are named by their kinds.
QString operationOfKind(const QString& kind)
{
    return kind.startsWith(u"ldap-") ? kind.mid(5) : LdapLoadView::tr("all");
}

} // namespace

LdapLoadView::LdapLoadView(QWidget* parent)
    : QWidget(parent)
    , m_status(new RunStatusLabel(this))
    , m_warnings(new WarningsLabel(this))
    , m_opsChart(new LiveChartView(this))
    , m_latencyChart(new LiveChartView(this))
    , m_serverChart(new LiveChartView(this))
    , m_countersLabel(new QLabel(this))
    , m_operationsLabel(new QLabel(this))
    , m_codes(new ResultCodeModel(this))
    , m_codeTable(new QTableView(this))
    , m_operations(new OperationModel(this))
    , m_operationTable(new QTableView(this))
    , m_draw(new DrawQueue(this))
{
    m_status->setObjectName(QStringLiteral("ldapStatusLabel"));
    m_warnings->setObjectName(QStringLiteral("ldapWarningsLabel"));
    m_opsChart->setObjectName(QStringLiteral("opsChart"));
    m_opsChart->setAxisTitles(tr("Time (s)"), tr("ops/s"));
    m_opsChart->setRightAxisTitle(errorsSeries());
    m_latencyChart->setObjectName(QStringLiteral("latencyChart"));
    m_latencyChart->setAxisTitles(tr("Time (s)"), tr("ms"));
    m_serverChart->setObjectName(QStringLiteral("serverChart"));
    m_serverChart->setTitle(tr("Server threads and connections (cn=monitor)"));
    m_serverChart->setAxisTitles(tr("Time (s)"), tr("count"));
    for (LiveChartView* c : { m_opsChart, m_latencyChart, m_serverChart })
        c->setMinimumHeight(190);
    // Lines that often lie on one another: the server's count of the client's own operations, completed and
    // successful operations, and the connections (each idle one is a read waiter).
    m_opsChart->setDashed(seriesName(kServerKeys[1]));
    m_opsChart->setDashed(completedSeries());
    m_serverChart->setDashed(seriesName(kServerKeys[4]));
    m_countersLabel->setObjectName(QStringLiteral("serverCountersLabel"));
    m_countersLabel->setWordWrap(true);
    m_countersLabel->setTextFormat(Qt::RichText);
    m_countersLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QTableView* t : { m_codeTable, m_operationTable }) {
        t->verticalHeader()->hide();
        t->setAlternatingRowColors(true);
        t->setSelectionBehavior(QAbstractItemView::SelectRows);
    }
    m_codeTable->setObjectName(QStringLiteral("resultCodeTable"));
    m_codeTable->setModel(m_codes);
    m_codeTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_codeTable->horizontalHeader()->setSectionResizeMode(ResultCodeModel::Name, QHeaderView::Stretch);
    m_operationTable->setObjectName(QStringLiteral("operationTable"));
    m_operationTable->setModel(m_operations);
    m_operationTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_operationTable->horizontalHeader()->setStretchLastSection(true);
    m_operationTable->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_operationsLabel->setObjectName(QStringLiteral("operationsLabel"));

    auto* side = new QVBoxLayout;
    side->addWidget(m_operationsLabel);
    side->addWidget(m_operationTable);
    side->addWidget(new QLabel(tr("<b>Result codes</b>"), this));
    side->addWidget(m_codeTable, 1);
    side->addWidget(new QLabel(tr("<b>Server, last interval</b>"), this));
    side->addWidget(new StableHeightBox(m_countersLabel, this));
    auto* grid = new QGridLayout;
    grid->addWidget(m_opsChart, 0, 0);
    grid->addWidget(m_latencyChart, 0, 1);
    grid->addWidget(m_serverChart, 1, 0);
    grid->addLayout(side, 1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new StableHeightBox(m_status, this));
    layout->addWidget(m_warnings);
    layout->addLayout(grid, 1);
    clear();
}

QString LdapLoadView::okSeries()
{
    return tr("ok/s");
}

QString LdapLoadView::completedSeries()
{
    return tr("completed ops/s");
}

QString LdapLoadView::errorsSeries()
{
    return tr("errors/s");
}

QString LdapLoadView::kindLatencySeries(const QString& kind)
{
    return tr("%1 p99").arg(kind);
}

void LdapLoadView::resetCharts()
{
    m_draw->clear();
    for (LiveChartView* c : { m_opsChart, m_latencyChart, m_serverChart })
        c->clear();
    m_kinds.clear();
    m_drawn.clear();
    m_completedSoFar.clear();
    m_errorsSoFar.clear();
    m_lastT = 0;
    m_plannedT = 0;
    m_serverSeen = false;
    m_failuresShown = false;
    m_derived = false;
    m_opsChart->setTitle(tr("Operations per second"));
}

void LdapLoadView::clear()
{
    resetCharts();
    m_opsChart->setPlaceholderText(tr("ok/s appear here while a load runs"));
    m_latencyChart->setPlaceholderText(tr("p50, p95 and p99 appear here while a load runs"));
    m_serverChart->setPlaceholderText(tr("the server's own threads and connections appear here"));
    m_codes->clear();
    m_operations->clear();
    m_operationName = tr("all");
    setCoalescedReads(false);
    m_operationsLabel->setText(tr("<b>Operations</b>"));
    fitOperationTable();
    m_status->reset();
    m_warnings->setWarnings({});
    m_countersLabel->setText(tr("–"));
    m_live = false;
    m_liveStartEpochMs = 0;
    m_pendingSlices.clear();
}

void LdapLoadView::begin(const LdapLoadSpec& spec)
{
    clear();
    m_operationName = operationOfKind(spec.kindName());
    setCoalescedReads(spec.coalesceReads);
    m_live = true;
    // The time axis spans the whole run from its first batch, so that it is not laid out again (its labels are
    // text items) at every batch; a run of unknown length grows it as the batches come.
    m_plannedT = spec.durationSec;
    if (!spec.ramp.isEmpty()) {
        const auto ramp = LoadRamp::parse(spec.ramp, nullptr);
        m_plannedT = ramp ? ramp->stepSeconds * double(ramp->values.size()) : 0;
    }
    if (!std::isfinite(m_plannedT) || m_plannedT < 0)
        m_plannedT = 0;
}

void LdapLoadView::beginReplay(double plannedSeconds)
{
    clear();
    m_operationName.clear();
    setCoalescedReads(false);
    m_live = true;
    m_plannedT = std::isfinite(plannedSeconds) && plannedSeconds > 0 ? plannedSeconds : 0;
}

void LdapLoadView::setCoalescedReads(bool on)
{
    m_coalesced = on;
    m_latencyChart->setTitle(tr("Latency") + coalescedMark(on));
}

void LdapLoadView::showRunning(const QString& text)
{
    m_status->showInfo(text);
}

void LdapLoadView::addSample(const Sample& s, const LoadInterval& i, Points& ops, Points& latency, Points& gauges)
{
    m_lastT = std::max(m_lastT, s.t);
    m_derived = m_derived || i.all.okDerived;
    ops[okSeries()] << QPointF(s.t, i.all.okPerS);
    ops[completedSeries()] << QPointF(s.t, i.all.opsPerS);
    ops[errorsSeries()] << QPointF(s.t, errorsPerS(i));
    for (const char* p : kPercentiles)
        if (const auto v = percentile(i.all.latencyMs, p))
            latency[QLatin1String(p)] << QPointF(s.t, *v);
    for (const auto& [kind, f] : i.byOperation) {
        if (!m_kinds.contains(kind))
            m_kinds << kind;
        if (f.latencyMs.p99)
            latency[kindLatencySeries(kind)] << QPointF(s.t, *f.latencyMs.p99);
    }
    const QJsonObject server = i.server.toObject();
    if (!server.isEmpty())
        m_serverSeen = true;
    for (const ServerKey& k : kServerKeys) {
        const QJsonValue x = server.value(QLatin1String(k.key));
        if (!x.isDouble())
            continue; // not exposed: no point, never a 0
        (k.gauge ? gauges : ops)[seriesName(k)] << QPointF(s.t, x.toDouble());
    }
}

// Completed ops/s and errors/s are drawn from the first interval in which an operation failed, with every
// interval before it: while all succeed they are the ok/s line and a line at 0.
void LdapLoadView::appendRates(const QList<QPointF>& completed, const QList<QPointF>& errors, bool failed)
{
    if (m_failuresShown) {
        m_opsChart->appendPoints(completedSeries(), completed);
        m_opsChart->appendPoints(errorsSeries(), errors, LiveChartView::Axis::Right);
        return;
    }
    m_completedSoFar << completed;
    m_errorsSoFar << errors;
    if (!failed)
        return;
    m_failuresShown = true;
    m_opsChart->appendPoints(completedSeries(), m_completedSoFar);
    m_opsChart->appendPoints(errorsSeries(), m_errorsSoFar, LiveChartView::Axis::Right);
    m_completedSoFar.clear();
    m_errorsSoFar.clear();
}

// A live run's batch is drawn in steps, one chart (or the tables) an event-loop turn (DrawQueue); a record is
// drawn at once.
void LdapLoadView::addSamples(const SampleBatch& samples)
{
    if (samples.isEmpty())
        return;
    Points ops, latency, gauges;
    LoadInterval last;
    bool failed = false;
    for (const Sample& s : samples) {
        m_drawn << s.toJson();
        last = LoadInterval::fromJson(s.values);
        addSample(s, last, ops, latency, gauges);
        failed = failed || last.all.errors > 0;
    }
    const double axisT = m_live ? std::max(m_lastT, m_plannedT) : m_lastT; // the time axis's end
    const QStringList kinds = m_kinds;
    if (m_live) { // the batch left the engine at most a drain tick after its interval ended: the start is at most that
        const double start = double(QDateTime::currentMSecsSinceEpoch()) - m_lastT * 1000;
        m_liveStartEpochMs = m_liveStartEpochMs > 0 ? std::min(m_liveStartEpochMs, start) : start;
        for (const auto& slice : std::exchange(m_pendingSlices, {}))
            addServerSlice(slice);
    }
    const std::function<void()> steps[] = {
        [this, ops, failed, axisT] { drawOps(ops, failed, axisT); },
        [this, latency, kinds, axisT] { drawLatency(latency, kinds, axisT); },
        [this, gauges, axisT] { drawServer(gauges, axisT); },
        [this, samples, last] {
            for (const Sample& s : samples)
                m_codes->addCounts(LoadInterval::fromJson(s.values).all.resultCodes);
            showCounters(last.server);
            showLastInterval(last);
        },
    };
    for (const auto& step : steps) {
        if (m_live)
            m_draw->post(step);
        else
            step();
    }
}

void LdapLoadView::addServerSlice(const ServerLogTail::Slice& slice)
{
    if (!m_live)
        return;
    if (m_liveStartEpochMs <= 0) {
        m_pendingSlices << slice;
        return;
    }
    const double t = (double(slice.toEpochNs) / 1e6 - m_liveStartEpochMs) / 1000;
    if (t > 0)
        ServerLogSeries::appendLive(m_latencyChart, t, slice.etimeP50Ms, slice.etimeP99Ms);
}

// Fixed order of the series so the colours mean the same thing on every run.
void LdapLoadView::drawOps(const Points& ops, bool failed, double axisEnd)
{
    const LiveChartView::Batch batch(m_opsChart); // one axis layout for the whole batch
    m_opsChart->appendPoints(okSeries(), ops.value(okSeries()));
    appendRates(ops.value(completedSeries()), ops.value(errorsSeries()), failed);
    for (const ServerKey& k : kServerKeys)
        if (!k.gauge)
            m_opsChart->appendPoints(seriesName(k), ops.value(seriesName(k)));
    m_opsChart->setMinimumXRange(0, axisEnd);
    if (m_derived)
        m_opsChart->setTitle(tr("Operations per second (ok/s derived: ops − errors)"));
}

void LdapLoadView::drawLatency(const Points& latency, const QStringList& kinds, double axisEnd)
{
    const LiveChartView::Batch batch(m_latencyChart);
    for (const char* p : kPercentiles)
        m_latencyChart->appendPoints(QLatin1String(p), latency.value(QLatin1String(p)));
    for (const QString& kind : kinds)
        m_latencyChart->appendPoints(kindLatencySeries(kind), latency.value(kindLatencySeries(kind)));
    m_latencyChart->setMinimumXRange(0, axisEnd);
}

void LdapLoadView::drawServer(const Points& gauges, double axisEnd)
{
    const LiveChartView::Batch batch(m_serverChart);
    for (const ServerKey& k : kServerKeys)
        if (k.gauge)
            m_serverChart->appendPoints(seriesName(k), gauges.value(seriesName(k)));
    m_serverChart->setMinimumXRange(0, axisEnd);
    if (!m_serverSeen)
        m_serverChart->setPlaceholderText(tr("Not exposed: the server's counters (cn=monitor) cannot be read "
                                             "with this bind, or this server has none DirBench can read."));
}

void LdapLoadView::showLastInterval(const LoadInterval& last)
{
    m_operations->setFigures(last.all, last.byOperation, m_operationName);
    m_operationsLabel->setText(tr("<b>Operations</b>, last interval") + coalescedMark(m_coalesced).toHtmlEscaped());
    fitOperationTable();
    m_status->showInfo(tr("Last interval: %1 ok/s · %2 ops/s · p99 %3%4 · %5 errors")
                           .arg(Units::formatNumber(last.all.okPerS), Units::formatNumber(last.all.opsPerS),
                               OperationModel::latencyText(last.all.latencyMs.p99), coalescedMark(m_coalesced),
                               Units::formatNumber(last.all.errors, 0)));
}

void LdapLoadView::fitOperationTable()
{
    // As tall as its rows: one for a single operation, a row per kind and "all" for a mix; and room for the
    // scroll bar a narrow window needs, so that it never covers the last row.
    int h = m_operationTable->horizontalHeader()->sizeHint().height() + 2 * m_operationTable->frameWidth()
        + m_operationTable->horizontalScrollBar()->sizeHint().height();
    for (int r = 0; r < m_operations->rowCount(); ++r)
        h += m_operationTable->verticalHeader()->sectionSize(r);
    m_operationTable->setFixedHeight(std::max(h, m_operationTable->horizontalHeader()->sizeHint().height() * 2));
}

void LdapLoadView::showCounters(const QJsonValue& server)
{
    if (!server.isObject()) {
        m_countersLabel->setText(tr("<span style=\"color:%1\">not exposed</span> (cn=monitor not readable)")
                                     .arg(NoteStyle::warnColourNow().name()));
        return;
    }
    const QJsonObject o = server.toObject();
    QStringList parts;
    for (const ServerKey& k : kServerKeys) {
        const QJsonValue x = o.value(QLatin1String(k.key));
        parts << tr(k.label) + QStringLiteral(": ")
                + (x.isDouble()
                        ? QStringLiteral("<b>") + Units::formatNumber(x.toDouble(), k.gauge ? 0 : 1)
                            + QStringLiteral("</b>")
                        : tr("<span style=\"color:%1\">not exposed</span>").arg(NoteStyle::warnColourNow().name()));
    }
    m_countersLabel->setText(parts.join(QStringLiteral("<br>")));
}

// "9,812.3 ok/s · 9,900 ops/s completed · p99 1.52 ms · 88 errors (80 × No such object (32), ...) · load CPU
// 12.5 µs/op · 99,000 operations"
QString LdapLoadView::summaryLine(const RunRecord& record)
{
    const LoadSummary s = LoadSummary::fromJson(record.summary);
    QStringList parts;
    parts << tr("%1 ok/s").arg(Units::formatNumber(s.all.okPerS)) + derivedMark(s.all.okDerived);
    parts << tr("%1 ops/s completed").arg(Units::formatNumber(s.all.opsPerS));
    parts << tr("p99 %1").arg(OperationModel::latencyText(s.all.latencyMs.p99))
            + coalescedMark(LoadFigures::coalescedReads(record.spec));
    QString errors = tr("%1 errors").arg(Units::formatNumber(s.all.errors, 0));
    if (const QString top = s.all.topErrors(); !top.isEmpty())
        errors += QStringLiteral(" (") + top + u')';
    parts << errors;
    if (const auto cpu = s.loadCpuUsPerOp())
        parts << tr("load CPU %1 µs/op").arg(Units::formatNumber(*cpu));
    else if (const auto client = s.clientCpuUsPerOp())
        parts << tr("client CPU %1 µs/op").arg(Units::formatNumber(*client));
    parts << tr("%1 operations").arg(Units::formatNumber(s.all.ops, 0));
    return parts.join(QStringLiteral(" · "));
}

QString LdapLoadView::finish(const RunRecord& record)
{
    const LoadSummary s = LoadSummary::fromJson(record.summary);
    if (record.kind.startsWith(u"ldap-"))
        m_operationName = operationOfKind(record.kind);
    setCoalescedReads(LoadFigures::coalescedReads(record.spec));
    if (!record.intervals.isEmpty())
        drawRecord(samplesFromIntervals(record.intervals));
    if (std::exchange(m_plannedT, 0) > 0) // the record's own span, not the plan (a run stopped early ends sooner)
        for (LiveChartView* c : { m_opsChart, m_latencyChart, m_serverChart })
            c->setMinimumXRange(0, m_lastT);
    ServerLogSeries::remove(m_latencyChart); // what was drawn live: the record's own view replaces it
    ServerLogSeries::draw(m_latencyChart, LoadRecordFacts::serverLogOf(record));
    if (!s.all.resultCodes.empty())
        m_codes->setCounts(s.all.resultCodes);
    m_warnings->setWarnings(m_warningsShown ? record.warnings : QList<RunWarning>());
    const bool measured = s.all.ops > 0 || s.seconds > 0;
    if (measured) {
        m_operations->setFigures(s.all, s.byOperation, m_operationName);
        m_operationsLabel->setText(tr("<b>Operations</b>, whole run") + coalescedMark(m_coalesced).toHtmlEscaped());
        fitOperationTable();
    }
    return m_status->showOutcome(record, measured ? tr("Done: %1").arg(summaryLine(record)) : tr("Done."));
}

// The charts show exactly the record's intervals. What the live run drew of them stays: only the intervals it
// has not drawn are added (a redraw of every series costs the window a stall at the end of a long run). Charts
// that differ from the record's start (another run, a sample the record does not keep) are redrawn.
void LdapLoadView::drawRecord(const SampleBatch& samples)
{
    m_draw->flush(); // what the live run posted, in order, before the record's rest
    m_live = false;
    const qsizetype drawn = m_drawn.size();
    bool prefix = drawn > 0 && drawn <= samples.size();
    for (qsizetype i = 0; prefix && i < drawn; ++i)
        prefix = samples.at(i).toJson() == m_drawn.at(i);
    if (!prefix) {
        resetCharts();
        m_codes->clear();
    }
    addSamples(prefix ? samples.mid(drawn) : samples);
}

QString LdapLoadView::operationsCaption() const
{
    return m_operationsLabel->text();
}

QString LdapLoadView::summaryText() const
{
    return m_status->text();
}

QString LdapLoadView::countersText() const
{
    return m_countersLabel->text();
}
