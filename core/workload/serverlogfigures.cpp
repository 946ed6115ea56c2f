#include "core/workload/serverlogfigures.h"

#include <QJsonArray>

ServerLogFigures ServerLogFigures::fromJson(const QJsonObject& serverLog)
{
    ServerLogFigures f;
    f.format = serverLog.value(QLatin1String("format")).toString();
    const QJsonObject s = serverLog.value(QLatin1String("summary")).toObject();
    const QJsonObject etime = s.value(QLatin1String("etime_ms")).toObject();
    f.ops = s.value(QLatin1String("ops")).toDouble();
    f.etimeP50Ms = etime.value(QLatin1String("p50")).toDouble();
    f.etimeP99Ms = etime.value(QLatin1String("p99")).toDouble();
    const QJsonArray intervals = serverLog.value(QLatin1String("intervals")).toArray();
    f.allIntervals = intervals.size();
    for (const auto& v : intervals) {
        const QJsonObject i = v.toObject();
        const QJsonObject e = i.value(QLatin1String("etime_ms")).toObject();
        if (e.isEmpty())
            continue; // the server logged nothing in this interval
        f.intervals.append({ i.value(QLatin1String("t")).toDouble(), e.value(QLatin1String("p50")).toDouble(),
            e.value(QLatin1String("p99")).toDouble() });
    }
    return f;
}
