#pragma once

// The JSON helpers of core/disk/diskresult.cpp and disksummary.cpp (private to them: the one place disk figures
// meet JSON).

#include "core/common/jsonread.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QSet>
#include <QString>

#include <optional>

namespace DiskJson {

inline QJsonValue orNull(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

using JsonRead::number;

inline void putIf(QJsonObject& o, const QString& key, const std::optional<double>& v)
{
    if (v)
        o.insert(key, *v);
}

// The keys of `o` not in `known`, as they were.
inline QJsonObject unknownKeys(const QJsonObject& o, const QSet<QString>& known)
{
    QJsonObject out;
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key()))
            out.insert(it.key(), it.value());
    return out;
}

} // namespace DiskJson
