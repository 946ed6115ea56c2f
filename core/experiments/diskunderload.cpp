#include "core/experiments/diskunderload.h"

#include "core/common/environment.h"
#include "core/disk/diskengine.h"
#include "core/disk/diskresult.h"
#include "core/ldap/loadgenerator.h"
#include "core/run/runcontext.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QThread>

#include <cmath>
#include <thread>

namespace {

const QString kIdle = QStringLiteral("disk (idle)");
const QString kLoaded = QStringLiteral("disk (under load)");
const QString kLdap = QStringLiteral("ldap");

// Copies a part's intervals into the combined record, named and shifted onto the combined time axis.
void appendIntervals(RunRecord& into, const RunRecord& part, const QString& series, double offset)
{
    for (const auto& v : part.intervals) {
        QJsonObject o = v.toObject();
        const QString inner = o.value(QStringLiteral("series")).toString();
        o.insert(QStringLiteral("series"), inner.isEmpty() ? series : series + QStringLiteral(": ") + inner);
        o.insert(QStringLiteral("t"), std::round((o.value(QStringLiteral("t")).toDouble() + offset) * 1000.0) / 1000.0);
        into.intervals.append(o);
    }
    for (const auto& w : part.warnings)
        into.addWarning(w.code, series + QStringLiteral(": ") + w.message);
}

QJsonValue pctChange(const std::optional<double>& idle, const std::optional<double>& loaded)
{
    if (!idle || !loaded || *idle == 0)
        return QJsonValue::Null;
    return std::round((*loaded - *idle) / *idle * 1000.0) / 10.0;
}

// summary.change: the loaded test against the idle one, in %.
QJsonObject changeOf(const QJsonObject& idleSummary, const QJsonObject& loadedSummary)
{
    const DiskSummary idle = DiskSummary::fromJson(idleSummary), loaded = DiskSummary::fromJson(loadedSummary);
    return QJsonObject { { QStringLiteral("mb_per_s_pct"), pctChange(idle.mbPerS, loaded.mbPerS) },
        { QStringLiteral("iops_pct"), pctChange(idle.iops, loaded.iops) },
        { QStringLiteral("p99_pct"), pctChange(idle.latencyUs.p99, loaded.latencyUs.p99) } };
}

} // namespace

ProbeError DiskUnderLoadSpec::validate() const
{
    if (ProbeError e = disk.validate(); e.isError())
        return e;
    if (disk.profile == DiskProfile::Directory)
        return ProbeError::invalid(QStringLiteral("profile"),
            QStringLiteral("the directory suite cannot run under load; choose one of its tests"));
    ProbeError e;
    LdapLoadSpec l = load;
    l.durationSec = 1; // checked for form only: the load lasts as long as the loaded disk test
    if (!CompiledLoad::compile(l, &e))
        return e;
    if (leadSeconds < 0 || leadSeconds > 600)
        return ProbeError::invalid(QStringLiteral("lead"), QStringLiteral("must be between 0 and 600 seconds"));
    return {};
}

QJsonObject DiskUnderLoadSpec::toJson() const
{
    return QJsonObject { { QStringLiteral("disk"), disk.toJson() }, { QStringLiteral("load"), load.toJson() },
        { QStringLiteral("lead_s"), leadSeconds }, { QStringLiteral("baseline"), baseline } };
}

namespace Experiments {

RunRecord runDiskUnderLoad(const DiskUnderLoadSpec& spec, RunContext& ctx)
{
    RunRecord rec;
    rec.kind = QStringLiteral("disk-under-load");
    rec.started = QDateTime::currentDateTime();
    rec.spec = spec.toJson();
    rec.environment = Environment::collect(spec.disk.dir);
    if (const ProbeError e = spec.validate(); e.isError()) {
        rec.status = QStringLiteral("failed");
        rec.failure = e.message();
        return rec;
    }
    QElapsedTimer clock;
    clock.start();
    auto now = [&] { return double(clock.nsecsElapsed()) / 1e9; };

    // 1. The disk alone.
    RunRecord idle;
    double offset = 0;
    if (spec.baseline) {
        ctx.setPhase(QStringLiteral("disk test, idle"));
        RunContext part(&ctx, kIdle, 0);
        idle = Disk::run(spec.disk, part);
        appendIntervals(rec, idle, kIdle, 0);
        rec.engine = idle.engine;
        if (idle.status != u"ok") {
            rec.status = idle.status;
            rec.failure = idle.failure.isEmpty() ? QString() : kIdle + QStringLiteral(": ") + idle.failure;
            rec.summary.insert(QStringLiteral("disk_idle"), idle.summary);
            return rec;
        }
        offset = now() + 1.0; // a gap on the chart between the two disk runs
    }

    // 2. The load, alone for a moment, then the disk test again beside it.
    LdapLoadSpec load = spec.load;
    load.durationSec = 7 * 86400; // stopped when the loaded disk test ends
    load.warmupSec = 0;
    RunContext ldapCtx(&ctx, kLdap, offset);
    RunRecord ldap;
    ctx.setPhase(QStringLiteral("LDAP load"));
    std::thread loader([&] { ldap = Ldap::runLoad(load, ldapCtx); });
    const double loadStart = now();
    while (now() - loadStart < spec.leadSeconds && !ctx.stopRequested())
        QThread::msleep(20);
    RunRecord loaded;
    double diskOffset = offset + (now() - loadStart);
    if (!ctx.stopRequested()) {
        ctx.setPhase(QStringLiteral("disk test, under LDAP load"));
        RunContext part(&ctx, kLoaded, diskOffset);
        loaded = Disk::run(spec.disk, part);
    }
    ldapCtx.requestStop();
    loader.join();

    appendIntervals(rec, loaded, kLoaded, diskOffset);
    appendIntervals(rec, ldap, kLdap, offset);
    if (rec.engine.isNull())
        rec.engine = loaded.engine;
    rec.server = ldap.server;
    rec.summary.insert(
        QStringLiteral("disk_idle"), spec.baseline ? QJsonValue(idle.summary) : QJsonValue(QJsonValue::Null));
    rec.summary.insert(QStringLiteral("disk_loaded"), loaded.summary);
    rec.summary.insert(QStringLiteral("ldap"), ldap.summary);
    if (spec.baseline)
        rec.summary.insert(QStringLiteral("change"), changeOf(idle.summary, loaded.summary));
    rec.verdicts = loaded.verdicts;

    if (ctx.stopRequested()) {
        rec.status = QStringLiteral("cancelled");
    } else if (loaded.status != u"ok") {
        rec.status = loaded.status;
        rec.failure = kLoaded + QStringLiteral(": ") + loaded.failure;
    } else if (ldap.status == u"failed") {
        rec.status = QStringLiteral("failed");
        rec.failure = kLdap + QStringLiteral(": ") + ldap.failure;
    }
    ctx.setProgress(1.0);
    return rec;
}

} // namespace Experiments
