#include "core/disk/diskengine.h"

#include "core/common/environment.h"
#include "core/common/units.h"
#include "core/disk/blockdevices.h"
#include "core/disk/fscompression.h"
#include "core/disk/iobackends.h"
#include "core/disk/iometer.h"
#include "core/disk/requirements.h"
#include "core/disk/steadystate.h"
#include "core/disk/testfile.h"
#include "core/run/runcontext.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <fcntl.h>
#include <unistd.h>

namespace Disk {

namespace {

constexpr qint64 KiB = 1024;

struct Part
{
    QString name;
    DiskProfile profile = DiskProfile::SeqWrite;
    qint64 size = 0;
    qint64 block = 0;
    int qd = 1;
    double duration = 0;
    uint64_t maxOps = 0;
    bool direct = true;
    bool write = false;
    bool random = false;
    bool syncEach = false;
    bool prefill = false;
    bool preallocate = false; // reserve the file's blocks first (not timed), as fio does, so writes do not allocate
    bool finalSync = false; // dd: one fdatasync at the end, inside the timed span
    bool steady = false; // sustained: steady state evaluated (core/disk/steadystate.h), --until-steady applies
    bool unique = true; // writes carry unique data (else zeros)
    bool append = false; // commit --commit-append
    bool queued = true; // io_uring may keep the queue
};

// The part is what the profile's row in the table (core/disk/diskspec.cpp) says; the spec adds the sizes
// (unless the profile fixes them, as dd does), the data and the commit regime.
Part makePart(DiskProfile profile, const DiskSpec& s, qint64 size, qint64 block, int qd, double duration)
{
    const DiskProfileInfo& row = DiskSpec::profileInfo(profile);
    Part p;
    p.profile = profile;
    p.size = row.fixed ? row.size : size;
    p.block = row.fixed ? row.block : block;
    p.qd = row.fixed || DiskSpec::profileRefuses(profile).contains(u"qd") ? row.qd : qd;
    p.duration = row.fixed ? row.duration : duration;
    p.maxOps = row.maxOps;
    p.write = row.write;
    p.random = row.random;
    p.syncEach = row.syncEach;
    p.prefill = row.prefill;
    p.preallocate = row.preallocate;
    p.finalSync = row.finalSync;
    p.queued = row.queued;
    p.direct = !s.forceBuffered && !row.buffered;
    p.unique = s.dataFor(profile) == DiskData::Unique;
    p.name = QString::fromLatin1(row.name);
    if (p.random)
        p.name += QStringLiteral(" qd") + QString::number(p.qd);
    if (p.syncEach) {
        // --commit-append measures the other regime: an empty file that grows (the phase ends at --size).
        p.append = s.commitAppend;
        p.preallocate = p.preallocate && !p.append;
        p.prefill = p.prefill && !p.append;
    }
    return p;
}

QList<Part> partsFor(const DiskSpec& s)
{
    if (s.profile != DiskProfile::Directory) {
        Part p = makePart(s.profile, s, s.sizeBytes, s.blockBytes, s.queueDepth, s.durationSec);
        p.steady = p.profile != DiskProfile::Dd && (p.duration > 0 || s.untilSteadySec > 0);
        return { p };
    }
    const double part = s.suitePartSeconds;
    const qint64 commitSize = std::min<qint64>(s.sizeBytes, DiskSpec::profileInfo(DiskProfile::Commit).size);
    Part sustained = makePart(DiskProfile::SeqWrite, s, s.sizeBytes, 1024 * KiB, 8, s.suiteSustainedSeconds);
    sustained.steady = true;
    return {
        makePart(DiskProfile::RandRead, s, s.sizeBytes, 4 * KiB, 1, part),
        makePart(DiskProfile::RandRead, s, s.sizeBytes, 4 * KiB, 8, part),
        makePart(DiskProfile::Commit, s, commitSize, 4 * KiB, 1, part),
        sustained,
        makePart(DiskProfile::Dd, s, 0, 0, 1, 0),
    };
}

struct PartResult
{
    QJsonObject summary;
    ProbeError error;
    bool cancelled = false;
    QString engine;
    bool direct = false;
};

void flagPlausibility(const Part& p, const QJsonObject& summary, RunRecord& rec)
{
    const double mbps = summary.value(QStringLiteral("mb_per_s")).toDouble();
    const double iops = summary.value(QStringLiteral("iops")).toDouble();
    const double p50 = summary.value(QStringLiteral("latency_us")).toObject().value(QStringLiteral("p50")).toDouble();
    if (mbps > 14000)
        rec.addWarning(QStringLiteral("implausible"),
            p.name + QStringLiteral(": ") + Units::formatNumber(mbps)
                + QStringLiteral(" MB/s is above what any single disk delivers (PCIe 5.0 NVMe ≈ 14,000 MB/s): "
                                 "a cache, not the disk, answered"));
    else if (iops > 3000000)
        rec.addWarning(QStringLiteral("implausible"),
            p.name + QStringLiteral(": ") + Units::formatNumber(iops, 0)
                + QStringLiteral(" IOPS is above what a single disk delivers: a cache, not the disk, answered"));
    else if (p.syncEach && summary.value(QStringLiteral("ops")).toDouble() > 0 && p50 < 5.0)
        rec.addWarning(QStringLiteral("implausible"),
            QStringLiteral("commit: write + fdatasync took ") + Units::formatNumber(p50)
                + QStringLiteral(" µs at the median: nothing reaches stable storage (tmpfs, or a cache that "
                                 "ignores flushes)"));
}

PartResult runPart(const Part& p, const DiskSpec& spec, const QString& series, RunContext& ctx, RunRecord& rec,
    const ProgressFn& progress)
{
    PartResult res;
    ProbeError err;
    auto file = TestFile::create(spec.dir, p.direct, &err);
    if (!file) {
        res.error = err;
        return res;
    }
    res.direct = file->direct();
    if (file->directRefused())
        rec.addWarning(QStringLiteral("direct-refused"),
            QStringLiteral("the file system refused O_DIRECT; the test ran with buffered I/O and the page cache "
                           "may absorb it"));
    if (!res.direct && !p.syncEach) {
        rec.addWarning(QStringLiteral("buffered"),
            p.profile == DiskProfile::Dd
                ? QStringLiteral("dd: buffered writes with one fdatasync at the end, as the seed measured; the page "
                                 "cache takes the writes first, so the result is cache-sensitive")
                : QStringLiteral("buffered I/O: the page cache takes part in the result"));
        const qint64 ram = Environment::physicalRamBytes();
        if (ram > 0 && p.size < ram)
            rec.addWarning(QStringLiteral("size-below-ram"),
                QStringLiteral("the test file (") + Units::formatBytes(p.size)
                    + QStringLiteral(") is smaller than RAM (") + Units::formatBytes(ram)
                    + QStringLiteral("): the page cache can hold all of it"));
    }

    const uint64_t seed = uint64_t(::getpid()) ^ uint64_t(IoMeter::nowNs());
    if (p.preallocate) {
        // Not timed. Where the file system cannot (EOPNOTSUPP), the first pass allocates as it writes.
        const int rc = ::posix_fallocate(file->fd(), 0, off_t(p.size));
        if (rc != 0 && rc != EOPNOTSUPP && rc != EINVAL) {
            res.error = ProbeError::fromErrno(rc, QStringLiteral("reserving the test file's blocks"));
            return res;
        }
    }
    if (p.prefill) {
        ctx.setPhase(QStringLiteral("preparing ") + p.name);
        bool cancelled = false;
        res.error = prefill(
            file->fd(), p.size, p.unique, seed, ctx, [&](double f) { progress(0.3 * f); }, &cancelled);
        if (res.error.isError() || cancelled) {
            res.cancelled = cancelled;
            return res;
        }
        if (!res.direct)
            ::posix_fadvise(file->fd(), 0, 0, POSIX_FADV_DONTNEED);
    }

    ctx.setPhase(QStringLiteral("measuring ") + p.name);
    IoPlan plan;
    plan.fd = file->fd();
    plan.write = p.write;
    plan.random = p.random;
    plan.syncEachWrite = p.syncEach;
    plan.fileSize = p.size;
    plan.block = p.block;
    plan.queueDepth = p.qd;
    plan.durationSec = p.duration;
    plan.maxOps = p.maxOps;
    plan.uniqueData = p.unique;
    plan.append = p.append;
    plan.seed = seed;
    const double base = p.prefill ? 0.3 : 0.0;
    const ProgressFn measured = [&](double f) { progress(base + (1.0 - base) * f); };

    IoMeter meter(ctx, series, spec.intervalMs); // the backend begins it once its setup is done
    BlockDevices::Sampler devices(BlockDevices::stackUnder(spec.dir));
    meter.setDevices(&devices);
    const auto unit = p.random || p.syncEach ? Steady::Unit::Iops : Steady::Unit::MBps;
    const double cap = p.steady ? spec.untilSteadySec : 0;
    if (cap > 0) {
        plan.durationSec = cap;
        plan.enough = Steady::untilSteady(meter.intervals(), unit);
    }
    IoOutcome out;
    if (p.queued && spec.engine != IoEngineChoice::Threads) {
        QString refused;
        out = runIoUring(plan, meter, ctx, measured, &refused);
        if (out.engine.isEmpty()) {
            if (spec.engine == IoEngineChoice::IoUring) {
                res.error
                    = ProbeError::fromErrno(ENOSYS, QStringLiteral("io_uring was asked for but refused: ") + refused);
                return res;
            }
            rec.addWarning(QStringLiteral("io_uring-refused"),
                QStringLiteral("io_uring was refused (") + refused + QStringLiteral("); ") + QString::number(p.qd)
                    + QStringLiteral(" threads of pread/pwrite kept the queue depth instead"));
            out = runThreads(plan, meter, ctx, measured);
        }
    } else {
        out = runThreads(plan, meter, ctx, measured);
    }
    double beforeSync = -1;
    if (p.finalSync && !out.error.isError() && !out.cancelled) {
        ctx.setPhase(QStringLiteral("fdatasync ") + p.name);
        beforeSync = devices.bytesSinceStart(true);
        if (::fdatasync(file->fd()) != 0)
            out.error = ProbeError::fromErrno(errno, QStringLiteral("fdatasync of the test file"));
    }
    meter.end();
    res.summary = meter.summary();
    res.summary.insert(QStringLiteral("setup_s"), std::round(out.setupSec * 1e4) / 1e4); // not in `seconds`
    res.summary.insert(QStringLiteral("devices"), devices.total());
    if (p.finalSync)
        res.summary.insert(QStringLiteral("device_bytes_before_sync"), beforeSync < 0 ? QJsonValue() : beforeSync);
    if (p.syncEach)
        res.summary.insert(QStringLiteral("commits_per_s"), res.summary.value(QStringLiteral("iops")));
    if (p.steady)
        Steady::annotate(p.name, meter.intervals(), unit, spec.intervalMs, cap, !out.error.isError() && !out.cancelled,
            res.summary, rec);
    res.error = out.error;
    res.cancelled = out.cancelled;
    res.engine = out.engine;
    for (const auto& v : meter.intervals())
        rec.intervals.append(v);
    if (!res.error.isError() && !res.cancelled) {
        flagPlausibility(p, res.summary, rec);
        BlockDevices::crossCheck(p.name, p.write, res.summary.value(QStringLiteral("bytes")).toDouble(), devices, rec);
    }
    return res;
}

using Steady::median;

// The median of every numeric field (one level of nesting) over repeats.
QJsonObject medianSummary(const QList<QJsonObject>& runs)
{
    if (runs.size() == 1)
        return runs.first();
    QJsonObject out;
    const QJsonObject& first = runs.first();
    for (auto it = first.begin(); it != first.end(); ++it) {
        if (it.value().isDouble()) {
            QList<double> v;
            for (const auto& r : runs)
                v << r.value(it.key()).toDouble();
            out.insert(it.key(), median(v));
        } else if (it.value().isObject() && it.key() != u"latency_histogram_ns") {
            QJsonObject inner;
            const QJsonObject fo = it.value().toObject();
            for (auto jt = fo.begin(); jt != fo.end(); ++jt) {
                QList<double> v;
                for (const auto& r : runs)
                    v << r.value(it.key()).toObject().value(jt.key()).toDouble();
                inner.insert(jt.key(), median(v));
            }
            out.insert(it.key(), inner);
        }
    }
    return out;
}

QJsonObject spreadOf(const QList<QJsonObject>& runs, const QString& key, double* cvOut)
{
    QList<double> v;
    for (const auto& r : runs)
        v << r.value(key).toDouble();
    double mean = 0;
    for (double x : v)
        mean += x;
    mean /= double(v.size());
    double var = 0;
    for (double x : v)
        var += (x - mean) * (x - mean);
    const double cv = mean > 0 && v.size() > 1 ? std::sqrt(var / double(v.size() - 1)) / mean : 0;
    *cvOut = cv;
    return QJsonObject { { QStringLiteral("min"), *std::min_element(v.begin(), v.end()) },
        { QStringLiteral("median"), median(v) }, { QStringLiteral("max"), *std::max_element(v.begin(), v.end()) },
        { QStringLiteral("cv"), std::round(cv * 1000.0) / 1000.0 } };
}

} // namespace

RunRecord run(const DiskSpec& specIn, RunContext& ctx)
{
    RunRecord rec;
    rec.kind = QStringLiteral("disk");
    rec.started = QDateTime::currentDateTime();
    const DiskSpec spec = specIn.resolved();
    rec.spec = specIn.toJson();
    rec.environment = Environment::collect(spec.dir);
    BlockDevices::addToEnvironment(rec.environment, BlockDevices::stackUnder(spec.dir));

    if (const ProbeError bad = specIn.validate(); bad.isError()) {
        rec.status = QStringLiteral("failed");
        rec.failure = bad.message();
        return rec;
    }
    const QString fsType
        = rec.environment.value(QStringLiteral("filesystem")).toObject().value(QStringLiteral("type")).toString();
    if (fsType == u"tmpfs" || fsType == u"ramfs")
        rec.addWarning(QStringLiteral("tmpfs"),
            spec.dir + QStringLiteral(" is on ") + fsType + QStringLiteral(": this measures memory, not a disk"));
    else if (fsType == u"overlay")
        rec.addWarning(QStringLiteral("overlay"),
            spec.dir
                + QStringLiteral(" is on an overlay file system (a container layer): results describe the layer "
                                 "stack, not one disk"));
    else if (fsType == u"nfs" || fsType == u"cifs")
        rec.addWarning(QStringLiteral("network-fs"),
            spec.dir + QStringLiteral(" is on a network file system (") + fsType
                + QStringLiteral("): client caching and the network shape the results"));
    else if (fsType == u"fuse")
        rec.addWarning(QStringLiteral("fuse"),
            spec.dir + QStringLiteral(" is on a FUSE file system: a user-space daemon takes part in every I/O"));

    FsCompression::check(spec.dir, rec);

    const QList<Part> parts = partsFor(spec);
    const bool suite = spec.profile == DiskProfile::Directory;
    const int total = int(parts.size()) * spec.repeat;
    QHash<QString, QList<QJsonObject>> byPart;
    QJsonObject engines;
    QString mainEngine;
    bool mainDirect = false;
    int step = 0;
    bool stop = false;

    for (int r = 0; r < spec.repeat && !stop; ++r) {
        for (const Part& p : parts) {
            QString series;
            if (suite)
                series = spec.repeat > 1 ? p.name + QStringLiteral(" #") + QString::number(r + 1) : p.name;
            else if (spec.repeat > 1)
                series = QStringLiteral("repeat ") + QString::number(r + 1);
            const int thisStep = step++;
            const ProgressFn progress = [&ctx, thisStep, total](double f) {
                ctx.setProgress((double(thisStep) + std::clamp(f, 0.0, 1.0)) / double(total));
            };
            const PartResult res = runPart(p, spec, series, ctx, rec, progress);
            if (!res.summary.isEmpty()) {
                QJsonObject s = res.summary;
                if (res.error.isError() || res.cancelled)
                    s.insert(QStringLiteral("complete"), false);
                byPart[p.name].append(s);
            }
            if (!res.engine.isEmpty()) {
                engines.insert(p.name,
                    QJsonObject { { QStringLiteral("io"), res.engine }, { QStringLiteral("direct"), res.direct } });
                if (mainEngine.isEmpty() || (p.profile != DiskProfile::Dd && p.profile != DiskProfile::Commit)) {
                    mainEngine = res.engine;
                    mainDirect = res.direct;
                }
            }
            if (res.error.isError()) {
                rec.status = QStringLiteral("failed");
                rec.failure = p.name + QStringLiteral(": ") + res.error.message();
                stop = true;
                break;
            }
            if (res.cancelled || ctx.stopRequested()) {
                rec.status = QStringLiteral("cancelled");
                stop = true;
                break;
            }
        }
    }
    ctx.setProgress(1.0);

    QJsonObject engine { { QStringLiteral("io"),
                             mainEngine.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(mainEngine) },
        { QStringLiteral("direct"), mainDirect } };
    if (suite)
        engine.insert(QStringLiteral("parts"), engines);
    rec.engine = engine;

    QJsonObject tests;
    for (const Part& p : parts) {
        const auto runs = byPart.value(p.name);
        if (runs.isEmpty())
            continue;
        QJsonObject s = medianSummary(runs);
        if (runs.size() > 1) {
            QJsonArray reps;
            for (const auto& x : runs)
                reps.append(x);
            s.insert(QStringLiteral("repeats"), reps);
            if (runs.first().contains(QStringLiteral("steady_state")))
                s.insert(QStringLiteral("steady_state"), Steady::mergeRepeats(runs));
            double cvMb = 0, cvIops = 0;
            s.insert(QStringLiteral("spread"),
                QJsonObject { { QStringLiteral("mb_per_s"), spreadOf(runs, QStringLiteral("mb_per_s"), &cvMb) },
                    { QStringLiteral("iops"), spreadOf(runs, QStringLiteral("iops"), &cvIops) } });
            if (std::max(cvMb, cvIops) > 0.2)
                rec.addWarning(QStringLiteral("spread"),
                    p.name + QStringLiteral(": repeats differ by more than 20 % (coefficient of variation ")
                        + Units::formatNumber(std::max(cvMb, cvIops) * 100.0)
                        + QStringLiteral(" %); one run says little"));
        }
        tests.insert(p.name, s);
    }
    if (suite) {
        rec.summary.insert(QStringLiteral("tests"), tests);
    } else if (!tests.isEmpty()) {
        rec.summary = tests.begin().value().toObject();
        rec.summary.insert(QStringLiteral("test"), tests.begin().key());
    }

    if (rec.status == u"ok") {
        QString err;
        const auto profiles = Requirements::load(&err);
        if (!err.isEmpty())
            rec.addWarning(QStringLiteral("requirements"), err);
        rec.verdicts = Requirements::evaluate(profiles, tests, rec, spec.requirementProfile);
    }
    return rec;
}

} // namespace Disk
