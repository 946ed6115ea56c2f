#pragma once

#include "core/common/runrecord.h"

#include <QJsonArray>
#include <QJsonObject>

#include <optional>

// What the window and the report read of a load record beside its typed figures (LoadSummary, LoadInterval): how
// its spec drove the load, an experiment's points, the server's own log view. Read here only.
namespace LoadRecordFacts {

// The spec asked for a rate (--rate, or a rate ramp): an open loop, latency counts from the schedule.
bool openLoop(const QJsonObject& spec);

// A sweep or curve point's throughput: ok_per_s (successes/s), or for a point made before points had it, its
// ops_per_s (completed operations/s), with `completed` set. `present` is false when the point has neither.
struct PointRate
{
    double perS = 0;
    bool completed = false;
    bool present = false;
    // The one rule: ok/s when the point has it, else (a point older than ok/s) its completed ops/s.
    static PointRate of(const std::optional<double>& okPerS, const std::optional<double>& opsPerS)
    {
        if (okPerS)
            return { *okPerS, false, true };
        return { opsPerS.value_or(0), true, opsPerS.has_value() };
    }
};
PointRate pointRate(const QJsonObject& point);

// An experiment's points (summary.points: one object per step of the sweep); empty when it has none.
QJsonArray pointsOf(const RunRecord& record);
// A point's figure by its key (the axis an experiment varied: "threads", "entries", ...); none when not a number.
std::optional<double> pointValue(const QJsonObject& point, const QString& key);

// An interval of an LDAP load (it counts operations), as opposed to a disk test's beside it.
bool isLoadInterval(const QJsonObject& interval);

// The server's own view of the load (ServerLogView::attach's extra.server_log); empty when the record has none.
QJsonObject serverLogOf(const RunRecord& record);

} // namespace LoadRecordFacts
