#include "core/common/sample.h"

QJsonObject Sample::toJson() const
{
    QJsonObject o = values;
    o.insert(QStringLiteral("t"), t);
    if (!series.isEmpty())
        o.insert(QStringLiteral("series"), series);
    return o;
}

Sample Sample::fromJson(QJsonObject o)
{
    Sample s;
    s.t = o.take(QStringLiteral("t")).toDouble();
    s.series = o.take(QStringLiteral("series")).toString();
    s.values = std::move(o);
    return s;
}
