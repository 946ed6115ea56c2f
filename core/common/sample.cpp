#include "core/common/sample.h"

QJsonObject Sample::toJson() const
{
    QJsonObject o = values;
    o.insert(QStringLiteral("t"), t);
    if (!series.isEmpty())
        o.insert(QStringLiteral("series"), series);
    return o;
}
