#include "core/disk/diskengine.h"

#include "core/common/environment.h"
#include "core/common/units.h"
#include "core/disk/blockdevices.h"
#include "core/disk/diskrepeats.h"
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
    std::optional<DiskSummary> summary;
    ProbeError error;
    bool cancelled = false;
    QString engine;
    bool direct = false;
};

void flagPlausibility(const Part& p, const DiskSummary& summary, RunRecord& rec)
{
    const double mbps = summary.mbPerS.value_or(0);
    const double iops = summary.iops.value_or(0);
    const double p50 = summary.latencyUs.p50.value_or(0);
    if (mbps > 14000)
        rec.addWarning(QStringLiteral("implausible"),
            p.name + QStringLiteral(": ") + Units::formatNumber(mbps)
                + QStringLiteral(" MB/s is above what any single disk delivers (PCIe 5.0 NVMe ≈ 14,000 MB/s): "
                                 "a cache, not the disk, answered"));
    else if (iops > 3000000)
        rec.addWarning(QStringLiteral("implausible"),
            p.name + QStringLiteral(": ") + Units::formatNumber(iops, 0)
                + QStringLiteral(" IOPS is above what a single disk delivers: a cache, not the disk, answered"));
    else if (p.syncEach && summary.ops.value_or(0) > 0 && p50 < 5.0)
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
    DiskSummary sum = meter.summary();
    sum.setupS = std::round(out.setupSec * 1e4) / 1e4; // not in `seconds`
    sum.devices = devices.total();
    sum.hasDeviceBytesBeforeSync = p.finalSync;
    if (p.finalSync && beforeSync >= 0)
        sum.deviceBytesBeforeSync = beforeSync;
    if (p.syncEach)
        sum.commitsPerS = sum.iops;
    if (p.steady)
        Steady::annotate(
            p.name, meter.intervals(), unit, spec.intervalMs, cap, !out.error.isError() && !out.cancelled, sum, rec);
    res.error = out.error;
    res.cancelled = out.cancelled;
    res.engine = out.engine;
    for (const DiskInterval& v : meter.intervals())
        rec.intervals.append(v.toJson()); // the record's edge
    if (!res.error.isError() && !res.cancelled) {
        flagPlausibility(p, sum, rec);
        BlockDevices::crossCheck(p.name, p.write, sum.bytes.value_or(0), devices, rec);
    }
    res.summary = sum;
    return res;
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
    QHash<QString, QList<DiskSummary>> byPart;
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
            if (res.summary) {
                DiskSummary s = *res.summary;
                s.complete = !res.error.isError() && !res.cancelled;
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

    DiskSummary summary;
    summary.suite = suite;
    for (const Part& p : parts) {
        const auto runs = byPart.value(p.name);
        if (runs.isEmpty())
            continue;
        DiskSummary s = mergeRepeats(p.name, runs, rec);
        s.test = p.name;
        if (suite)
            summary.tests.push_back(s);
        else
            summary = s;
    }
    if (rec.status == u"ok") {
        QString err;
        const auto profiles = Requirements::load(&err);
        if (!err.isEmpty())
            rec.addWarning(QStringLiteral("requirements"), err);
        rec.verdicts = Requirements::evaluate(profiles, summary, rec, spec.requirementProfile);
    }
    if (suite || summary.hasRates())
        rec.summary = summary.toJson(); // the record's edge
    return rec;
}

} // namespace Disk
