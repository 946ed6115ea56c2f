#include "core/replay/replayrun.h"

#include "core/common/environment.h"
#include "core/common/units.h"
#include "core/ldap/loadresult.h"
#include "core/ldap/serverconnect.h"
#include "core/ldap/serveridentity.h"
#include "core/replay/replayfidelity.h"
#include "core/run/runcontext.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <sys/resource.h>
#include <unistd.h>

namespace Replay {

namespace {

void addPerSecond(std::vector<uint64_t>& into, const std::vector<uint64_t>& from)
{
    if (into.size() < from.size())
        into.resize(from.size(), 0);
    for (size_t i = 0; i < from.size(); ++i)
        into[i] += from[i];
}

constexpr uint64_t kStartLeadNs = 100000000ULL; // the threads start this long before time 0, and wait for it
constexpr uint64_t kWatermarkWaitNs = 100000000ULL;

} // namespace

ReplayRun::ReplayRun(
    ReplaySpec spec, std::shared_ptr<const Workload> workload, ReplayPasswords passwords, RunContext& ctx)
    : m_spec(std::move(spec))
    , m_workload(std::move(workload))
    , m_passwords(std::move(passwords))
    , m_ctx(ctx)
{ }

ReplayRun::~ReplayRun()
{
    if (m_shared)
        m_shared->stop.store(true);
    for (auto& t : m_pool)
        if (t.joinable())
            t.join();
}

RunRecord ReplayRun::run()
{
    if (!prepare() || !connectAndIdentify() || !snapshotWrites()) {
        undoWrites();
        return m_rec;
    }
    startWorkers();
    measure();
    stopWorkers();
    undoWrites();
    summarise();
    addWarnings();
    return finished();
}

bool ReplayRun::prepare()
{
    m_rec.kind = QStringLiteral("replay");
    m_rec.started = QDateTime::currentDateTime();
    // Whole-second log times are spread at random over their second: the seed is in the record (reproducible).
    if (!m_spec.seed && m_spec.timing == ReplaySpec::Timing::Speed && m_workload->secondTimestamps())
        m_spec.seed = QRandomGenerator::global()->generate64() >> 1;
    m_rec.spec = m_spec.toJson();
    m_rec.environment = Environment::collect();
    m_tag = QString::number(qint64(::getpid()), 36) + u'x'
        + QString::number(QRandomGenerator::global()->generate() & 0xffffff, 36);
    ProbeError err;
    m_plan = ReplayPlan::make(*m_workload, m_spec, &m_passwords, m_tag, &err);
    if (!m_plan) {
        m_rec.status = QStringLiteral("failed");
        m_rec.failure = QStringLiteral("--") + err.field + QStringLiteral(": ") + err.detail;
        return false;
    }
    if (!m_plan->closedLoop)
        m_scheduledPerSecond = ReplayFidelity::scheduledPerSecond(*m_plan);
    m_rec.spec.insert(QStringLiteral("workload_connections"), double(m_workload->connections.size()));
    m_rec.spec.insert(QStringLiteral("workload_operations"), double(m_workload->operationCount()));
    // What the log cannot give (e.g. "timestamps to the second only"), as the workload says.
    m_rec.spec.insert(QStringLiteral("gaps"), QJsonArray::fromStringList(m_workload->gaps));
    if (m_spec.target.insecure)
        m_rec.addWarning(QStringLiteral("tls-unverified"),
            QStringLiteral("--insecure: the server's certificate was not checked (trusted anyway)"));
    return true;
}

bool ReplayRun::connectAndIdentify()
{
    m_ctx.setPhase(QStringLiteral("connecting"));
    IdentifiedServer server;
    if (const ProbeError err = ServerConnect::connectAndIdentify(m_setup, m_spec.target, &server); err.isError()) {
        ServerConnect::recordSetupFailure(&m_rec, err);
        return false;
    }
    m_rec.server = server.json;
    m_monitor = std::make_unique<MonitorReader>(server.identity.kind);
    m_monitorOk = m_spec.readServerCounters && m_monitor->supported();
    if (m_monitorOk) {
        ProbeError me;
        m_monBefore = m_monitor->read(m_setup, &me);
        if (m_monBefore.isEmpty()) {
            m_monitorOk = false;
            m_rec.addWarning(QStringLiteral("monitor-unavailable"),
                QStringLiteral("the server's counters (cn=monitor) could not be read with this bind")
                    + (me.isError() ? QStringLiteral(": ") + me.message() : QString()));
        }
    }
    return true;
}

bool ReplayRun::snapshotWrites()
{
    if (!m_spec.allowWrites)
        return true;
    m_ctx.setPhase(QStringLiteral("reading the entries the replay writes"));
    m_writesArmed = true; // from here on, whatever happens, the writes are undone
    const ProbeError e = m_writes.snapshot(m_setup, m_plan->touchedDns);
    if (!e.isError())
        return true;
    m_rec.status = QStringLiteral("failed");
    m_rec.failure = QStringLiteral("the entries the replay would write could not be read first (nothing was sent): ")
        + e.message();
    return false;
}

void ReplayRun::startWorkers()
{
    LdapTarget t = m_spec.target;
    t.auth = LdapTarget::Auth::Anonymous;
    t.bindDn.clear();
    t.password.clear();
    m_shared = std::make_unique<ReplayShared>(*m_plan, t, uint64_t(m_spec.intervalSec * 1e9));
    const size_t conns = m_plan->connections.size();
    const size_t n = std::max<size_t>(1, std::min(size_t(m_spec.threads), conns));
    std::vector<std::vector<size_t>> parts(n);
    for (size_t i = 0; i < conns; ++i)
        parts[i % n].push_back(i);
    for (auto& p : parts)
        m_workers.push_back(std::make_unique<ReplayWorker>(*m_shared, std::move(p)));
    m_byTemplate.resize(m_plan->templates.size());
    if (m_monitorOk) {
        m_monStart = m_monitor->read(m_setup, nullptr);
        m_monBefore = m_monStart;
    }
    m_t0 = ReplayWorker::nowNs() + kStartLeadNs;
    m_monBeforeNs = m_t0;
    if (m_spec.durationSec > 0)
        m_endAll = m_t0 + uint64_t(m_spec.durationSec * 1e9);
    m_shared->endNs.store(m_endAll);
    m_shared->clock.start(m_t0);
    m_shared->lastSuccessNs.store(m_t0);
    for (auto& w : m_workers)
        m_pool.emplace_back([w = w.get()] { w->run(); });
    m_cpu0 = processCpuSeconds();
}

bool ReplayRun::allFinished() const
{
    return std::all_of(m_workers.begin(), m_workers.end(), [](const auto& w) { return w->finished(); });
}

uint64_t ReplayRun::intervalEnd(int64_t index) const
{
    return std::min(m_shared->clock.end(index), m_endAll);
}

QString ReplayRun::lastError() const
{
    for (const auto& w : m_workers)
        if (QString e = w->lastError(); !e.isEmpty())
            return e;
    return {};
}

void ReplayRun::measure()
{
    m_ctx.setPhase(QStringLiteral("replaying"));
    const double span = std::max(1.0, double(m_plan->spanNs) / 1e9);
    const double total = std::max<double>(1, double(m_plan->total.send));
    // An interval is emitted a tenth of an interval after its end: a replay that ends within that time has its
    // last sliver in the last interval instead of an interval of its own.
    const auto grace = uint64_t(m_spec.intervalSec * 1e8);
    for (;;) {
        QThread::usleep(10000);
        const uint64_t now = ReplayWorker::nowNs();
        if (now < m_t0)
            continue;
        const double done
            = m_plan->closedLoop ? double(m_shared->completed.load()) / total : double(now - m_t0) / 1e9 / span;
        m_ctx.setProgress(std::min(0.99, done));
        m_cancelled = m_ctx.stopRequested();
        if (m_cancelled || allFinished() || now >= m_endAll) {
            m_tEnd = std::min(now, m_endAll);
            break;
        }
        for (uint64_t e = intervalEnd(m_next); e + grace <= now && e < m_endAll; e = intervalEnd(m_next))
            emitInterval(m_next++, e);
    }
    m_cpu = processCpuSeconds() - m_cpu0;
    m_shared->endNs.store(m_tEnd);
    m_shared->stop.store(true);
    for (auto& t : m_pool)
        t.join();
    m_pool.clear();
    for (const auto& w : m_workers)
        m_loadCpu += w->cpuSeconds(); // the whole of each thread's life: the replay
    // The rest: whole intervals, then the last one up to the end (with a sliver after it, if any).
    for (;;) {
        const uint64_t e = intervalEnd(m_next);
        if (e + grace >= m_tEnd) {
            const bool sliver = e < m_tEnd;
            emitInterval(m_next, std::max(m_tEnd, m_t0 + 1), sliver ? m_next + 1 : m_next);
            break;
        }
        emitInterval(m_next++, e);
    }
}

double ReplayRun::processCpuSeconds()
{
    rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

void ReplayRun::emitInterval(int64_t index, uint64_t endNs, int64_t lastIndex)
{
    const uint64_t deadline = ReplayWorker::nowNs() + kWatermarkWaitNs;
    while (ReplayWorker::nowNs() < deadline
        && std::any_of(m_workers.begin(), m_workers.end(), [&](const auto& w) { return w->watermark() < endNs; }))
        QThread::usleep(500);
    // About 400 KiB of histograms: on the heap, not on the run's thread's stack.
    const auto stats = std::make_unique<ReplayStats>();
    ReplayStats& s = *stats;
    for (auto& w : m_workers)
        w->take(std::max(index, lastIndex), s);
    const uint64_t begin = std::max(m_shared->clock.begin(index), m_t0);
    const double secs = double(endNs - std::min(endNs, begin)) / 1e9;
    LoadInterval iv;
    iv.t = std::round(double(endNs - m_t0) / 1e6) / 1e3;
    iv.seconds = secs;
    iv.all = OpFigures::of(s.all, secs);
    for (int k = 0; k < ReplayStats::Kinds; ++k)
        if (!s.byKind[size_t(k)].empty() || m_total.byKind[size_t(k)].ops() > 0)
            iv.byOperation[workloadOpName(WorkloadOpKind(k))] = OpFigures::of(s.byKind[size_t(k)], secs);
    iv.connectFailures = double(s.connectFailures);
    iv.missed = double(s.missed);
    iv.server = serverInterval();
    QJsonObject values = iv.toJson();
    intervalExtra(s, begin, endNs).writeTo(&values);
    Sample smp;
    smp.t = iv.t;
    smp.values = values;
    m_rec.intervals.append(smp.toJson());
    m_ctx.addSample(std::move(smp));
    m_total.merge(s);
}

// Open loop: the send lag's p50/p99 over the interval and what the schedule put in it (the log's per-second counts,
// shared out over the part of each second the interval covers).
ReplayIntervalExtra ReplayRun::intervalExtra(const ReplayStats& s, uint64_t beginNs, uint64_t endNs) const
{
    ReplayIntervalExtra extra;
    extra.connects = double(s.connects);
    extra.unbinds = double(s.unbinds);
    if (m_plan->closedLoop)
        return extra;
    if (s.sendLag.count() > 0) {
        const LatencyFigures lag = LatencyFigures::of(s.sendLag);
        extra.sendLagP50Ms = lag.p50;
        extra.sendLagP99Ms = lag.p99;
    }
    const double from = double(beginNs - std::min(beginNs, m_t0)) / 1e9,
                 to = double(endNs - std::min(endNs, m_t0)) / 1e9;
    if (to <= from)
        return extra;
    double scheduled = 0;
    for (auto sec = size_t(from); sec < m_scheduledPerSecond.size() && double(sec) < to; ++sec) {
        const double overlap = std::min(to, double(sec) + 1) - std::max(from, double(sec));
        scheduled += overlap > 0 ? overlap * double(m_scheduledPerSecond[sec]) : 0;
    }
    extra.scheduledOpsPerS = std::round(scheduled / (to - from) * 100.0) / 100.0;
    return extra;
}

QJsonValue ReplayRun::serverInterval()
{
    if (!m_monitorOk || !m_setup.isOpen())
        return QJsonValue::Null;
    const uint64_t now = ReplayWorker::nowNs();
    ProbeError me;
    const auto after = m_monitor->read(m_setup, &me);
    if (after.isEmpty())
        return QJsonValue::Null;
    QJsonObject out = MonitorReader::intervalJson(m_monBefore, after, double(now - m_monBeforeNs) / 1e9);
    m_monBefore = after;
    m_monBeforeNs = now;
    return out;
}

// The server's counters are read here, before the writes are undone: the undo is not the replay's traffic.
void ReplayRun::stopWorkers()
{
    if (m_monitorOk && m_setup.isOpen())
        m_monEnd = m_monitor->read(m_setup, nullptr);
    for (auto& w : m_workers) {
        for (size_t i = 0; i < m_byTemplate.size() && i < w->byTemplate().size(); ++i)
            m_byTemplate[i].merge(w->byTemplate()[i]);
        addPerSecond(m_sentPerSecond, w->sentPerSecond());
        addPerSecond(m_answeredPerSecond, w->answeredPerSecond());
    }
}

void ReplayRun::undoWrites()
{
    if (!m_writesArmed)
        return;
    m_ctx.setPhase(QStringLiteral("undoing the writes"));
    if (!m_setup.isOpen() && m_setup.open(m_spec.target).isError()) {
        ReplayWrites::Outcome o;
        o.failures << QStringLiteral("could not reconnect to undo the replay's writes");
        m_undo = o;
        return;
    }
    m_undo = m_writes.restore(m_setup, m_plan->addedDns, m_spec.writeBase, m_tag);
}

void ReplayRun::summarise()
{
    const double seconds = double(m_tEnd - std::min(m_tEnd, m_t0)) / 1e9;
    LoadSummary s;
    s.all = OpFigures::of(m_total.all, seconds);
    for (int k = 0; k < ReplayStats::Kinds; ++k)
        if (!m_total.byKind[size_t(k)].empty())
            s.byOperation[workloadOpName(WorkloadOpKind(k))] = OpFigures::of(m_total.byKind[size_t(k)], seconds);
    s.seconds = seconds;
    s.connectFailures = double(m_total.connectFailures);
    s.missed = double(m_total.missed);
    s.sendLagMs = LatencyFigures::of(m_total.sendLag);
    if (m_total.sendLag.count() > 0)
        s.sendLagHistogramNs = m_total.sendLag.toJson();
    s.latencyHistogramNs = m_total.all.latency.toJson();
    s.clientCpuS = std::round(m_cpu * 1000.0) / 1000.0;
    s.loadCpuS = std::round(m_loadCpu * 1000.0) / 1000.0;
    if (m_undo)
        s.cleanupRemoved = m_undo->removed;
    if (m_monitorOk) {
        QJsonObject srv;
        for (auto it = m_monEnd.begin(); it != m_monEnd.end(); ++it)
            if (MonitorReader::isCounter(it.key()) && m_monStart.contains(it.key()))
                srv.insert(it.key(), it.value() - m_monStart.value(it.key()));
        s.server = srv.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(srv);
    }
    QJsonObject sum = s.toJson();
    sum.insert(QStringLiteral("window_epoch_ns"), windowEpochJson(m_t0, m_tEnd));
    QJsonObject fidelity = ReplayFidelity::compute(*m_plan, m_byTemplate, m_total.all.ops(), seconds);
    // Open loop: the achieved rate against the log's, whole run and per second, and its verdict.
    fidelity.insert(QStringLiteral("rate"), QJsonValue(QJsonValue::Null));
    if (!m_plan->closedLoop) {
        // Achieved: what the server answered in each second (a server that stalls fails it, however punctually
        // the requests left); offered: what was sent.
        auto rate = ReplayFidelity::RateFidelity::of(ReplayFidelity::scheduledPerSecond(*m_plan), m_answeredPerSecond);
        rate.setSent(m_sentPerSecond);
        fidelity.insert(QStringLiteral("rate"), rate.toJson());
        m_rec.verdicts << ReplayFidelity::rateVerdict(rate);
    }
    fidelity.insert(QStringLiteral("spread_within_second"), m_plan->spread);
    sum.insert(QStringLiteral("fidelity"), fidelity);
    sum.insert(QStringLiteral("connections"),
        QJsonObject { { QStringLiteral("logged"), double(m_plan->connections.size()) },
            { QStringLiteral("opened"), double(m_total.connects) },
            { QStringLiteral("failed"), double(m_total.connectFailures) },
            { QStringLiteral("unbinds"), double(m_total.unbinds) },
            // DirBench's own, beside the replayed ones: the root DSE, the counters, the writes' snapshot and undo.
            // A server (or its log) counts it too: it is not in the logged traffic.
            { QStringLiteral("setup"), 1.0 } });
    sum.insert(QStringLiteral("passwords"), m_spec.passwordSource());
    if (m_undo)
        sum.insert(QStringLiteral("writes_undone"),
            QJsonObject { { QStringLiteral("restored"), m_undo->restored },
                { QStringLiteral("removed"), m_undo->removed },
                { QStringLiteral("failures"), QJsonArray::fromStringList(m_undo->failures) } });
    m_rec.summary = sum;
}

void ReplayRun::addWarnings()
{
    const LoadCounts& all = m_total.all;
    if (all.errors > 0 && double(all.errors) > 0.01 * double(all.ops()))
        m_rec.addWarning(QStringLiteral("errors"),
            Units::formatNumber(double(all.errors), 0) + QStringLiteral(" of ")
                + Units::formatNumber(double(all.ops()), 0) + QStringLiteral(" replayed operations failed: ")
                + OpFigures::of(all, 1).topErrors() + QStringLiteral(" (compare with the log's result codes)"));
    if (m_total.missed > 0)
        m_rec.addWarning(QStringLiteral("schedule-missed"),
            Units::formatNumber(double(m_total.missed), 0)
                + QStringLiteral(" operations could not be sent within the operation timeout of their scheduled "
                                 "time and were not sent: the replay did not keep the log's pace"));
    if (const QString late = scheduleLateMessage(m_total.sendLag); !late.isEmpty())
        m_rec.addWarning(QStringLiteral("schedule-late"), late);
    if (m_plan->total.skippedWrites > 0)
        m_rec.addWarning(QStringLiteral("writes-skipped"),
            QString::number(m_plan->total.skippedWrites)
                + QStringLiteral(" logged writes were not sent (no --allow-writes)"));
    if (m_plan->total.noPassword > 0)
        m_rec.addWarning(QStringLiteral("binds-without-password"),
            QString::number(m_plan->total.noPassword)
                + QStringLiteral(" binds were not sent: their DN has no password in --passwords"));
    if (m_plan->keysFolded > 0)
        m_rec.addWarning(QStringLiteral("keys-folded"),
            QString::number(m_plan->keysFolded)
                + QStringLiteral(" distinct logged values did not fit the key space and share keys with others"));
    if (m_undo && !m_undo->failures.isEmpty())
        m_rec.addWarning(QStringLiteral("cleanup"),
            QStringLiteral("not every write was undone: ") + m_undo->failures.join(QStringLiteral("; ")));
    const QStringList drift = ReplayFidelity::drift(m_rec.summary.value(QStringLiteral("fidelity")).toObject());
    if (!drift.isEmpty())
        m_rec.addWarning(QStringLiteral("fidelity-drift"),
            QStringLiteral("the replay drifted from the log by more than %1 percentage points: ")
                    .arg(ReplayFidelity::kTolerancePp)
                + drift.mid(0, 5).join(QStringLiteral("; "))
                + (drift.size() > 5 ? QStringLiteral(" (and %1 more)").arg(drift.size() - 5) : QString()));
}

RunRecord ReplayRun::finished()
{
    if (!m_cancelled && m_total.all.ok == 0 && m_plan->total.send > 0) {
        m_rec.status = QStringLiteral("failed");
        m_rec.failure = m_total.all.ops() > 0
            ? QString(QStringLiteral("no replayed operation succeeded: ") + OpFigures::of(m_total.all, 1).topErrors())
            : QString(QStringLiteral("no replayed operation completed (last error: ") + lastError() + u')');
        return m_rec;
    }
    if (m_cancelled)
        m_rec.status = QStringLiteral("cancelled");
    m_ctx.setProgress(1.0);
    return m_rec;
}

RunRecord runReplay(
    const ReplaySpec& spec, std::shared_ptr<const Workload> workload, const ReplayPasswords& passwords, RunContext& ctx)
{
    ReplayRun run(spec, std::move(workload), passwords, ctx);
    return run.run();
}

} // namespace Replay
