#pragma once

#include "core/common/sample.h"

#include <QJsonArray>
#include <QJsonObject>

// A record's intervals as the samples they were (series, t, values): pages redraw their charts from the record
// when a run ends, so the chart shows exactly what the record keeps.
inline SampleBatch samplesFromIntervals(const QJsonArray& intervals)
{
    SampleBatch out;
    out.reserve(intervals.size());
    for (const auto& v : intervals) {
        Sample s;
        s.values = v.toObject();
        s.series = s.values.value(QStringLiteral("series")).toString();
        s.t = s.values.value(QStringLiteral("t")).toDouble();
        out << s;
    }
    return out;
}
