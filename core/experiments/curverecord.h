#pragma once

#include "core/common/runrecord.h"
#include "core/experiments/curve.h"
#include "core/ldap/loadresult.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

class LdapSession;
class RunContext;

// What the two sweeps share: the record's frame, one point's load, the hit ratio from the server's counters, and
// the summary with the fitted service-time model.
namespace CurveRecord {

struct Point
{
    double target = 0; // the coverage asked for
    double coverage = 0; // the coverage measured (or, working set: cache entries / key range)
    std::optional<double> hitRatio; // per searched entry, from the interval counter deltas; none when not exposed
    double okPerSec = 0; // successful searches per second: what the model is fitted to
    double opsPerSec = 0; // completed searches per second (succeeded or failed)
    QString series;
    QJsonObject details; // cache_entries, cache_bytes, working_set, filter, counters, latency ...
};

// kind "curve", spec, environment; `failed` set when the spec is invalid.
RunRecord begin(const CurveSpec& spec);

// "point 2/6: 10 %"
QString seriesName(int index, int count, double target);

// Runs one point's search load as a child of ctx (its samples go to the sweep's chart under `series`, shifted to
// the sweep's time axis) and copies its intervals into rec. `clock` started with the sweep.
RunRecord runPoint(
    RunRecord& rec, const LdapLoadSpec& load, const QString& series, RunContext& ctx, const QElapsedTimer& clock);

// The hit ratio per searched entry from a load's summary.server deltas: 1 − (Δtries − Δhits) / Δsearches. 389-ds
// looks an entry up twice per search (the second always hits), so Δhits/Δtries alone overstates it; a search
// misses at most once. nullopt when the server exposes no entry cache counters. details gets the raw counters.
std::optional<double> hitRatio(const LoadSummary& load, QJsonObject* details);

// A point's figures from its load: ok/s, ops/s, the hit ratio, and errors, latency_ms and status in its details.
void takeLoad(Point* point, const RunRecord& load);

// The 389-ds backend monitor's gauges (currententrycachecount, currententrycachesize, maxentrycachesize), or an
// empty map when it cannot be read.
QMap<QString, double> readCacheGauges(LdapSession& session, const QString& monitorDn);

// summary.points (each with ok_per_s and ops_per_s), t_hit_us / t_miss_us and fit (CurveFitter over the points'
// ok/s; null with a "fit" warning when it cannot be fitted), entries, access.
void finish(RunRecord& rec, const QList<Point>& points, qint64 entries, const QString& access);

} // namespace CurveRecord
