#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/loadspec.h"

#include <functional>
#include <optional>

class RunContext;

// The entry-cache coverage vs throughput curve, measured (reference: ldap-tools-and-sizing.md §4, the 389-ds curve in
// ldap-servers-measured.md §4). One search load is run per point; the record (kind "curve") has summary.points[]
// with coverage, hit_ratio, ok_per_s (successful searches: the throughput), ops_per_s (completed), errors, and the
// service-time model fitted to their ok/s (t_hit_us, t_miss_us).
//
//   cache-sweep  389-ds, bound as an admin who may change cn=config: the entry cache (nsslapd-cachememsize of the
//                backend that holds the base) is set to each point's share of the entries, with autosize off, and
//                everything is put back at the end, also after a failure or a cancel. `restart` restarts the
//                server between points (a DirBench 389-ds sandbox only), else the curve is taken online and the
//                record says so (warning "online").
//   working-set  any server, any bind: the server is left as it is, and the key range the filter draws from is
//                cut so that the cache (cacheEntries, or what a 389-ds monitor shows) holds each point's share of it.
struct CurveSpec
{
    enum class Mode
    {
        CacheSweep,
        WorkingSet
    };
    static constexpr double kMinRestartCoverage = 0.01; // a tiny cachememsize is not honoured at startup

    Mode mode = Mode::CacheSweep;
    // The search load of each point: target, base, filter (a template with one [A-B] range), attrs, access,
    // concurrency. durationSec is the measured time per point, warmupSec the warm-up before each.
    LdapLoadSpec load;
    QList<double> points { 0.0, 0.10, 0.25, 0.50, 0.75, 1.0 }; // coverage, fractions of the entries
    bool restart = false; // cache-sweep: restart the server before each point
    QString sandboxDir; // the 389-ds sandbox to restart; empty = the one serving load.target.uri
    qint64 entries = 0; // N, the entries the coverage is a share of; 0 = the key count of the filter's range
    qint64 cacheEntries = 0; // working-set: entries the cache holds; 0 = from the server's monitor (389-ds)

    static QString modeName(Mode m);
    // "cache-sweep" or "working-set"; errors name "mode".
    static std::optional<Mode> parseMode(const QString& text, ProbeError* error);
    // "0,10,25,50,75,100": percent, each 0..100, at least two, no repeats; errors name "points".
    static std::optional<QList<double>> parsePoints(const QString& text, ProbeError* error);

    // N: entries, else the key count of the filter's one range (0 when there is none).
    qint64 keyCount() const;
    // Checks the form (fields as the CLI names them: "points", "seconds-per-point", "warmup", "entries",
    // "cache-entries", "filter", "restart", "sandbox-dir", ...) and compiles the load.
    ProbeError validate() const;
    QJsonObject toJson() const;
};

namespace Experiments {

RunRecord runCurve(const CurveSpec& spec, RunContext& ctx);

inline std::function<RunRecord(RunContext&)> makeCurveJob(CurveSpec spec)
{
    return [spec = std::move(spec)](RunContext& ctx) { return runCurve(spec, ctx); };
}

// The filter template with its one [A-B] range cut to the first `keys` keys: [A-(A+keys-1)], zero-padded as A was.
// nullopt when the template has no range or several.
std::optional<QString> cutRange(const QString& filter, qint64 keys);

} // namespace Experiments
