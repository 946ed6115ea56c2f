#pragma once

#include "core/common/runrecord.h"

#include <QList>
#include <QMap>
#include <QString>

#include <optional>

// What "better" means for each kind of run, and the comparison of two runs. Used by `dirbench-cli history
// compare`, by `--baseline NAME --fail-if-slower PCT` and by the GUI's History page.
//
// The headline metric of a record (the one number a list shows and a baseline judges):
//   disk, one test   seq-write/seq-read/dd: MB/s; rand-read/rand-write/commit: IOPS (commits/s) — higher is better
//   disk suite       score = geometric mean of the sub-tests' headlines (MB/s or IOPS) — higher is better; the
//                    ratio of two scores is the geometric mean of the per-test ratios, so no sub-test dominates
//   disk-under-load  the loaded disk test's MB/s or IOPS — higher is better
//   ldap-* loads     ok/s, successful operations per second — higher is better; then ops/s (completed: succeeded
//                    or failed), errors, latency, and for a mix the same per operation ("search/ok_per_s", ...)
//   ldap-probe       total probe time (connect + TLS + bind + root DSE + search), ms — lower is better
//   curve, database-size  mean ok/s over the points — higher is better
//   thread-sweep     best ok/s over the points — higher is better
//   tls-cost         connect + bind over TLS, ms per bind — lower is better
// Further metrics (latency percentiles, errors, each suite test) follow the headline in metrics().
// A record older than the success count has no ok/s: it is derived when read, as ops − errors (a sweep's point:
// ops_per_s − errors / seconds per point), and the metric says so (`derived`).
namespace Comparison {

struct Metric
{
    QString key; // stable id: "ok_per_s", "latency_ms/p99", "rand-read/iops", "search/ok_per_s", ...
    QString label; // "ok/s", "p99 latency", ...
    QString unit; // "ok/s", "ops/s", "MB/s", "IOPS", "ms", "µs", "" (score, counts)
    bool higherIsBetter = true;
    std::optional<double> value; // nullopt: the record does not hold it
    QString intervalKey; // the key of this metric in the record's intervals, or "" (the charts use it)
    bool derived = false; // not in the record: derived from an older one (ok = ops − errors)
};

struct Delta
{
    QString key;
    QString label;
    QString unit;
    bool higherIsBetter = true;
    std::optional<double> a;
    std::optional<double> b;
    std::optional<double> deltaPct; // (B - A) / A × 100
    // > 0: B is better than A by this many percent; < 0: worse. nullopt when either side is missing or A is 0.
    std::optional<double> gainPct;
    bool aDerived = false; // A's (B's) value was derived from an older record (Metric::derived)
    bool bDerived = false;
    // The runs' own spread of this metric, in percent of A: √(spread A² + spread B²) (spreadPct); nullopt when
    // neither run shows one (a single figure: a probe's time, a percentile).
    std::optional<double> noisePct;
    // "better" or "worse" only beyond the runs' own spread; "within noise" inside it; "same" (|gain| < 0.05 %);
    // "no spread" when there is none to judge by; "" unknown.
    QString verdict() const;
};

// How much a run's own figure of this metric moves, in percent of it: from its repeats (half the range over the
// median), else from its intervals when the metric is their mean (≈ 95 % interval of the mean: 2 × sd / √n); nullopt
// when the record holds neither.
std::optional<double> spreadPct(const RunRecord& record, const Metric& metric);

// A setting (a spec field, dotted: "load.threads") whose value differs between two runs, as each run has it ("–"
// where a run has none).
struct SettingDiff
{
    QString key;
    QString a;
    QString b;
};
QList<SettingDiff> settingsDiffer(const RunRecord& a, const RunRecord& b);
// A record's settings (its spec) flattened: dotted keys ("load.threads") and their values as text, sorted by key.
QMap<QString, QString> settings(const RunRecord& record);

// The headline of a record, or nullopt (a sizing or LDIF run, or a run that measured nothing).
std::optional<Metric> headline(const RunRecord& record);
// The headline first, then the secondary metrics of the kind.
QList<Metric> metrics(const RunRecord& record);
// Metric by metric, A is the reference. Rows of either side, the headline first.
QList<Delta> compare(const RunRecord& a, const RunRecord& b);
// Whether a run of `kind` with `spec` may be judged against `baseline` (same kind; for disk runs the same profile,
// for curves the same mode). `why` says what differs.
bool comparable(const RunRecord& baseline, const QString& kind, const QJsonObject& spec, QString* why = nullptr);
// "123.4 MB/s", "1,234.5 ok/s", "12.345 ms" — the headline as a list shows it, or "". A derived value is followed
// by derivedNote().
QString formatValue(const Metric& m);
QString formatValue(double value, const QString& unit);
// "(derived: ops − errors)": what is printed beside a value derived from an older record.
QString derivedNote();
// Whether an LDAP load's latencies include the --coalesce-reads hold: spec.coalesce_reads (or that of the load an
// experiment ran: spec.load, spec.ldap, spec.plain), or the record's "coalesce-reads" warning.
bool coalescedReads(const RunRecord& record);

} // namespace Comparison
