#include "core/common/intervaljson.h"

namespace IntervalJson {

QString seriesOf(const QJsonObject& interval)
{
    return interval.value(QLatin1String("series")).toString();
}

std::optional<double> timeOf(const QJsonObject& interval)
{
    const QJsonValue t = interval.value(QLatin1String("t"));
    return t.isDouble() ? std::optional<double>(t.toDouble()) : std::nullopt;
}

Sample toSample(const QJsonObject& interval)
{
    Sample s;
    s.values = interval;
    s.series = seriesOf(interval);
    s.t = interval.value(QLatin1String("t")).toDouble();
    return s;
}

SampleBatch toSamples(const QJsonArray& intervals)
{
    SampleBatch out;
    out.reserve(intervals.size());
    for (const auto& v : intervals)
        out << toSample(v.toObject());
    return out;
}

} // namespace IntervalJson
