#include "core/disk/diskspec.h"

#include "core/common/environment.h"
#include "core/common/units.h"
#include "core/disk/steadystate.h"

#include <QFileInfo>

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace {

using ProfileInfo = DiskProfileInfo;

constexpr qint64 KiB = 1024;
constexpr qint64 MiB = 1024 * KiB;
constexpr qint64 GiB = 1024 * MiB;
constexpr uint64_t kDdWrites = 8192; // dd bs=64k count=8k
constexpr qint64 kDdBlock = 64 * KiB;

// clang-format off
const ProfileInfo kProfiles[] = {
    { DiskProfile::Dd, "dd",
        "The eDirectory article's command: 8192 buffered writes of 64 KiB, one fdatasync at the end (cache-sensitive)",
        "the eDirectory article's exact command: 8192 buffered writes of 64 KiB zeros, one fdatasync at the end; MB/s = 10^6 "
        "bytes/s as dd prints it.", "",
        qint64(kDdWrites) * kDdBlock, kDdBlock, 1, 0, kDdWrites,
        /*write*/ true, /*random*/ false, /*syncEach*/ false, /*prefill*/ false, /*preallocate*/ false,
        /*finalSync*/ true, /*buffered*/ true, /*queued*/ false, /*fixed*/ true,
        "size block qd duration engine buffered interval commit-append",
        "the dd profile is the eDirectory article's fixed test (8192 buffered writes of 64 KiB, one fdatasync); it takes only "
        "--dir, --repeat, --data, the verdict and the output options" },
    { DiskProfile::SeqWrite, "seq-write", "Sequential write, O_DIRECT, 1 MiB blocks, queue depth 8",
        "sequential write, O_DIRECT, the file's blocks reserved first", "",
        1 * GiB, 1 * MiB, 8, 0, 0,
        true, false, false, false, true, false, false, true, false, "", "" },
    { DiskProfile::SeqRead, "seq-read", "Sequential read, O_DIRECT, 1 MiB blocks, queue depth 8",
        "sequential read, O_DIRECT, file written first", "",
        1 * GiB, 1 * MiB, 8, 0, 0,
        false, false, false, true, false, false, false, true, false, "", "" },
    { DiskProfile::RandRead, "rand-read", "Random 4 KiB reads, O_DIRECT, queue depth 32 (searches that miss the cache)",
        "random reads, O_DIRECT, file written first", "",
        1 * GiB, 4 * KiB, 32, 20, 0,
        false, true, false, true, false, false, false, true, false, "", "" },
    { DiskProfile::RandWrite, "rand-write", "Random 4 KiB writes, O_DIRECT, queue depth 32",
        "random writes, O_DIRECT, file written first", "",
        1 * GiB, 4 * KiB, 32, 20, 0,
        true, true, false, true, false, false, false, true, false, "", "" },
    { DiskProfile::Commit, "commit", "4 KiB write + fdatasync each, like a directory's transaction log",
        "4 KiB write + fdatasync each, like a transaction log, one write in flight, through the page cache",
        "the file is reserved and written first (not timed), so every commit overwrites; --commit-append starts "
        "on an empty file instead and ends when it reaches --size. spec.commit_regime says which.",
        64 * MiB, 4 * KiB, 1, 10, 0,
        true, false, true, true, true, false, true, false, false, "qd buffered",
        "commit has one write in flight, through the page cache, then fdatasync (as a transaction log does)" },
    { DiskProfile::Directory, "directory",
        "Suite for a directory server: rand-read QD1 and QD8, commit, sustained seq-write, dd; with verdicts",
        "suite: rand-read QD1 and QD8, commit, sustained seq-write, dd; verdicts against the requirement profiles",
        "--duration sets the sustained write; the other parts take min(10 s, duration).",
        1 * GiB, 4 * KiB, 1, 30, 0,
        false, false, false, false, false, false, false, false, false, "block qd",
        "the directory suite's tests have their own block sizes and queue depths (4 KiB at QD1 and QD8, 4 KiB "
        "commits, 1 MiB at QD8)" },
};
// clang-format on

// 1G, 64M, 4K: the CLI's size syntax.
QString shortSize(qint64 v)
{
    const std::pair<qint64, char> units[] = { { GiB, 'G' }, { MiB, 'M' }, { KiB, 'K' } };
    for (const auto& [unit, suffix] : units)
        if (v >= unit && v % unit == 0)
            return QString::number(v / unit) + QLatin1Char(suffix);
    return QString::number(v);
}

QString defaultsOf(const ProfileInfo& i)
{
    if (i.fixed)
        return {};
    const QStringList refused = QString::fromLatin1(i.refuses).split(u' ', Qt::SkipEmptyParts);
    QStringList d { QStringLiteral("size ") + shortSize(i.size) };
    if (!refused.contains(u"block"))
        d << QStringLiteral("block ") + shortSize(i.block);
    if (!refused.contains(u"qd"))
        d << QStringLiteral("qd ") + QString::number(i.qd);
    d << (i.duration > 0 ? QStringLiteral("duration ") + QString::number(i.duration) + QStringLiteral(" s")
                         : QStringLiteral("one pass"));
    return QStringLiteral("[") + d.join(QStringLiteral(", ")) + QStringLiteral("]");
}

QString takesNo(const QStringList& refused)
{
    if (refused.isEmpty())
        return {};
    QStringList opts;
    for (const auto& r : refused)
        opts << QStringLiteral("--") + r;
    const QString last = opts.takeLast();
    const QString list = opts.isEmpty() ? last : opts.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
    return QStringLiteral("Takes no ") + list + u'.';
}

// Words after a 14-column indent, lines of at most 110 columns.
QString wrapped(const QString& name, const QString& text)
{
    QString out = QStringLiteral("  ") + name.leftJustified(12, u' ');
    qsizetype col = out.size();
    bool first = true;
    for (const auto& w : text.split(u' ', Qt::SkipEmptyParts)) {
        if (!first && col + 1 + w.size() > 110) {
            out += u'\n' + QString(14, u' ');
            col = 14;
        } else if (!first) {
            out += u' ';
            ++col;
        }
        out += w;
        col += w.size();
        first = false;
    }
    return out + u'\n';
}

const ProfileInfo& info(DiskProfile p)
{
    for (const auto& i : kProfiles)
        if (i.profile == p)
            return i;
    return kProfiles[0];
}

} // namespace

QString DiskSpec::profileName(DiskProfile p)
{
    return QString::fromLatin1(info(p).name);
}

QString DiskSpec::profileDescription(DiskProfile p)
{
    return QString::fromUtf8(info(p).description);
}

const DiskProfileInfo& DiskSpec::profileInfo(DiskProfile p)
{
    return info(p);
}

QStringList DiskSpec::profileRefuses(DiskProfile p)
{
    return QString::fromLatin1(info(p).refuses).split(u' ', Qt::SkipEmptyParts);
}

QString DiskSpec::profileRefusesWhy(DiskProfile p)
{
    return QString::fromUtf8(info(p).refusesWhy);
}

QString DiskSpec::profileHelp()
{
    QString out = QStringLiteral("Profiles (defaults in brackets):\n");
    for (const auto& i : kProfiles) {
        QString text = QString::fromUtf8(i.help);
        if (const QString d = defaultsOf(i); !d.isEmpty())
            text += u' ' + d + (*i.helpTail ? QStringLiteral(";") : QString());
        if (*i.helpTail)
            text += u' ' + QString::fromUtf8(i.helpTail);
        if (const QString t = takesNo(profileRefuses(i.profile)); !t.isEmpty())
            text += u' ' + t;
        out += wrapped(QString::fromLatin1(i.name), text);
    }
    return out;
}

std::optional<DiskProfile> DiskSpec::profileFromName(const QString& name)
{
    for (const auto& i : kProfiles)
        if (name == QLatin1String(i.name))
            return i.profile;
    return std::nullopt;
}

QStringList DiskSpec::profileNames()
{
    QStringList out;
    for (const auto& i : kProfiles)
        out << QString::fromLatin1(i.name);
    return out;
}

QString DiskSpec::engineName(IoEngineChoice e)
{
    switch (e) {
    case IoEngineChoice::IoUring:
        return QStringLiteral("io_uring");
    case IoEngineChoice::Threads:
        return QStringLiteral("threads");
    case IoEngineChoice::Auto:
        break;
    }
    return QStringLiteral("auto");
}

QString DiskSpec::dataName(DiskData d)
{
    switch (d) {
    case DiskData::Unique:
        return QStringLiteral("unique");
    case DiskData::Zeros:
        return QStringLiteral("zeros");
    case DiskData::Default:
        break;
    }
    return QStringLiteral("default");
}

std::optional<DiskData> DiskSpec::dataFromName(const QString& name)
{
    if (name == u"unique" || name == u"random")
        return DiskData::Unique;
    if (name == u"zeros")
        return DiskData::Zeros;
    return std::nullopt;
}

DiskData DiskSpec::dataFor(DiskProfile p) const
{
    if (data != DiskData::Default)
        return data;
    return p == DiskProfile::Dd ? DiskData::Zeros : DiskData::Unique;
}

DiskSpec DiskSpec::resolved() const
{
    DiskSpec s = *this;
    const ProfileInfo& i = info(profile);
    if (s.sizeBytes == 0)
        s.sizeBytes = i.size;
    if (s.blockBytes == 0)
        s.blockBytes = i.block;
    if (s.queueDepth == 0)
        s.queueDepth = i.qd;
    if (s.durationSec < 0)
        s.durationSec = i.duration;
    if (profile == DiskProfile::Directory) {
        // --duration sets the sustained write; the short parts take at most 10 s each.
        s.suiteSustainedSeconds = s.durationSec;
        s.suitePartSeconds = std::min(s.suitePartSeconds, s.durationSec);
    }
    if (profile == DiskProfile::Dd)
        s.forceBuffered = true;
    return s;
}

ProbeError DiskSpec::validateValues() const
{
    const DiskSpec r = resolved();
    if (profile == DiskProfile::Dd) {
        const QString why
            = QStringLiteral("the dd profile is the eDirectory article's fixed test; it takes only %1, %2 and %3")
                  .arg(ProbeError::ref(QStringLiteral("dir")), ProbeError::ref(QStringLiteral("repeat")),
                      ProbeError::ref(QStringLiteral("data")));
        if (commitAppend)
            return ProbeError::invalid(QStringLiteral("commit-append"), why);
        if (sizeBytes)
            return ProbeError::invalid(QStringLiteral("size"), why);
        if (blockBytes)
            return ProbeError::invalid(QStringLiteral("block"), why);
        if (queueDepth)
            return ProbeError::invalid(QStringLiteral("qd"), why);
        if (durationSec >= 0)
            return ProbeError::invalid(QStringLiteral("duration"), why);
        if (engine != IoEngineChoice::Auto)
            return ProbeError::invalid(QStringLiteral("engine"), why);
    }
    if (commitAppend && profile != DiskProfile::Commit && profile != DiskProfile::Directory)
        return ProbeError::invalid(
            QStringLiteral("commit-append"), QStringLiteral("only for the commit profile and the directory suite"));
    if (dir.isEmpty())
        return ProbeError::invalid(QStringLiteral("dir"), QStringLiteral("no directory given"));
    if (r.blockBytes < 512 || r.blockBytes > 64 * MiB)
        return ProbeError::invalid(QStringLiteral("block"), QStringLiteral("must be between 512 bytes and 64 MiB"));
    if (!r.forceBuffered && r.blockBytes % 4096 != 0)
        return ProbeError::invalid(QStringLiteral("block"),
            QStringLiteral("direct I/O needs a multiple of 4 KiB (or buffered I/O: %1)")
                .arg(ProbeError::ref(QStringLiteral("buffered"))));
    if (r.sizeBytes < r.blockBytes && profile != DiskProfile::Directory)
        return ProbeError::invalid(QStringLiteral("size"),
            Units::formatBytes(r.sizeBytes) + QStringLiteral(" is smaller than the block size ")
                + Units::formatBytes(r.blockBytes));
    if (profile != DiskProfile::Directory && r.sizeBytes % r.blockBytes != 0)
        return ProbeError::invalid(QStringLiteral("size"), QStringLiteral("must be a multiple of the block size"));
    if (r.sizeBytes < 1 * MiB && profile == DiskProfile::Directory)
        return ProbeError::invalid(QStringLiteral("size"), QStringLiteral("the suite needs at least 1 MiB"));
    if (r.queueDepth < 1 || r.queueDepth > 1024)
        if (profile != DiskProfile::Directory)
            return ProbeError::invalid(QStringLiteral("qd"), QStringLiteral("must be between 1 and 1024"));
    if (r.durationSec < 0 || r.durationSec > 86400)
        return ProbeError::invalid(QStringLiteral("duration"), QStringLiteral("must be between 0 and 86400 seconds"));
    if (profile == DiskProfile::Directory && r.durationSec <= 0)
        return ProbeError::invalid(QStringLiteral("duration"), QStringLiteral("the suite needs a duration > 0"));
    if (repeat < 1 || repeat > 100)
        return ProbeError::invalid(QStringLiteral("repeat"), QStringLiteral("must be between 1 and 100"));
    if (intervalMs < 50 || intervalMs > 60000)
        return ProbeError::invalid(QStringLiteral("interval"), QStringLiteral("must be between 0.05 and 60 seconds"));
    if (ProbeError e = Steady::validate(*this); e.isError())
        return e;
    return {};
}

ProbeError DiskSpec::validate() const
{
    if (ProbeError e = validateValues(); e.isError())
        return e;
    const QByteArray path = dir.toLocal8Bit();
    struct stat st
    {
    };
    if (::stat(path.constData(), &st) != 0)
        return ProbeError::invalid(QStringLiteral("dir"), dir + QStringLiteral(" does not exist"));
    if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))
        return ProbeError::invalid(QStringLiteral("dir"),
            dir + QStringLiteral(" is a device; DirBench tests a file system through a directory, never a raw device"));
    if (!S_ISDIR(st.st_mode))
        return ProbeError::invalid(QStringLiteral("dir"), dir + QStringLiteral(" is not a directory"));
    struct statvfs vfs
    {
    };
    if (::statvfs(path.constData(), &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
        return ProbeError::invalid(QStringLiteral("dir"), dir + QStringLiteral(" is on a read-only file system"));
    if (::access(path.constData(), W_OK | X_OK) != 0)
        return ProbeError::invalid(QStringLiteral("dir"), QStringLiteral("no permission to create files in ") + dir);

    const DiskSpec r = resolved();
    const auto fs = Environment::fileSystemOf(dir);
    const qint64 need = r.sizeBytes + r.sizeBytes / 10;
    if (fs.ok && fs.freeBytes < need)
        return ProbeError::invalid(QStringLiteral("size"),
            QStringLiteral("needs ") + Units::formatBytes(need) + QStringLiteral(" free (size + 10 %), ") + dir
                + QStringLiteral(" has ") + Units::formatBytes(fs.freeBytes));
    return {};
}

QJsonObject DiskSpec::toJson() const
{
    const DiskSpec r = resolved();
    QJsonObject o;
    o.insert(QStringLiteral("profile"), profileName(profile));
    o.insert(QStringLiteral("dir"), dir);
    o.insert(QStringLiteral("size_bytes"), double(r.sizeBytes));
    if (profile != DiskProfile::Directory) {
        o.insert(QStringLiteral("block_bytes"), double(r.blockBytes));
        o.insert(QStringLiteral("queue_depth"), r.queueDepth);
    }
    o.insert(QStringLiteral("duration_s"), r.durationSec);
    o.insert(QStringLiteral("repeat"), repeat);
    o.insert(QStringLiteral("data"), dataName(dataFor(profile)));
    if (profile == DiskProfile::Directory)
        o.insert(QStringLiteral("dd_data"), dataName(dataFor(DiskProfile::Dd)));
    if (profile == DiskProfile::Commit || profile == DiskProfile::Directory)
        o.insert(QStringLiteral("commit_regime"), commitRegime());
    o.insert(QStringLiteral("engine"), engineName(engine));
    o.insert(QStringLiteral("buffered"), r.forceBuffered);
    o.insert(QStringLiteral("interval_s"), intervalMs / 1000.0);
    if (profile == DiskProfile::Directory) {
        o.insert(QStringLiteral("suite_part_s"), r.suitePartSeconds);
        o.insert(QStringLiteral("suite_sustained_s"), r.suiteSustainedSeconds);
    }
    if (!requirementProfile.isEmpty())
        o.insert(QStringLiteral("requirements"), requirementProfile);
    if (untilSteadySec > 0)
        o.insert(QStringLiteral("until_steady_s"), untilSteadySec);
    return o;
}
