#pragma once

#include <QJsonObject>
#include <QString>

// Facts about the machine and the file system a run used; they go into RunRecord.environment.
namespace Environment {

struct FileSystemInfo
{
    QString type; // "ext4", "tmpfs", "overlay", "nfs", "fuse", ... or "0x1234abcd" when unknown
    qint64 freeBytes = -1;
    qint64 totalBytes = -1;
    QString device; // from /proc/self/mountinfo, "" when not found
    bool ok = false;
};

FileSystemInfo fileSystemOf(const QString& path);
qint64 physicalRamBytes();
QJsonObject collect(const QString& pathOrEmpty = {});

} // namespace Environment
