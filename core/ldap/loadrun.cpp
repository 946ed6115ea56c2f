// LoadRun's steps up to the end of the measured phase. Summary, warnings and cleanup are in loadrunsummary.cpp.
#include "core/ldap/loadrun.h"

#include "core/common/environment.h"
#include "core/common/units.h"
#include "core/ldap/loadresult.h"
#include "core/ldap/loadworker.h"
#include "core/ldap/lockoutcheck.h"
#include "core/ldap/serverconnect.h"
#include "core/ldap/serveridentity.h"
#include "core/run/runcontext.h"

#include <QRandomGenerator>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

namespace Ldap {

namespace {

constexpr uint64_t kMonitorLeadNs = 50000000ULL; // the counters' first read starts this long before t0
constexpr uint64_t kWatermarkWaitNs = 100000000ULL; // a worker blocked in a connect+bind is not waited for longer

double processCpuSeconds()
{
    rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

} // namespace

LoadRun::LoadRun(const LdapLoadSpec& spec, RunContext& ctx, LoadRunOptions options)
    : m_spec(spec)
    , m_ctx(ctx)
    , m_options(std::move(options))
{ }

LoadRun::~LoadRun()
{
    if (m_shared)
        m_shared->stop.store(true);
    for (auto& t : m_pool)
        if (t.joinable())
            t.join();
}

RunRecord LoadRun::run()
{
    if (!prepare() || !connectAndIdentify())
        return m_rec;
    startWorkers();
    warmUp();
    measure();
    stopWorkers();
    readEndCounters();
    cleanUp();
    summarise();
    addWarnings();
    return finished();
}

bool LoadRun::prepare()
{
    m_rec.kind = m_spec.kindName();
    m_rec.started = QDateTime::currentDateTime();
    m_rec.spec = m_spec.toJson();
    m_rec.environment = Environment::collect();
    ProbeError err;
    m_load = CompiledLoad::compile(m_spec, &err);
    if (!m_load) {
        m_rec.status = QStringLiteral("failed");
        m_rec.failure = err.message();
        return false;
    }
    if (m_spec.target.insecure)
        m_rec.addWarning(QStringLiteral("tls-unverified"),
            QStringLiteral("--insecure: the server's certificate was not checked (trusted anyway)"));
    if (m_spec.coalesceReads)
        m_rec.addWarning(QStringLiteral("coalesce-reads"),
            QStringLiteral("--coalesce-reads: responses were held in the socket (up to 2 ms, until about half of a "
                           "connection's were in) and every latency includes that hold"));
    return true;
}

// One connection that must work before any load starts; it also identifies the server and reads its counters.
bool LoadRun::connectAndIdentify()
{
    m_ctx.setPhase(QStringLiteral("connecting"));
    IdentifiedServer server;
    if (const ProbeError err = ServerConnect::connectAndIdentify(m_setup, m_spec.target, &server); err.isError()) {
        ServerConnect::recordSetupFailure(&m_rec, err);
        return false;
    }
    m_rec.server = server.json;
    m_serverKind = server.identity.kind;
    if (m_load->has(LdapOpKind::Bind))
        addBindSafetyWarnings(m_setup, server.identity, m_load->dn, m_rec);

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
    } else if (m_spec.readServerCounters) {
        m_rec.addWarning(QStringLiteral("monitor-unavailable"),
            QStringLiteral("no counter reader for this server kind (") + server.identity.kind + u')');
    }
    return true;
}

void LoadRun::startWorkers()
{
    const CompiledLoad& l = *m_load;
    if (!m_options.source)
        m_options.source = std::make_shared<MixSource>(m_spec.mix);
    const auto stepNs = l.ramp.what != LoadRamp::What::None ? uint64_t(l.ramp.stepSeconds * 1e9) : 0;
    m_shared = std::make_unique<LoadShared>(l, *m_options.source, uint64_t(m_spec.intervalSec * 1e9), stepNs);
    m_shared->runTag = !m_options.runTag.isEmpty()
        ? m_options.runTag
        : QByteArray::number(qint64(::getpid())) + 'x' + QByteArray::number(QRandomGenerator::global()->generate(), 16);
    applyStep(0);
    const bool startsAtAnInstant = m_options.startGate || m_options.startAtNs || m_spec.startAtEpochNs > 0;
    if (startsAtAnInstant)
        m_shared->sendFromNs.store(UINT64_MAX); // until the instant is known: connect, bind, then idle
    for (int i = 0; i < m_spec.threads; ++i)
        m_workers.push_back(std::make_unique<LoadWorker>(*m_shared, i));
    for (auto& w : m_workers)
        m_pool.emplace_back([w = w.get()] { w->run(); });
    // The first connections are made before anything is measured; their timeouts bound this wait.
    while (m_shared->ready.load() < m_spec.threads && !m_ctx.stopRequested())
        QThread::msleep(5);
    if (m_spec.startAtEpochNs > 0 && !m_options.startAtNs) { // --start-at: this machine's clock to monotonic
        timespec real {};
        clock_gettime(CLOCK_REALTIME, &real);
        const int64_t realNs = int64_t(real.tv_sec) * 1000000000LL + real.tv_nsec;
        m_options.startAtNs
            = uint64_t(std::max<int64_t>(0, int64_t(LoadWorker::nowNs()) + m_spec.startAtEpochNs - realNs));
    }
    if (m_options.startGate && !m_ctx.stopRequested()) {
        m_options.startAtNs = m_options.startGate();
        if (!m_options.startAtNs)
            m_cancelled = true;
    }
    const uint64_t now = LoadWorker::nowNs();
    m_shared->lastSuccessNs.store(now);
    m_t0 = m_options.startAtNs ? std::max(*m_options.startAtNs, now) : now + uint64_t(m_spec.warmupSec * 1e9);
    const auto warmupNs = uint64_t(m_spec.warmupSec * 1e9);
    if (startsAtAnInstant) { // the warm-up is the time before t0, at most --warmup (none at --warmup 0)
        const uint64_t from = m_t0 > warmupNs ? std::max(now, m_t0 - warmupNs) : now;
        m_shared->sendFromNs.store(from);
        m_shared->lastSuccessNs.store(from); // the failure window counts from the first request
    }
}

void LoadRun::applyStep(int step)
{
    if (step == m_step)
        return;
    m_step = step;
    const CompiledLoad& l = *m_load;
    const double value = l.ramp.values.value(step);
    const double rate = l.ramp.what == LoadRamp::What::Rate ? value : m_spec.rate;
    m_shared->ratePerThread.store(rate / m_spec.threads);
    m_shared->window.store(l.ramp.what == LoadRamp::What::Outstanding ? int(value) : m_spec.outstanding);
}

QString LoadRun::lastError() const
{
    for (const auto& w : m_workers)
        if (QString e = w->lastError(); !e.isEmpty())
            return e;
    return QString();
}

bool LoadRun::stopping(uint64_t now, bool warmingUp)
{
    if (m_ctx.stopRequested()) {
        m_cancelled = true;
        return true;
    }
    const uint64_t last = m_shared->lastSuccessNs.load();
    const uint64_t silent = now > last ? now - last : 0; // a worker may store a later time than `now`
    if (silent > uint64_t(m_spec.failAfterSec * 1e9)) {
        m_windowFailure = true;
        m_failure = QStringLiteral("no operation succeeded for ") + Units::formatNumber(m_spec.failAfterSec)
            + (warmingUp ? QString(QStringLiteral(" s during the warm-up (last error: ") + lastError() + u')')
                         : QString(QStringLiteral(" s (the failure window); last error: ") + lastError()));
        return true;
    }
    if (m_spec.maxErrors > 0 && m_total.all.errors >= uint64_t(m_spec.maxErrors)) {
        m_failure = QStringLiteral("error limit reached: ") + QString::number(m_total.all.errors)
            + QStringLiteral(" errors (the limit is ") + QString::number(m_spec.maxErrors) + u')';
        return true;
    }
    return false;
}

// Warm-up: counted nowhere (the workers count from t0 on). The server's counters are read just before t0, so that
// every operation the client counts is in the server's delta too.
void LoadRun::warmUp()
{
    if (m_cancelled)
        return;
    if (LoadWorker::nowNs() + kMonitorLeadNs < m_t0)
        m_ctx.setPhase(QStringLiteral("warming up"));
    if (!waitUntil(m_t0 > kMonitorLeadNs ? m_t0 - kMonitorLeadNs : 0))
        return;
    if (m_monitorOk) {
        m_monStart = m_monitor->read(m_setup, nullptr);
        m_monBefore = m_monStart;
    }
    if (!m_options.startAtNs)
        m_t0 = std::max(m_t0, LoadWorker::nowNs());
    m_monBeforeNs = m_t0;
    m_endAll = m_t0 + uint64_t(m_load->totalSeconds() * 1e9);
    m_shared->endNs.store(m_endAll);
    m_shared->clock.start(m_t0);
    if (waitUntil(m_t0) && m_options.onStarted)
        m_options.onStarted(LoadWorker::nowNs());
}

bool LoadRun::waitUntil(uint64_t t)
{
    for (uint64_t now = LoadWorker::nowNs(); now < t; now = LoadWorker::nowNs()) {
        QThread::usleep(unsigned(std::min<uint64_t>(20000, (t - now) / 1000 + 1)));
        if (stopping(LoadWorker::nowNs(), true))
            return false;
    }
    return true;
}

uint64_t LoadRun::intervalEnd(int64_t index) const
{
    return std::min(m_shared->clock.end(index), m_endAll);
}

void LoadRun::waitForWatermarks(uint64_t t)
{
    const uint64_t deadline = LoadWorker::nowNs() + kWatermarkWaitNs;
    auto behind = [&] {
        return std::any_of(m_workers.begin(), m_workers.end(), [t](const auto& w) { return w->watermark() < t; });
    };
    while (behind() && LoadWorker::nowNs() < deadline)
        QThread::usleep(500);
}

double LoadRun::loadCpuSeconds()
{
    double sum = 0;
    for (auto& t : m_pool) {
        clockid_t id {};
        timespec ts {};
        if (pthread_getcpuclockid(t.native_handle(), &id) == 0 && clock_gettime(id, &ts) == 0)
            sum += double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
    }
    return sum;
}

void LoadRun::measure()
{
    m_tEnd = m_t0;
    if (!m_failure.isEmpty() || m_cancelled || !m_shared->clock.started())
        return;
    m_ctx.setPhase(QStringLiteral("measuring"));
    m_cpu0 = processCpuSeconds();
    m_loadCpu0 = loadCpuSeconds();
    const double totalSec = m_load->totalSeconds();
    uint64_t now = LoadWorker::nowNs();
    while (m_next >= 0) {
        const uint64_t due = intervalEnd(m_next);
        if (due > now)
            QThread::usleep(unsigned(std::min<uint64_t>(10000, (due - now) / 1000 + 1)));
        now = LoadWorker::nowNs();
        m_ctx.setProgress(double(now - m_t0) / 1e9 / totalSec);
        if (stopping(now, false))
            break;
        applyStep(m_shared->clock.step(m_shared->clock.index(std::min(now, m_endAll - 1))));
        for (uint64_t end = intervalEnd(m_next); now >= end; end = intervalEnd(m_next)) {
            emitInterval(m_next, end);
            if (end >= m_endAll) {
                m_next = -1; // the last interval is out
                break;
            }
            ++m_next;
        }
    }
    m_tEnd = std::min(now, m_endAll);
    if (m_next >= 0) { // cancelled or failed inside interval m_next
        const uint64_t begin = m_shared->clock.begin(m_next);
        if (m_tEnd - std::min(m_tEnd, begin) < uint64_t(m_spec.intervalSec * 1e8))
            m_tEnd = std::max(begin, m_t0); // a sliver of an interval: the measured span ends at its start
        m_shared->endNs.store(m_tEnd);
        if (m_tEnd > begin)
            emitInterval(m_next, m_tEnd);
    }
    m_cpu = processCpuSeconds() - m_cpu0;
    m_loadCpu = loadCpuSeconds() - m_loadCpu0;
}

void LoadRun::emitInterval(int64_t index, uint64_t endNs)
{
    waitForWatermarks(endNs);
    LoadStats s;
    for (auto& w : m_workers)
        s.merge(w->take(index)); // an operation counted late for an earlier interval lands here: sums stay exact
    const uint64_t begin = std::max(m_shared->clock.begin(index), m_t0);
    const double secs = double(endNs - begin) / 1e9;
    LoadInterval iv;
    iv.t = std::round(double(endNs - m_t0) / 1e6) / 1e3;
    iv.seconds = secs;
    iv.all = OpFigures::of(s.all, secs);
    if (m_spec.intervalHistograms)
        iv.all.latencyHistogramNs = s.all.latency.toJson();
    if (m_spec.mix.size() > 1)
        for (int k = 0; k < LoadStats::OpKinds; ++k)
            if (m_load->has(LdapOpKind(k))) {
                OpFigures& f = iv.byOperation[LdapLoadSpec::opName(LdapOpKind(k))];
                f = OpFigures::of(s.byOp[size_t(k)], secs);
                if (m_spec.intervalHistograms)
                    f.latencyHistogramNs = s.byOp[size_t(k)].latency.toJson();
            }
    iv.reconnects = double(s.reconnects);
    iv.connectFailures = double(s.connectFailures);
    iv.missed = double(s.missed);
    const CompiledLoad& l = *m_load;
    if (l.ramp.what != LoadRamp::What::None) {
        const int step = m_shared->clock.step(index);
        iv.step = step;
        if (l.ramp.what == LoadRamp::What::Rate)
            iv.targetRate = l.ramp.values.value(step);
        else
            iv.outstanding = int(l.ramp.values.value(step));
    } else if (m_spec.rate > 0) {
        iv.targetRate = m_spec.rate;
    }
    iv.server = serverInterval();
    Sample smp;
    smp.t = iv.t;
    smp.values = iv.toJson();
    m_rec.intervals.append(smp.toJson());
    m_ctx.addSample(std::move(smp));
    m_total.merge(s);
}

// The server's counters over the time since the last read that worked (an interval may have been skipped). A
// server that answers no operation (hung, stopped) would hold this thread in the reads, up to their timeouts, and
// push the failure window back: the counters are read only while the load gets answers.
QJsonValue LoadRun::serverInterval()
{
    if (!m_monitorOk)
        return QJsonValue::Null;
    const uint64_t now = LoadWorker::nowNs();
    const uint64_t last = m_shared->lastSuccessNs.load();
    const bool live = now < last || now - last < 1000000000ULL;
    if (live && !m_setup.isOpen() && now >= m_monitorRetryNs) {
        LdapTarget quick = m_spec.target;
        quick.networkTimeoutMs = std::min(quick.networkTimeoutMs, 1000);
        quick.opTimeoutMs = std::min(quick.opTimeoutMs, 2000);
        if (m_setup.open(quick).isError())
            m_monitorRetryNs = now + 2000000000ULL;
    }
    ProbeError me;
    const auto after = live && m_setup.isOpen() ? m_monitor->read(m_setup, &me) : QMap<QString, double>();
    if (after.isEmpty()) {
        if (me.isError())
            m_setup.close(); // reopen on the next interval
        return QJsonValue::Null;
    }
    QJsonObject out = MonitorReader::intervalJson(m_monBefore, after, double(now - m_monBeforeNs) / 1e9);
    m_monBefore = after;
    m_monBeforeNs = now;
    return out;
}

// The server's counters at the end of the measured span, before the cleanup's deletes: the summary's delta is the
// load's alone. Not read from a server that stopped answering (the read would wait for its timeout).
void LoadRun::readEndCounters()
{
    if (!m_monitorOk)
        return;
    const uint64_t now = LoadWorker::nowNs(), last = m_shared->lastSuccessNs.load();
    const bool answering = now < last || now - last < 1000000000ULL;
    if (answering && m_setup.isOpen())
        m_monEnd = m_monitor->read(m_setup, nullptr);
}

void LoadRun::stopWorkers()
{
    m_shared->stop.store(true);
    for (auto& t : m_pool)
        t.join();
    m_pool.clear();
}

} // namespace Ldap
