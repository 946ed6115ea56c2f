#include "core/experiments/guided.h"

#include "core/catalog/sources.h"
#include "core/common/environment.h"
#include "core/experiments/serverthreads.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadgenerator.h"
#include "core/ldap/loadresult.h"
#include "core/run/runcontext.h"
#include "core/sandbox/ds389sandbox.h"
#include "core/sandbox/sandboxguard.h"
#include "core/sandbox/slapdsandbox.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>

#include <cmath>

namespace {

// The citation a reader can find (core/catalog/sources.h), never a path of this repository.
QString guide(const char* table)
{
    return Sources::citation(*Sources::byId(QStringLiteral("hpux-ds81-guide")), QString::fromLatin1(table));
}

RunRecord frame(const QString& kind, const QJsonObject& spec)
{
    RunRecord r;
    r.kind = kind;
    r.started = QDateTime::currentDateTime();
    r.spec = spec;
    r.environment = Environment::collect();
    return r;
}

// One load as a part of the experiment: its samples are a series of the experiment's chart, on its time axis.
RunRecord runPart(
    RunRecord& rec, const LdapLoadSpec& load, const QString& series, RunContext& ctx, const QElapsedTimer& clock)
{
    const double offset = double(clock.nsecsElapsed()) / 1e9;
    RunContext part(&ctx, series, offset);
    ctx.setPhase(series);
    RunRecord r = Ldap::runLoad(load, part);
    for (const auto& v : std::as_const(r.intervals)) {
        QJsonObject o = v.toObject();
        o.insert(QStringLiteral("series"), series);
        o.insert(QStringLiteral("t"), std::round((o.value(QStringLiteral("t")).toDouble() + offset) * 1000.0) / 1000.0);
        rec.intervals.append(o);
    }
    for (const auto& w : r.warnings)
        rec.addWarning(w.code, series + QStringLiteral(": ") + w.message);
    if (rec.server.isNull())
        rec.server = r.server;
    return r;
}

// One point of a sweep: ok/s is its throughput (successful operations); ops/s (completed), ok and errors beside.
QJsonObject point(const QString& x, double xValue, const RunRecord& r)
{
    const LoadSummary s = LoadSummary::fromJson(r.summary);
    auto orNull = [](const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); };
    return QJsonObject { { x, xValue }, { QStringLiteral("ok_per_s"), s.all.okPerS },
        { QStringLiteral("ops_per_s"), s.all.opsPerS }, { QStringLiteral("ok"), s.all.ok },
        { QStringLiteral("ops"), s.all.ops }, { QStringLiteral("errors"), s.all.errors },
        { QStringLiteral("latency_ms"), s.all.latencyMs.toJson(true) },
        { QStringLiteral("client_cpu_us_per_op"), orNull(s.clientCpuUsPerOp()) },
        { QStringLiteral("load_cpu_us_per_op"), orNull(s.loadCpuUsPerOp()) }, { QStringLiteral("status"), r.status } };
}

// The point with the most successes per second, or -1.
qsizetype bestPoint(const QJsonArray& points)
{
    qsizetype best = -1;
    double most = 0;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const double ok = points.at(i).toObject().value(QStringLiteral("ok_per_s")).toDouble();
        if (ok > most) {
            most = ok;
            best = i;
        }
    }
    return best;
}

// Stops at the first part that fails or is cancelled; returns false then, with rec marked.
bool keepGoing(RunRecord& rec, const RunRecord& part, const QString& series, RunContext& ctx)
{
    if (ctx.stopRequested()) {
        rec.status = QStringLiteral("cancelled");
        return false;
    }
    if (part.status != u"ok") {
        rec.status = part.status;
        rec.failure = series + QStringLiteral(": ") + part.failure;
        return false;
    }
    return true;
}

} // namespace

namespace Experiments {

RunRecord runThreadSweep(const ThreadSweepSpec& spec, RunContext& ctx)
{
    const bool serverAxis = !spec.serverThreads.isEmpty();
    const QList<int>& axis = serverAxis ? spec.serverThreads : spec.threads;
    const QString x = serverAxis ? QStringLiteral("server_threads") : QStringLiteral("threads");
    RunRecord rec = frame(QStringLiteral("thread-sweep"),
        QJsonObject { { QStringLiteral("load"), spec.load.toJson() }, { QStringLiteral("axis"), x },
            { x, QJsonArray::fromVariantList(QVariantList(axis.begin(), axis.end())) },
            { QStringLiteral("restart"), spec.restart },
            { QStringLiteral("seconds_per_point"), spec.secondsPerPoint } });
    ProbeError e;
    if (axis.isEmpty() || !CompiledLoad::compile(spec.load, &e)) {
        rec.status = QStringLiteral("failed");
        rec.failure = axis.isEmpty() ? x + QStringLiteral(": no point") : e.message();
        return rec;
    }
    // The server's threads: read the setting (put back by ServerThreads on every exit path).
    std::optional<ServerThreads> server;
    LdapSession admin;
    if (serverAxis) {
        std::optional<SandboxInfo> sandbox;
        if (spec.restart) {
            sandbox = spec.sandboxDir.isEmpty() ? Ds389Sandbox::findByUri(spec.load.target.uri)
                                                : Ds389Sandbox::findRunning(spec.sandboxDir);
            if (!sandbox) {
                rec.status = QStringLiteral("failed");
                rec.failure = QStringLiteral("--restart needs a running DirBench 389-ds sandbox serving ")
                    + spec.load.target.uri;
                return rec;
            }
        }
        server.emplace(spec.load.target, sandbox);
        if (const ProbeError oe = admin.open(spec.load.target); oe.isError() || !server->begin(admin, &e)) {
            rec.status = QStringLiteral("failed");
            rec.failure = oe.isError() ? oe.message() : e.message();
            server.reset();
            return rec;
        }
        rec.summary.insert(QStringLiteral("server_threads_original"), QString::fromUtf8(server->original()));
    }
    QElapsedTimer clock;
    clock.start();
    QJsonArray points;
    QStringList notApplied;
    for (int i = 0; i < axis.size(); ++i) {
        LdapLoadSpec load = spec.load;
        load.durationSec = spec.secondsPerPoint;
        QString series = QStringLiteral("threads ") + QString::number(axis.at(i));
        QJsonObject extra;
        if (serverAxis) {
            series = QStringLiteral("server threads ") + QString::number(axis.at(i));
            ctx.setPhase(series + QStringLiteral(": setting nsslapd-threadnumber"));
            QString how;
            const int running = server->apply(admin, axis.at(i), &how, &e, &ctx);
            if (running < 0 && e.isError()) {
                rec.status = QStringLiteral("failed");
                rec.failure = series + QStringLiteral(": ") + e.message();
                break;
            }
            extra.insert(QStringLiteral("server_threads_running"), running >= 0 ? QJsonValue(running) : QJsonValue());
            extra.insert(QStringLiteral("applied"), how);
            // cn=monitor "threads" counts one thread more than nsslapd-threadnumber (389-ds 2.3: 16 -> 17).
            const bool applied = running == axis.at(i) || running == axis.at(i) + 1;
            extra.insert(QStringLiteral("server_threads_applied"), applied);
            if (!applied)
                notApplied << QString::number(axis.at(i));
        } else {
            load.threads = axis.at(i);
        }
        const RunRecord r = runPart(rec, load, series, ctx, clock);
        QJsonObject pt = point(x, axis.at(i), r);
        for (auto it = extra.begin(); it != extra.end(); ++it)
            pt.insert(it.key(), it.value());
        points.append(pt);
        ctx.setProgress(double(i + 1) / double(axis.size()));
        if (!keepGoing(rec, r, series, ctx))
            break;
    }
    if (!notApplied.isEmpty())
        rec.addWarning(QStringLiteral("not-applied"),
            QStringLiteral("nsslapd-threadnumber %1: set online, the server kept the threads it had (cn=monitor); "
                           "389-ds takes the value at a restart, so those points ran with the old threads (on a "
                           "DirBench 389-ds sandbox, --restart restarts it per point)")
                .arg(notApplied.join(QStringLiteral(", "))));
    if (server) {
        admin.close();
        if (const QString why = server->restore(); !why.isEmpty())
            rec.addWarning(QStringLiteral("not-restored"), why);
    }
    rec.summary.insert(QStringLiteral("points"), points);
    // The best point by successes per second; best_ops_per_s is that point's completed operations per second.
    const qsizetype best = bestPoint(points);
    const QJsonObject bp = best >= 0 ? points.at(best).toObject() : QJsonObject();
    rec.summary.insert(QStringLiteral("best_ok_per_s"), bp.value(QStringLiteral("ok_per_s")).toDouble());
    rec.summary.insert(QStringLiteral("best_ops_per_s"), bp.value(QStringLiteral("ops_per_s")).toDouble());
    rec.summary.insert(
        serverAxis ? QStringLiteral("best_server_threads") : QStringLiteral("best_threads"), bp.value(x).toInt());
    rec.summary.insert(QStringLiteral("reference"),
        QJsonObject { { QStringLiteral("source"), guide("Table 2") },
            { QStringLiteral("note"),
                QStringLiteral("the guide's client threads vs ops/s: throughput rises until the server's "
                               "threads or CPUs are saturated, then flattens") } });
    return rec;
}

RunRecord runTlsCost(const TlsCostSpec& spec, RunContext& ctx)
{
    RunRecord rec = frame(QStringLiteral("tls-cost"),
        QJsonObject { { QStringLiteral("plain"), spec.plain.toJson() }, { QStringLiteral("tls"), spec.tls.toJson() },
            { QStringLiteral("seconds_each"), spec.secondsEach } });
    LdapLoadSpec plain = spec.plain;
    plain.mix = { { LdapOpKind::Bind, 100 } };
    plain.bindNewConnection = true;
    plain.durationSec = spec.secondsEach;
    LdapLoadSpec tls = plain;
    const QByteArray password = plain.target.password;
    tls.target = spec.tls;
    tls.target.password = password;
    ProbeError e;
    if (!CompiledLoad::compile(plain, &e) || !CompiledLoad::compile(tls, &e)) {
        rec.status = QStringLiteral("failed");
        rec.failure = e.message();
        return rec;
    }
    if (!tls.target.isTls()) {
        rec.status = QStringLiteral("failed");
        rec.failure = QStringLiteral("tls-uri: the TLS target must be ldaps:// or use StartTLS");
        return rec;
    }
    QElapsedTimer clock;
    clock.start();
    const RunRecord a = runPart(rec, plain, QStringLiteral("plain"), ctx, clock);
    ctx.setProgress(0.5);
    if (!keepGoing(rec, a, QStringLiteral("plain"), ctx))
        return rec;
    const RunRecord b = runPart(rec, tls, QStringLiteral("tls"), ctx, clock);
    ctx.setProgress(1.0);
    keepGoing(rec, b, QStringLiteral("tls"), ctx);
    const LoadSummary sa = LoadSummary::fromJson(a.summary), sb = LoadSummary::fromJson(b.summary);
    const double pa = sa.all.latencyMs.mean.value_or(0), pb = sb.all.latencyMs.mean.value_or(0);
    auto ratio = [](double over, double under) {
        return under > 0 ? QJsonValue(std::round(over / under * 1000.0) / 1000.0) : QJsonValue();
    };
    rec.summary.insert(QStringLiteral("points"),
        QJsonArray { point(QStringLiteral("tls"), 0, a), point(QStringLiteral("tls"), 1, b) });
    rec.summary.insert(QStringLiteral("plain_ms_per_bind"), pa);
    rec.summary.insert(QStringLiteral("tls_ms_per_bind"), pb);
    rec.summary.insert(QStringLiteral("tls_extra_ms"), std::round((pb - pa) * 1000.0) / 1000.0);
    rec.summary.insert(QStringLiteral("tls_ok_ratio"), ratio(sb.all.okPerS, sa.all.okPerS)); // successful binds
    rec.summary.insert(QStringLiteral("tls_ops_ratio"), ratio(sb.all.opsPerS, sa.all.opsPerS));
    rec.summary.insert(QStringLiteral("reference"),
        QJsonObject { { QStringLiteral("source"), guide("Table 7") },
            { QStringLiteral("note"),
                QStringLiteral("connect + bind per operation costs more over TLS; the server's key size "
                               "dominates the handshake (see the probe's key_bits)") } });
    return rec;
}

RunRecord runDatabaseSize(const DatabaseSizeSpec& spec, RunContext& ctx)
{
    RunRecord rec = frame(QStringLiteral("database-size"),
        QJsonObject { { QStringLiteral("entries"),
                          QJsonArray::fromVariantList(QVariantList(spec.entries.begin(), spec.entries.end())) },
            { QStringLiteral("load"), spec.load.toJson() },
            { QStringLiteral("seconds_per_point"), spec.secondsPerPoint } });
    if (SlapdSandbox::slapdProgram().isEmpty()) {
        rec.status = QStringLiteral("failed");
        rec.failure = QStringLiteral("slapd is not installed: the database-size experiment starts demo directories");
        return rec;
    }
    QElapsedTimer clock;
    clock.start();
    QJsonArray points;
    for (int i = 0; i < spec.entries.size(); ++i) {
        const int n = spec.entries.at(i);
        const QString series = QString::number(n) + QStringLiteral(" entries");
        ctx.setPhase(QStringLiteral("starting a demo directory with ") + series);
        SandboxOptions o;
        o.entries = n;
        o.makeCurrent = false;
        o.parentDir = spec.parentDir;
        ProbeError e;
        SandboxGuard sbx(SlapdSandbox::start(o, &e, &ctx));
        if (!sbx) {
            rec.status = ctx.stopRequested() ? QStringLiteral("cancelled") : QStringLiteral("failed");
            rec.failure = ctx.stopRequested() ? QString() : series + QStringLiteral(": ") + e.message();
            break;
        }
        LdapLoadSpec load = spec.load;
        load.target.uri = sbx->uri;
        load.target.auth = LdapTarget::Auth::Simple;
        load.target.bindDn = sbx->bindDn;
        QFile pw(sbx->passwordFile);
        load.target.password = pw.open(QIODevice::ReadOnly) ? pw.readAll().trimmed() : QByteArray();
        load.base = sbx->peopleBase;
        load.filter = QStringLiteral("(uid=user[0-") + QString::number(n - 1) + QStringLiteral("])");
        load.durationSec = spec.secondsPerPoint;
        const RunRecord r = runPart(rec, load, series, ctx, clock);
        points.append(point(QStringLiteral("entries"), n, r));
        ctx.setProgress(double(i + 1) / double(spec.entries.size()));
        if (!keepGoing(rec, r, series, ctx))
            break;
    }
    rec.summary.insert(QStringLiteral("points"), points);
    rec.summary.insert(QStringLiteral("reference"),
        QJsonObject { { QStringLiteral("source"), guide("Table 5") },
            { QStringLiteral("note"),
                QStringLiteral("the guide measured 100k and 500k entries, cached and uncached: a larger "
                               "database is slower once it no longer fits the cache") } });
    return rec;
}

} // namespace Experiments
