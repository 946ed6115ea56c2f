#include "core/ldap/loadrecordfacts.h"

#include "core/common/jsonread.h"

namespace LoadRecordFacts {

bool openLoop(const QJsonObject& spec)
{
    return spec.value(QLatin1String("rate")).toDouble() > 0
        || spec.value(QLatin1String("ramp")).toString().startsWith(u"rate");
}

PointRate pointRate(const QJsonObject& point)
{
    return PointRate::of(JsonRead::number(point, "ok_per_s"), JsonRead::number(point, "ops_per_s"));
}

QJsonArray pointsOf(const RunRecord& record)
{
    return record.summary.value(QLatin1String("points")).toArray();
}

std::optional<double> pointValue(const QJsonObject& point, const QString& key)
{
    return JsonRead::number(point, key);
}

bool isLoadInterval(const QJsonObject& interval)
{
    return interval.contains(QLatin1String("ops_per_s"));
}

QJsonObject serverLogOf(const RunRecord& record)
{
    return record.extra.value(QLatin1String("server_log")).toObject();
}

} // namespace LoadRecordFacts
