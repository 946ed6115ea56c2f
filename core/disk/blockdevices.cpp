#include "core/disk/blockdevices.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace BlockDevices {

namespace {

constexpr int kMaxDepth = 8;

QString firstLine(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLocal8Bit(f.readLine()).trimmed();
}

QString sysBlock(const QString& name)
{
    return QStringLiteral("/sys/class/block/") + name; // disks and partitions alike
}

// A canonical /sys/devices/.../block/DISK[/PART] path -> the whole disk's name.
QString diskOfSysPath(const QString& canon)
{
    if (canon.isEmpty())
        return {};
    if (QFileInfo::exists(canon + QStringLiteral("/partition")))
        return canon.section(u'/', -2, -2);
    return canon.section(u'/', -1);
}

QString diskOfName(const QString& name)
{
    return diskOfSysPath(QFileInfo(QStringLiteral("/sys/class/block/") + name).canonicalFilePath());
}

// The block device of a device number (a partition stays a partition).
QString nameOfDev(dev_t dev)
{
    const QString link = QStringLiteral("/sys/dev/block/%1:%2").arg(major(dev)).arg(minor(dev));
    return QFileInfo(link).canonicalFilePath().section(u'/', -1);
}

bool isPartition(const QString& name)
{
    return QFileInfo::exists(sysBlock(name) + QStringLiteral("/partition"));
}

// btrfs gives every subvolume an anonymous st_dev: its devices are the mount source and, for a file system over
// several devices, /sys/fs/btrfs/FSID/devices.
QStringList btrfsDevices(const QString& source)
{
    const QDir root(QStringLiteral("/sys/fs/btrfs"));
    for (const QString& fsid : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QStringList devs = QDir(root.filePath(fsid + QStringLiteral("/devices")))
                               .entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
        if (devs.contains(source))
            return devs;
    }
    return { source };
}

QStringList topDevices(const QString& path)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) == 0)
        if (const QString d = nameOfDev(st.st_dev); !d.isEmpty())
            return { d };
    const Mount m = mountOf(path);
    if (!m.ok || !m.source.startsWith(u"/dev/"))
        return {};
    struct stat src
    {
    };
    if (::stat(QFile::encodeName(m.source).constData(), &src) != 0 || !S_ISBLK(src.st_mode))
        return {};
    const QString d = nameOfDev(src.st_rdev);
    if (d.isEmpty())
        return {};
    return m.fsType == u"btrfs" ? btrfsDevices(d) : QStringList { d };
}

QStringList disksUnderAt(const QString& path, int depth);

void expand(const QString& name, int depth, QStringList& out)
{
    const QStringList slaves = QDir(sysBlock(name) + QStringLiteral("/slaves"))
                                   .entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
    if (depth < kMaxDepth && !slaves.isEmpty()) {
        for (const QString& s : slaves)
            expand(diskOfName(s), depth + 1, out);
        return;
    }
    QStringList backing;
    if (depth < kMaxDepth && name.startsWith(u"loop")) {
        QString file = firstLine(sysBlock(name) + QStringLiteral("/loop/backing_file"));
        if (!file.isEmpty() && QFileInfo::exists(file))
            backing = disksUnderAt(file, depth + 1);
    }
    for (const QString& b : backing.isEmpty() ? QStringList { name } : backing)
        if (!b.isEmpty() && !out.contains(b))
            out << b;
}

QStringList disksUnderAt(const QString& path, int depth)
{
    QStringList out;
    for (const QString& d : topDevices(path))
        expand(diskOfName(d), depth, out);
    return out;
}

QJsonValue maybe(const QString& s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

QString activeScheduler(const QString& line)
{
    const int a = line.indexOf(u'['), b = line.indexOf(u']');
    return a >= 0 && b > a ? line.mid(a + 1, b - a - 1) : line;
}

} // namespace

Mount mountOf(const QString& path)
{
    Mount best;
    QFile f(QStringLiteral("/proc/self/mountinfo"));
    if (!f.open(QIODevice::ReadOnly))
        return best;
    const QString canon = QFileInfo(path).canonicalFilePath();
    if (canon.isEmpty())
        return best;
    for (const QByteArray& line : f.readAll().split('\n')) {
        const QList<QByteArray> parts = line.split(' ');
        const auto dash = parts.indexOf("-");
        if (parts.size() < 10 || dash < 6 || dash + 3 >= parts.size())
            continue;
        const QString mp = QString::fromLocal8Bit(parts.at(4)).replace(QStringLiteral("\\040"), QStringLiteral(" "));
        const bool prefix = canon == mp || mp == u"/" || canon.startsWith(mp + u'/');
        if (!prefix || mp.size() < best.mountPoint.size())
            continue;
        best.mountPoint = mp;
        best.fsType = QString::fromLocal8Bit(parts.at(dash + 1));
        best.source = QString::fromLocal8Bit(parts.at(dash + 2));
        best.options
            = QString::fromLocal8Bit(parts.at(5)).split(u',') + QString::fromLocal8Bit(parts.at(dash + 3)).split(u',');
        best.ok = true;
    }
    return best;
}

QStringList disksUnder(const QString& path)
{
    return disksUnderAt(path, 0);
}

QList<Device> stackUnder(const QString& path)
{
    const QStringList tops = topDevices(path);
    const QStringList disks = disksUnder(path);
    // A partition or a loop device carries this file system's I/O alone; a dm or md device may compress, dedupe
    // or mirror below itself, so only its member disks say what reached storage.
    bool alone = !tops.isEmpty();
    for (const QString& t : tops)
        alone = alone && (isPartition(t) || t.startsWith(u"loop"));
    QList<Device> out;
    for (const QString& t : tops)
        if (!disks.contains(t))
            out.append({ t, QStringLiteral("filesystem"), alone });
    for (const QString& d : disks)
        out.append({ d, QStringLiteral("disk"), !alone || tops.contains(d) });
    return out;
}

Counters read(const QString& name)
{
    Counters c;
    const QStringList f = firstLine(sysBlock(name) + QStringLiteral("/stat")).split(u' ', Qt::SkipEmptyParts);
    if (f.size() < 11)
        return c;
    uint64_t* field[] = { &c.readIos, &c.readMerges, &c.readSectors, &c.readMs, &c.writeIos, &c.writeMerges,
        &c.writeSectors, &c.writeMs, nullptr, &c.busyMs };
    bool all = true;
    for (int i = 0; i < 10; ++i) {
        bool ok = false;
        const uint64_t v = f.at(i).toULongLong(&ok);
        all = all && ok;
        if (field[i])
            *field[i] = v;
    }
    c.ok = all;
    return c;
}

DiskDeviceFigures delta(const QString& name, const Counters& a, const Counters& b)
{
    const bool ok = a.ok && b.ok;
    const auto d = [ok](uint64_t x, uint64_t y, double scale = 1.0) {
        return ok && y >= x ? std::optional<double>(double(y - x) * scale) : std::nullopt;
    };
    DiskDeviceFigures f;
    f.name = name;
    f.readIos = d(a.readIos, b.readIos);
    f.writeIos = d(a.writeIos, b.writeIos);
    f.readBytes = d(a.readSectors, b.readSectors, 512.0);
    f.writeBytes = d(a.writeSectors, b.writeSectors, 512.0);
    f.readMerges = d(a.readMerges, b.readMerges);
    f.writeMerges = d(a.writeMerges, b.writeMerges);
    f.ioMs = d(a.readMs + a.writeMs, b.readMs + b.writeMs);
    f.busyMs = d(a.busyMs, b.busyMs);
    return f;
}

QJsonObject describe(const QString& name)
{
    const QString q = sysBlock(name) + QStringLiteral("/queue/");
    const QString rot = firstLine(q + QStringLiteral("rotational"));
    const QString sched = firstLine(q + QStringLiteral("scheduler"));
    return QJsonObject { { QStringLiteral("name"), name },
        { QStringLiteral("model"), maybe(firstLine(sysBlock(name) + QStringLiteral("/device/model"))) },
        { QStringLiteral("rotational"), rot.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(rot == u"1") },
        { QStringLiteral("scheduler"), maybe(sched.isEmpty() ? sched : activeScheduler(sched)) },
        { QStringLiteral("write_cache"), maybe(firstLine(q + QStringLiteral("write_cache"))) } };
}

Sampler::Sampler(QList<Device> devices)
    : m_devices(std::move(devices))
{ }

QList<Counters> Sampler::readAll() const
{
    QList<Counters> out;
    for (const Device& d : m_devices)
        out << read(d.name);
    return out;
}

DiskDeviceFigures Sampler::entry(qsizetype i, const Counters& a, const Counters& b) const
{
    const Device& d = m_devices.at(i);
    DiskDeviceFigures f = delta(d.name, a, b);
    f.layer = d.layer;
    f.witness = d.witness;
    return f;
}

void Sampler::start()
{
    m_start = m_last = readAll();
}

DiskDevices Sampler::next()
{
    const QList<Counters> now = readAll();
    DiskDevices out;
    for (qsizetype i = 0; i < m_devices.size() && i < m_last.size(); ++i)
        out.append(entry(i, m_last.at(i), now.at(i)));
    m_last = now;
    return out;
}

DiskDevices Sampler::total() const
{
    DiskDevices out;
    for (qsizetype i = 0; i < m_devices.size() && i < m_start.size(); ++i)
        out.append(entry(i, m_start.at(i), m_last.at(i)));
    return out;
}

double Sampler::bytesSinceStart(bool write) const
{
    const QList<Counters> now = readAll();
    if (m_devices.isEmpty() || m_start.size() != now.size())
        return -1;
    double bytes = 0;
    for (qsizetype i = 0; i < now.size(); ++i) {
        if (!m_devices.at(i).witness)
            continue;
        const Counters &a = m_start.at(i), &b = now.at(i);
        if (!a.ok || !b.ok || b.writeSectors < a.writeSectors || b.readSectors < a.readSectors)
            return -1; // unreadable, or the counters were reset
        bytes += 512.0 * double(write ? b.writeSectors - a.writeSectors : b.readSectors - a.readSectors);
    }
    return bytes;
}

// Bytes the device moved the other way (a read test's writes, a write test's reads): another process's work on it,
// or the file system's. Not the test's: a warning with its size, and the device line shows the test's direction only.
void otherDirection(const QString& part, bool write, double testBytes, const Sampler& devices, RunRecord& rec)
{
    const double other = devices.bytesSinceStart(!write);
    if (other < 0 || other < std::max(kMinCheckedBytes, 0.05 * testBytes))
        return;
    QStringList names;
    for (const DiskDeviceFigures& d : devices.total())
        if (d.isWitness())
            names << d.name;
    rec.addWarning(QStringLiteral("device-other-io"),
        part + QStringLiteral(": while the test ") + (write ? QStringLiteral("wrote") : QStringLiteral("read"))
            + QStringLiteral(", the device") + (names.size() > 1 ? QStringLiteral("s ") : QStringLiteral(" "))
            + names.join(QStringLiteral(", ")) + u' ' + (write ? QStringLiteral("read") : QStringLiteral("wrote"))
            + u' ' + Units::formatBytes(qint64(other))
            + QStringLiteral(" as well (other work on the device, or the file system's own): the device shares its "
                             "time with it, so the test's figures may be lower than the device alone gives"));
}

void crossCheck(const QString& part, bool write, double testBytes, const Sampler& devices, RunRecord& rec)
{
    const double devBytes = devices.bytesSinceStart(write);
    if (devices.isEmpty() || devBytes < 0 || testBytes < kMinCheckedBytes)
        return;
    otherDirection(part, write, testBytes, devices, rec);
    const double ratio = devBytes / testBytes;
    if (ratio >= kLessRatio && ratio <= kMoreRatio)
        return;
    QStringList names;
    for (const DiskDeviceFigures& d : devices.total())
        if (d.isWitness())
            names << d.name;
    const QString verb = write ? QStringLiteral("wrote") : QStringLiteral("read");
    const QString what = part + QStringLiteral(": the device")
        + (names.size() > 1 ? QStringLiteral("s ") : QStringLiteral(" ")) + names.join(QStringLiteral(", ")) + u' '
        + verb + u' ' + Units::formatNumber(ratio, 2) + QStringLiteral("× the bytes the test ") + verb
        + QStringLiteral(" (") + Units::formatBytes(qint64(devBytes)) + QStringLiteral(" of ")
        + Units::formatBytes(qint64(testBytes)) + QStringLiteral(")");
    const QString other = QStringLiteral("; the counters include any other work on the device at the same time");
    if (ratio < kLessRatio)
        rec.addWarning(QStringLiteral("device-saw-less"),
            what + QStringLiteral(": the page cache, compression, dedupe or zero detection kept the rest from the disk")
                + other);
    else
        rec.addWarning(QStringLiteral("device-saw-more"),
            what + QStringLiteral(": write amplification (journal, metadata, copy-on-write, read-modify-write)")
                + other);
}

void addToEnvironment(QJsonObject& environment, const QList<Device>& devices)
{
    QJsonArray arr;
    for (const Device& d : devices) {
        QJsonObject o = describe(d.name);
        o.insert(QStringLiteral("layer"), d.layer);
        o.insert(QStringLiteral("witness"), d.witness);
        arr.append(o);
    }
    environment.insert(QStringLiteral("devices"), arr);
}

} // namespace BlockDevices
