#include "core/common/mounts.h"

#include <QFile>
#include <QJsonObject>
#include <QSet>

#include <sys/statvfs.h>

namespace Mounts {

namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
QString mountinfoUnescaped(const QByteArray& field)
{
    QByteArray out;
    for (qsizetype i = 0; i < field.size(); ++i) {
        if (field.at(i) == '\\' && i + 3 < field.size()) {
            bool ok = false;
            const int c = field.mid(i + 1, 3).toInt(&ok, 8);
            if (ok) {
                out += char(c);
                i += 3;
                continue;
            }
        }
        out += field.at(i);
    }
    return QString::fromLocal8Bit(out);
}

bool testableFileSystem(const QString& type, const QString& source)
{
    static const QSet<QString> kDiskTypes { QStringLiteral("ext2"), QStringLiteral("ext3"), QStringLiteral("ext4"),
        QStringLiteral("xfs"), QStringLiteral("btrfs"), QStringLiteral("zfs"), QStringLiteral("f2fs"),
        QStringLiteral("jfs"), QStringLiteral("reiserfs"), QStringLiteral("nfs"), QStringLiteral("nfs4"),
        QStringLiteral("cifs"), QStringLiteral("tmpfs"), QStringLiteral("overlay") };
    const bool noDevice = type == u"tmpfs" || type == u"zfs" || type == u"overlay"; // their source is a name
    return kDiskTypes.contains(type) && (noDevice || source.contains(u'/'));
}

} // namespace

QList<FileSystem> writable(const QByteArray& mountinfo)
{
    QList<FileSystem> out;
    QSet<QString> seen;
    for (const QByteArray& line : mountinfo.split('\n')) {
        const QList<QByteArray> parts = line.split(' ');
        const qsizetype dash = parts.indexOf("-");
        if (parts.size() < 10 || dash < 6 || dash + 3 >= parts.size())
            continue;
        FileSystem fs;
        fs.mountPoint = mountinfoUnescaped(parts.at(4));
        fs.type = QString::fromLocal8Bit(parts.at(dash + 1));
        fs.device = mountinfoUnescaped(parts.at(dash + 2));
        const bool readOnly = parts.at(5).split(',').contains("ro");
        if (readOnly || !testableFileSystem(fs.type, fs.device) || seen.contains(fs.mountPoint))
            continue;
        if (fs.type == u"tmpfs" && !fs.mountPoint.startsWith(QLatin1String("/tmp")) && fs.mountPoint != u"/dev/shm")
            continue; // /run, /sys/fs/...: not where anyone keeps a database
        seen.insert(fs.mountPoint);
        struct statvfs v
        {
        };
        if (::statvfs(fs.mountPoint.toLocal8Bit().constData(), &v) == 0) {
            fs.freeBytes = qint64(v.f_bavail) * qint64(v.f_frsize);
            fs.totalBytes = qint64(v.f_blocks) * qint64(v.f_frsize);
        }
        out << fs;
    }
    return out;
}

QList<FileSystem> writable()
{
    QFile f(QStringLiteral("/proc/self/mountinfo"));
    return f.open(QIODevice::ReadOnly) ? writable(f.readAll()) : QList<FileSystem>();
}

QJsonArray toJson(const QList<FileSystem>& list)
{
    QJsonArray a;
    for (const FileSystem& fs : list)
        a.append(
            QJsonObject { { QStringLiteral("mount_point"), fs.mountPoint }, { QStringLiteral("device"), fs.device },
                { QStringLiteral("type"), fs.type }, { QStringLiteral("free_bytes"), double(fs.freeBytes) },
                { QStringLiteral("total_bytes"), double(fs.totalBytes) } });
    return a;
}

QList<FileSystem> fromJson(const QJsonArray& array)
{
    QList<FileSystem> out;
    for (const auto& v : array) {
        const QJsonObject o = v.toObject();
        FileSystem fs;
        fs.mountPoint = o.value(QStringLiteral("mount_point")).toString();
        fs.device = o.value(QStringLiteral("device")).toString();
        fs.type = o.value(QStringLiteral("type")).toString();
        fs.freeBytes = qint64(o.value(QStringLiteral("free_bytes")).toDouble(-1));
        fs.totalBytes = qint64(o.value(QStringLiteral("total_bytes")).toDouble(-1));
        out << fs;
    }
    return out;
}

} // namespace Mounts
