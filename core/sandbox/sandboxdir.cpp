#include "core/sandbox/sandboxdir.h"

#include <QStorageInfo>
#include <QTemporaryDir>

ProbeError SandboxDir::ioError(const QString& detail, ProbeError::Kind kind)
{
    ProbeError e;
    e.kind = kind;
    e.detail = detail;
    return e;
}

QString SandboxDir::make(const QString& parent, const QString& prefix, qint64 needBytes, int entries, ProbeError* error)
{
    const QStorageInfo storage(parent);
    if (storage.isValid() && storage.bytesAvailable() >= 0 && storage.bytesAvailable() < needBytes) {
        *error = ioError(QStringLiteral("%1 has %2 MB free; %3 entries need about %4 MB")
                             .arg(parent)
                             .arg(storage.bytesAvailable() / 1000000)
                             .arg(entries)
                             .arg(needBytes / 1000000),
            ProbeError::Kind::NoSpace);
        return {};
    }
    QTemporaryDir tmp(parent + u'/' + prefix + QStringLiteral("XXXXXX"));
    if (!tmp.isValid()) {
        *error = ioError(QStringLiteral("cannot create a directory in %1: %2").arg(parent, tmp.errorString()),
            ProbeError::Kind::Permission);
        return {};
    }
    tmp.setAutoRemove(false);
    return tmp.path();
}
