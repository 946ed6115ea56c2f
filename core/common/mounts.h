#pragma once

#include <QJsonArray>
#include <QList>
#include <QString>

// The file systems of this machine a disk test can be pointed at: block-device-backed mounts (and tmpfs, which a
// test flags), from /proc/self/mountinfo, each with its free space (statvfs). Read-only ones are left out.
namespace Mounts {

struct FileSystem
{
    QString mountPoint;
    QString device; // "/dev/vdb1"; the source field of mountinfo
    QString type; // "ext4", "xfs", ...
    qint64 freeBytes = -1;
    qint64 totalBytes = -1;

    bool operator==(const FileSystem&) const = default;
};

// `mountinfo` is the file's text (a test gives its own); free space is asked of each mount point here.
QList<FileSystem> writable(const QByteArray& mountinfo);
QList<FileSystem> writable(); // this machine's

QJsonArray toJson(const QList<FileSystem>& list);
QList<FileSystem> fromJson(const QJsonArray& array);

} // namespace Mounts
