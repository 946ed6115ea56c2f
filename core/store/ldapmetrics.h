#pragma once

#include "core/store/comparison.h"

#include <QJsonObject>

#include <optional>

// The metrics of LDAP loads and of the experiments made of them (Comparison::metrics uses these). Successes per
// second (ok/s) are the headline; a record older than the success count has them derived when read.
namespace Comparison::LdapMetrics {

// An ldap-* load: ok/s, ops/s (completed), errors, mean/p50/p99 latency; for a mix, per operation after them.
// Empty when the record has no summary.
QList<Metric> ofLoad(const RunRecord& record);
// curve, database-size: the mean ok/s over summary.points[].
Metric meanOverPoints(const RunRecord& record);
// thread-sweep: summary.best_ok_per_s, else the best of the points' (derived) ok/s, else best_ops_per_s (derived).
Metric bestOfSweep(const RunRecord& record);

struct PointRate
{
    double value = 0;
    bool derived = false;
};
// One point's successes per second: its ok_per_s; for a point older than that, ops_per_s − errors / seconds (the
// seconds each point ran; errors are not subtracted when that is unknown). nullopt when it holds neither.
std::optional<PointRate> pointOkPerS(const QJsonObject& point, std::optional<double> secondsPerPoint);
// spec.seconds_per_point, else spec.load.duration_s; nullopt when the record says neither.
std::optional<double> secondsPerPoint(const RunRecord& record);

} // namespace Comparison::LdapMetrics
