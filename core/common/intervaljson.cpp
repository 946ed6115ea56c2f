#include "core/common/intervaljson.h"

#include "core/common/jsonread.h"

namespace IntervalJson {

QString seriesOf(const QJsonObject& interval)
{
    return interval.value(QLatin1String("series")).toString();
}

std::optional<double> timeOf(const QJsonObject& interval)
{
    return JsonRead::number(interval, "t");
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
