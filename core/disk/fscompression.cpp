#include "core/disk/fscompression.h"

#include "core/common/runrecord.h"
#include "core/disk/blockdevices.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace FsCompression {

namespace {

QString fromOptions(const QStringList& options, std::initializer_list<const char*> keys)
{
    for (const QString& o : options)
        for (const char* k : keys) {
            const QString key = QLatin1String(k);
            if (o == key || o.startsWith(key + u'=')) {
                const QString value = o.section(u'=', 1);
                if (value != u"no" && value != u"none" && value != u"off")
                    return o;
            }
        }
    return {};
}

bool dirFlagged(const QString& dir)
{
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return false;
    int flags = 0;
    const bool on = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_COMPR_FL);
    ::close(fd);
    return on;
}

QString zfsCompression(const QString& dataset)
{
    const QString zfs = QStandardPaths::findExecutable(QStringLiteral("zfs"));
    if (zfs.isEmpty())
        return {};
    QProcess p;
    p.start(zfs,
        { QStringLiteral("get"), QStringLiteral("-H"), QStringLiteral("-o"), QStringLiteral("value"),
            QStringLiteral("compression"), dataset });
    if (!p.waitForFinished(5000) || p.exitCode() != 0) {
        p.kill();
        p.waitForFinished(1000);
        return {};
    }
    const QString v = QString::fromLocal8Bit(p.readAllStandardOutput()).trimmed();
    return v.isEmpty() || v == u"off" || v == u"-" ? QString() : QStringLiteral("compression=") + v;
}

} // namespace

Info of(const QString& dir)
{
    Info info;
    const BlockDevices::Mount m = BlockDevices::mountOf(dir);
    if (!m.ok)
        return info;
    info.fsType = m.fsType;
    info.setting = fromMountOptions(m.fsType, m.options);
    if (info.setting.isEmpty() && m.fsType == u"btrfs" && dirFlagged(dir))
        info.setting = QStringLiteral("chattr +c on the directory");
    else if (m.fsType == u"zfs")
        info.setting = zfsCompression(m.source);
    return info;
}

QString fromMountOptions(const QString& fsType, const QStringList& options)
{
    if (fsType == u"btrfs")
        return fromOptions(options, { "compress-force", "compress" });
    if (fsType == u"bcachefs")
        return fromOptions(options, { "compression", "background_compression" });
    if (fsType == u"f2fs")
        return fromOptions(options, { "compress_algorithm" });
    return {};
}

void check(const QString& dir, RunRecord& rec)
{
    const Info info = of(dir);
    if (!info.compresses())
        return;
    QJsonObject fs = rec.environment.value(QStringLiteral("filesystem")).toObject();
    fs.insert(QStringLiteral("compression"), info.setting);
    rec.environment.insert(QStringLiteral("filesystem"), fs);
    QString msg = dir + QStringLiteral(" is on ") + info.fsType + QStringLiteral(" that compresses (") + info.setting
        + QStringLiteral("): data it can shrink, such as zeros, reaches the disk smaller than the test wrote it");
    if (info.fsType == u"btrfs")
        msg += QStringLiteral(". btrfs never compresses O_DIRECT writes: buffered runs and dd are the ones it changes");
    rec.addWarning(QStringLiteral("compressing-fs"), msg);
}

} // namespace FsCompression
