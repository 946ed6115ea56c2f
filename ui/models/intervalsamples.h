#pragma once

#include "core/common/intervaljson.h"
#include "core/common/sample.h"

#include <QJsonArray>
#include <QJsonObject>

// A record's intervals as the samples they were (series, t, values): pages redraw their charts from the record
// when a run ends, so the chart shows exactly what the record keeps.
inline SampleBatch samplesFromIntervals(const QJsonArray& intervals)
{
    return IntervalJson::toSamples(intervals);
}
