#include "core/common/environment.h"

#include <QFile>
#include <QFileInfo>
#include <QSysInfo>
#include <QThread>

#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace Environment {

namespace {

QString fsTypeName(unsigned long magic)
{
    switch (magic) {
    case 0xEF53:
        return QStringLiteral("ext4"); // ext2/3/4 share the magic
    case 0x58465342:
        return QStringLiteral("xfs");
    case 0x9123683E:
        return QStringLiteral("btrfs");
    case 0x01021994:
        return QStringLiteral("tmpfs");
    case 0x794C7630:
        return QStringLiteral("overlay");
    case 0x6969:
        return QStringLiteral("nfs");
    case 0x65735546:
        return QStringLiteral("fuse");
    case 0x2FC12FC1:
        return QStringLiteral("zfs");
    case 0xFF534D42:
    case 0xFE534D42:
        return QStringLiteral("cifs");
    case 0x858458F6:
        return QStringLiteral("ramfs");
    case 0x4D44:
        return QStringLiteral("vfat");
    case 0x5346544E:
        return QStringLiteral("ntfs");
    case 0xF2F52010:
        return QStringLiteral("f2fs");
    default:
        return QStringLiteral("0x") + QString::number(qulonglong(magic), 16);
    }
}

QString mountDeviceFor(const QString& path)
{
    // The longest mount point that prefixes the canonical path.
    QFile f(QStringLiteral("/proc/self/mountinfo"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QString canon = QFileInfo(path).canonicalFilePath();
    QString best, device;
    for (const QByteArray& line : f.readAll().split('\n')) {
        const QList<QByteArray> parts = line.split(' ');
        if (parts.size() < 10)
            continue;
        const QString mp = QString::fromLocal8Bit(parts.at(4));
        const int dash = parts.indexOf("-");
        if (dash < 0 || dash + 2 >= parts.size())
            continue;
        const bool prefix = canon == mp || mp == u"/" || canon.startsWith(mp + u'/');
        if (prefix && mp.size() >= best.size()) {
            best = mp;
            device = QString::fromLocal8Bit(parts.at(dash + 2));
        }
    }
    return device;
}

QString readFirstLine(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLocal8Bit(f.readLine()).trimmed();
}

QString cpuModel()
{
    QFile f(QStringLiteral("/proc/cpuinfo"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("model name")) {
            const int colon = line.indexOf(':');
            return QString::fromLocal8Bit(line.mid(colon + 1)).trimmed();
        }
    return {};
}

} // namespace

FileSystemInfo fileSystemOf(const QString& path)
{
    FileSystemInfo info;
    const QByteArray p = QFile::encodeName(path);
    struct statfs sfs
    {
    };
    struct statvfs svfs
    {
    };
    if (::statfs(p.constData(), &sfs) != 0 || ::statvfs(p.constData(), &svfs) != 0)
        return info;
    info.type = fsTypeName(static_cast<unsigned long>(sfs.f_type));
    info.freeBytes = qint64(svfs.f_bavail) * qint64(svfs.f_frsize);
    info.totalBytes = qint64(svfs.f_blocks) * qint64(svfs.f_frsize);
    info.device = mountDeviceFor(path);
    info.ok = true;
    return info;
}

qint64 physicalRamBytes()
{
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long size = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? qint64(pages) * qint64(size) : -1;
}

QJsonObject collect(const QString& pathOrEmpty)
{
    QJsonObject o;
    o.insert(QStringLiteral("host"), QSysInfo::machineHostName());
    o.insert(QStringLiteral("kernel"), QString(QSysInfo::kernelType() + u' ' + QSysInfo::kernelVersion()));
    o.insert(QStringLiteral("os"), QSysInfo::prettyProductName());
    o.insert(QStringLiteral("cpus"), QThread::idealThreadCount());
    o.insert(QStringLiteral("cpu_model"), cpuModel());
    o.insert(QStringLiteral("ram_bytes"), double(physicalRamBytes()));
    o.insert(QStringLiteral("dirbench_version"), QStringLiteral(DIRBENCH_VERSION));
    if (!pathOrEmpty.isEmpty()) {
        const FileSystemInfo fs = fileSystemOf(pathOrEmpty);
        QJsonObject f;
        f.insert(QStringLiteral("path"), pathOrEmpty);
        f.insert(QStringLiteral("type"), fs.ok ? QJsonValue(fs.type) : QJsonValue(QJsonValue::Null));
        f.insert(QStringLiteral("device"), fs.device.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(fs.device));
        f.insert(QStringLiteral("free_bytes"), fs.ok ? QJsonValue(double(fs.freeBytes)) : QJsonValue(QJsonValue::Null));
        f.insert(
            QStringLiteral("total_bytes"), fs.ok ? QJsonValue(double(fs.totalBytes)) : QJsonValue(QJsonValue::Null));
        const QString dev = fs.device.section(u'/', -1);
        if (!dev.isEmpty()) {
            const QString sys = QStringLiteral("/sys/class/block/") + dev;
            QString base = sys;
            // a partition's queue lives on its parent
            if (!QFileInfo::exists(sys + QStringLiteral("/queue"))
                && QFileInfo::exists(sys + QStringLiteral("/partition")))
                base = QFileInfo(sys).canonicalFilePath().section(u'/', 0, -2);
            const QString sched = readFirstLine(base + QStringLiteral("/queue/scheduler"));
            if (!sched.isEmpty())
                f.insert(QStringLiteral("scheduler"), sched);
            const QString rot = readFirstLine(base + QStringLiteral("/queue/rotational"));
            if (!rot.isEmpty())
                f.insert(QStringLiteral("rotational"), rot == u"1");
        }
        o.insert(QStringLiteral("filesystem"), f);
    }
    return o;
}

} // namespace Environment
