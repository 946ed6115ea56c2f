#include "core/ldap/loadgenerator.h"

#include "core/common/environment.h"
#include "core/common/units.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadworker.h"
#include "core/ldap/lockoutcheck.h"
#include "core/ldap/monitorreader.h"
#include "core/ldap/serveridentity.h"
#include "core/run/runcontext.h"

#include <QJsonArray>
#include <QThread>

#include <cmath>
#include <memory>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace Ldap {

namespace {

double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

QJsonObject latencyMs(const LatencyHistogram& h, bool full)
{
    auto ms = [](uint64_t ns) { return round3(double(ns) / 1e6); };
    if (h.count() == 0)
        return QJsonObject { { QStringLiteral("mean"), QJsonValue::Null }, { QStringLiteral("p50"), QJsonValue::Null },
            { QStringLiteral("p99"), QJsonValue::Null }, { QStringLiteral("max"), QJsonValue::Null } };
    QJsonObject o { { QStringLiteral("mean"), round3(h.mean() / 1e6) },
        { QStringLiteral("p50"), ms(h.percentile(0.5)) }, { QStringLiteral("p95"), ms(h.percentile(0.95)) },
        { QStringLiteral("p99"), ms(h.percentile(0.99)) }, { QStringLiteral("max"), ms(h.max()) } };
    if (full) {
        o.insert(QStringLiteral("p999"), ms(h.percentile(0.999)));
        o.insert(QStringLiteral("min"), ms(h.min()));
    }
    return o;
}

double cpuSeconds()
{
    rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

} // namespace

RunRecord runLoad(const LdapLoadSpec& spec, RunContext& ctx)
{
    RunRecord rec;
    rec.kind = spec.kindName();
    rec.started = QDateTime::currentDateTime();
    rec.spec = spec.toJson();
    rec.environment = Environment::collect();
    auto fail = [&](const QString& why) {
        rec.status = QStringLiteral("failed");
        rec.failure = why;
        return rec;
    };

    ProbeError err;
    const auto compiled = CompiledLoad::compile(spec, &err);
    if (!compiled)
        return fail(err.message());
    const CompiledLoad& l = *compiled;
    if (spec.target.insecure)
        rec.addWarning(QStringLiteral("tls-unverified"),
            QStringLiteral("--insecure: the server's certificate was not checked (trusted anyway)"));

    // Setup: one connection that must work before any load starts; it also reads the server's counters.
    ctx.setPhase(QStringLiteral("connecting"));
    LdapSession setup;
    err = setup.open(spec.target);
    if (err.isError()) {
        const int code = err.nativeCode == -1 ? 81 : err.nativeCode;
        rec.summary.insert(QStringLiteral("result_codes"), QJsonObject { { QString::number(code), 1 } });
        rec.summary.insert(QStringLiteral("setup_result_code"), code);
        rec.summary.insert(QStringLiteral("ops"), 0);
        return fail(err.message());
    }
    QList<LdapSession::Entry> dse;
    setup.search(QString(), LdapSession::Base, QStringLiteral("(objectClass=*)"),
        { QStringLiteral("*"), QStringLiteral("+") }, &dse);
    const ServerIdentity id = ServerIdentity::fromRootDse(dse.value(0));
    QJsonObject server = id.toJson();
    if (id.kind == u"openldap") {
        const QString v = MonitorReader::openLdapVersion(setup);
        if (!v.isEmpty())
            server.insert(QStringLiteral("version"), v);
    }
    rec.server = server;
    if (l.has(LdapOpKind::Bind))
        addBindSafetyWarnings(setup, id, l.dn, rec);

    MonitorReader monitor(id.kind);
    bool monitorOk = spec.readServerCounters && monitor.supported();
    QMap<QString, double> monBefore, monStart;
    if (monitorOk) {
        ProbeError me;
        monBefore = monitor.read(setup, &me);
        if (monBefore.isEmpty()) {
            monitorOk = false;
            rec.addWarning(QStringLiteral("monitor-unavailable"),
                QStringLiteral("the server's counters (cn=monitor) could not be read with this bind")
                    + (me.isError() ? QStringLiteral(": ") + me.message() : QString()));
        }
    } else if (spec.readServerCounters) {
        rec.addWarning(QStringLiteral("monitor-unavailable"),
            QStringLiteral("no counter reader for this server kind (") + id.kind + u')');
    }

    // Workers.
    LoadShared shared(l);
    const int threads = spec.threads;
    const double firstRate = l.ramp.what == LoadRamp::What::Rate ? l.ramp.values.first() : spec.rate;
    shared.ratePerThread.store(firstRate / threads);
    shared.window.store(l.ramp.what == LoadRamp::What::Outstanding ? int(l.ramp.values.first()) : spec.outstanding);
    const uint64_t runStart = LoadWorker::nowNs();
    shared.lastSuccessNs.store(runStart);
    std::vector<std::unique_ptr<LoadWorker>> workers;
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i)
        workers.push_back(std::make_unique<LoadWorker>(shared, i));
    for (int i = 0; i < threads; ++i)
        pool.emplace_back([w = workers[size_t(i)].get()] { w->run(); });

    auto takeAll = [&]() {
        LoadStats s;
        for (auto& w : workers)
            s.merge(w->take());
        return s;
    };
    auto lastError = [&]() {
        for (auto& w : workers)
            if (!w->lastError().isEmpty())
                return w->lastError();
        return QString();
    };
    const auto failAfterNs = uint64_t(spec.failAfterSec * 1e9);
    // A worker may store a success time later than the `now` read just before: that is 0 s of silence, not 584 years.
    auto silentNs = [&](uint64_t now) {
        const uint64_t last = shared.lastSuccessNs.load();
        return now > last ? now - last : 0;
    };
    QString failure;
    bool cancelled = false;

    // Warm-up: counted nowhere.
    if (spec.warmupSec > 0) {
        ctx.setPhase(QStringLiteral("warming up"));
        const uint64_t end = runStart + uint64_t(spec.warmupSec * 1e9);
        while (LoadWorker::nowNs() < end) {
            QThread::msleep(20);
            if (ctx.stopRequested()) {
                cancelled = true;
                break;
            }
            if (silentNs(LoadWorker::nowNs()) > failAfterNs) {
                failure = QStringLiteral("no operation succeeded for ") + Units::formatNumber(spec.failAfterSec)
                    + QStringLiteral(" s during the warm-up (last error: ") + lastError() + u')';
                break;
            }
        }
        takeAll();
    }

    // Measured phase.
    ctx.setPhase(QStringLiteral("measuring"));
    LoadStats total;
    const double cpu0 = cpuSeconds();
    const uint64_t t0 = LoadWorker::nowNs();
    if (monitorOk) {
        monStart = monitor.read(setup, nullptr);
        monBefore = monStart;
    }
    uint64_t monBeforeNs = t0;
    // A server that answers no operation (hung, stopped) would hold this thread in the counter reads, up to their
    // timeouts, and push the failure window back: the counters are read only while the load gets answers.
    auto answering = [&](uint64_t now) { return silentNs(now) < 1000000000ULL; };
    const double totalSec = l.totalSeconds();
    const auto intervalNs = uint64_t(spec.intervalSec * 1e9);
    uint64_t lastInterval = t0;
    int step = 0;
    uint64_t monitorRetryNs = 0;
    auto emitInterval = [&](uint64_t at) {
        LoadStats s = takeAll();
        const double secs = double(at - lastInterval) / 1e9;
        if (secs <= 0)
            return;
        Sample smp;
        smp.t = round3(double(at - t0) / 1e9);
        smp.values.insert(QStringLiteral("ops"), double(s.ops()));
        smp.values.insert(QStringLiteral("ops_per_s"), std::round(double(s.ops()) / secs * 10.0) / 10.0);
        smp.values.insert(QStringLiteral("latency_ms"), latencyMs(s.latency, false));
        smp.values.insert(QStringLiteral("errors"), double(s.errors));
        smp.values.insert(QStringLiteral("timeouts"), double(s.timeouts));
        smp.values.insert(QStringLiteral("reconnects"), double(s.reconnects));
        smp.values.insert(QStringLiteral("no_entry"), double(s.noEntry));
        smp.values.insert(QStringLiteral("result_codes"), s.resultCodesJson());
        if (l.ramp.what != LoadRamp::What::None) {
            smp.values.insert(QStringLiteral("step"), step);
            smp.values.insert(
                l.ramp.what == LoadRamp::What::Rate ? QStringLiteral("target_rate") : QStringLiteral("outstanding"),
                l.ramp.values.value(step));
        } else if (spec.rate > 0) {
            smp.values.insert(QStringLiteral("target_rate"), spec.rate);
        }
        QJsonValue serverJson = QJsonValue::Null;
        if (monitorOk) {
            const uint64_t now = LoadWorker::nowNs();
            const bool live = answering(now);
            if (live && !setup.isOpen() && now >= monitorRetryNs) {
                LdapTarget quick = spec.target;
                quick.networkTimeoutMs = std::min(quick.networkTimeoutMs, 1000);
                quick.opTimeoutMs = std::min(quick.opTimeoutMs, 2000);
                if (setup.open(quick).isError())
                    monitorRetryNs = now + 2000000000ULL;
            }
            ProbeError me;
            const auto after = live && setup.isOpen() ? monitor.read(setup, &me) : QMap<QString, double>();
            if (!after.isEmpty()) {
                // Rates over the time since the last read that worked (an interval may have been skipped).
                serverJson = MonitorReader::intervalJson(monBefore, after, double(now - monBeforeNs) / 1e9);
                monBefore = after;
                monBeforeNs = now;
            } else if (me.isError()) {
                setup.close(); // reopen on the next interval
            }
        }
        smp.values.insert(QStringLiteral("server"), serverJson);
        rec.intervals.append(smp.toJson());
        ctx.addSample(std::move(smp));
        total.merge(s);
        lastInterval = at;
    };

    if (failure.isEmpty() && !cancelled) {
        for (;;) {
            QThread::msleep(10);
            const uint64_t now = LoadWorker::nowNs();
            const double elapsed = double(now - t0) / 1e9;
            ctx.setProgress(elapsed / totalSec);
            if (ctx.stopRequested()) {
                cancelled = true;
                break;
            }
            if (silentNs(now) > failAfterNs) {
                failure = QStringLiteral("no operation succeeded for ") + Units::formatNumber(spec.failAfterSec)
                    + QStringLiteral(" s (the failure window); last error: ") + lastError();
                break;
            }
            if (l.ramp.what != LoadRamp::What::None) {
                const int s = std::min(int(elapsed / l.ramp.stepSeconds), int(l.ramp.values.size()) - 1);
                if (s != step) {
                    emitInterval(now); // a step change closes the interval, so no interval mixes two steps
                    step = s;
                    if (l.ramp.what == LoadRamp::What::Rate)
                        shared.ratePerThread.store(l.ramp.values.value(s) / threads);
                    else
                        shared.window.store(int(l.ramp.values.value(s)));
                }
            }
            if (now - lastInterval >= intervalNs)
                emitInterval(lastInterval + intervalNs);
            if (spec.maxErrors > 0 && total.errors >= uint64_t(spec.maxErrors)) {
                failure = QStringLiteral("error limit reached: ") + QString::number(total.errors)
                    + QStringLiteral(" errors (--max-errors ") + QString::number(spec.maxErrors) + u')';
                break;
            }
            if (elapsed >= totalSec)
                break;
        }
    }
    const uint64_t tEnd = LoadWorker::nowNs();
    if (tEnd - lastInterval > intervalNs / 10)
        emitInterval(tEnd); // the part of an interval measured before a cancel or a failure
    else
        total.merge(takeAll());
    const double cpu = cpuSeconds() - cpu0;
    shared.stop.store(true);
    for (auto& t : pool)
        t.join();

    // Write loads remove what they added, also after a cancel or a failure: every entry this process named
    // (uid=dirbench-PID-...) under the parent, whether the workers saw its add complete or not.
    if (l.has(LdapOpKind::AddDelete)) {
        ctx.setPhase(QStringLiteral("removing added entries"));
        LdapSession cleaner;
        int removed = 0, left = 0;
        QList<LdapSession::Entry> found;
        const QString filter = QStringLiteral("(uid=dirbench-") + QString::number(::getpid()) + QStringLiteral("-*)");
        if (!cleaner.open(spec.target).isError()
            && !cleaner.search(spec.parentDn, LdapSession::OneLevel, filter, { QStringLiteral("1.1") }, &found)
                    .isError()) {
            for (const auto& e : std::as_const(found))
                cleaner.remove(e.dn).isError() ? ++left : ++removed;
        } else {
            left = -1;
        }
        rec.summary.insert(QStringLiteral("cleanup_removed"), removed);
        if (left != 0)
            rec.addWarning(QStringLiteral("cleanup"),
                left < 0
                    ? QString(QStringLiteral("could not look for the entries this run added under ") + spec.parentDn)
                    : QString::number(left) + QStringLiteral(" entries this run added could not be removed from ")
                        + spec.parentDn + QStringLiteral(" (uid=dirbench-") + QString::number(::getpid())
                        + QStringLiteral("-*)"));
    }

    const double seconds = double(tEnd - t0) / 1e9;
    const uint64_t ops = total.ops();
    QJsonObject& s = rec.summary;
    s.insert(QStringLiteral("ops"), double(ops));
    s.insert(QStringLiteral("ops_per_s"), seconds > 0 ? std::round(double(ops) / seconds * 10.0) / 10.0 : 0.0);
    s.insert(QStringLiteral("errors"), double(total.errors));
    s.insert(QStringLiteral("result_codes"), total.resultCodesJson());
    s.insert(QStringLiteral("latency_ms"), latencyMs(total.latency, true));
    s.insert(QStringLiteral("seconds"), round3(seconds));
    s.insert(QStringLiteral("no_entry"), double(total.noEntry));
    s.insert(QStringLiteral("entries"), double(total.entries));
    s.insert(QStringLiteral("timeouts"), double(total.timeouts));
    s.insert(QStringLiteral("reconnects"), double(total.reconnects));
    s.insert(QStringLiteral("client_cpu_s"), round3(cpu));
    s.insert(QStringLiteral("client_cpu_us_per_op"), ops ? QJsonValue(round3(cpu * 1e6 / double(ops))) : QJsonValue());
    s.insert(QStringLiteral("latency_histogram_ns"), total.latency.toJson());
    if (monitorOk) {
        ProbeError me;
        const auto monEnd = answering(tEnd) && setup.isOpen() ? monitor.read(setup, &me) : QMap<QString, double>();
        QJsonObject srv;
        for (auto it = monEnd.begin(); it != monEnd.end(); ++it)
            if (MonitorReader::isCounter(it.key()) && monStart.contains(it.key()))
                srv.insert(it.key(), it.value() - monStart.value(it.key()));
        s.insert(QStringLiteral("server"), srv.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(srv));
    } else {
        s.insert(QStringLiteral("server"), QJsonValue::Null);
    }

    if (l.has(LdapOpKind::Search) && total.noEntry > 0)
        rec.addWarning(QStringLiteral("no-entry"),
            QString::number(total.noEntry) + QStringLiteral(" of ") + QString::number(total.ok)
                + QStringLiteral(" successful searches returned no entry: check the base DN and the filter (an empty "
                                 "answer is fast, and proves nothing about the server)"));
    const double cores = std::min<double>(threads, std::max(1, QThread::idealThreadCount()));
    if (seconds > 0 && cpu / seconds >= 0.9 * cores)
        rec.addWarning(QStringLiteral("client-bound"),
            QStringLiteral("the client used ") + Units::formatNumber(100.0 * cpu / seconds, 0)
                + QStringLiteral(" % CPU over ") + QString::number(threads)
                + QStringLiteral(" thread(s): the client, not the server, may be the limit"));
    if (total.reconnects > 0)
        rec.addWarning(QStringLiteral("reconnects"),
            QString::number(total.reconnects)
                + QStringLiteral(" connection(s) were lost and made again during the run"));

    if (!failure.isEmpty())
        return fail(failure);
    if (cancelled)
        rec.status = QStringLiteral("cancelled");
    ctx.setProgress(1.0);
    return rec;
}

} // namespace Ldap
