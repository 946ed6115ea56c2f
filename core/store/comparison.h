#pragma once

#include "core/common/runrecord.h"

#include <QList>
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
//   ldap-* loads     ops/s — higher is better
//   ldap-probe       total probe time (connect + TLS + bind + root DSE + search), ms — lower is better
//   curve, database-size  mean ops/s over the points — higher is better
//   thread-sweep     best ops/s over the points — higher is better
//   tls-cost         connect + bind over TLS, ms per bind — lower is better
// Further metrics (latency percentiles, errors, each suite test) follow the headline in metrics().
namespace Comparison {

struct Metric
{
    QString key; // stable id: "ops_per_s", "latency_p99_ms", "rand-read/iops", ...
    QString label; // "ops/s", "p99 latency", ...
    QString unit; // "ops/s", "MB/s", "IOPS", "ms", "µs", "" (score)
    bool higherIsBetter = true;
    std::optional<double> value; // nullopt: the record does not hold it
    QString intervalKey; // the key of this metric in the record's intervals, or "" (the charts use it)
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
    QString verdict() const; // "better", "worse", "same" (|gain| < 0.05 %), "" unknown
};

// The headline of a record, or nullopt (a sizing or LDIF run, or a run that measured nothing).
std::optional<Metric> headline(const RunRecord& record);
// The headline first, then the secondary metrics of the kind.
QList<Metric> metrics(const RunRecord& record);
// Metric by metric, A is the reference. Rows of either side, the headline first.
QList<Delta> compare(const RunRecord& a, const RunRecord& b);
// Whether a run of `kind` with `spec` may be judged against `baseline` (same kind; for disk runs the same profile,
// for curves the same mode). `why` says what differs.
bool comparable(const RunRecord& baseline, const QString& kind, const QJsonObject& spec, QString* why = nullptr);
// "123.4 MB/s", "1,234.5 ops/s", "12.345 ms" — the headline as a list shows it, or "".
QString formatValue(const Metric& m);
QString formatValue(double value, const QString& unit);

} // namespace Comparison
