#pragma once

#include "core/common/sample.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

// What every record interval has, whatever its kind: the series it belongs to and its time (Sample::toJson writes
// them). Charts that draw any kind's intervals read them here; a kind's own figures are in its typed interval
// (LoadInterval, DiskInterval, ...).
namespace IntervalJson {

QString seriesOf(const QJsonObject& interval); // "" for a single series
std::optional<double> timeOf(const QJsonObject& interval); // seconds; none when the interval has no time
// The interval as the sample it was (series, t, and every value).
Sample toSample(const QJsonObject& interval);
SampleBatch toSamples(const QJsonArray& intervals);

} // namespace IntervalJson
