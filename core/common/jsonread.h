#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QLatin1String>
#include <QString>

#include <optional>

// Reading a number a record may leave out: the value when it is a JSON number, none when it is absent, null or
// anything else (the readers of core/ never take a missing figure for 0).
namespace JsonRead {

inline std::optional<double> number(const QJsonValue& v)
{
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

inline std::optional<double> number(const QJsonObject& o, const QString& key)
{
    return number(o.value(key));
}

inline std::optional<double> number(const QJsonObject& o, const char* key)
{
    return number(o.value(QLatin1String(key)));
}

} // namespace JsonRead
