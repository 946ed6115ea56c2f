#pragma once

#include "core/disk/diskengine.h"
#include "core/run/runcontext.h"

#include <QDir>
#include <QJsonObject>
#include <QString>
#include <QStringList>

// Small helpers shared by the disk tests.
namespace DiskFixture {

inline constexpr qint64 MiB = 1024 * 1024;

inline QStringList leftovers(const QString& dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

inline DiskSpec spec(DiskProfile p, const QString& dir, qint64 size, double duration = -1)
{
    DiskSpec s;
    s.profile = p;
    s.dir = dir;
    s.sizeBytes = size;
    s.durationSec = duration;
    return s;
}

inline double num(const QJsonObject& o, const QString& dotted)
{
    QJsonValue v = o;
    for (const auto& k : dotted.split(u'.'))
        v = v.toObject().value(k);
    return v.toDouble(-1);
}

} // namespace DiskFixture
