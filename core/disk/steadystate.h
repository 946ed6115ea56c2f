#pragma once

#include "core/common/proberror.h"
#include "core/disk/diskresult.h"

#include <QList>
#include <QString>

#include <functional>

struct RunRecord;
struct DiskSpec;

// Steady state of a sustained disk test, as SNIA's Solid State Storage Performance Test Specification (PTS)
// defines it:
//   - rounds: the run's intervals are cut into 1 s rounds of throughput (MB/s for sequential profiles, IOPS for
//     random ones and commit); an interval that straddles a second is split in proportion to time. Only whole
//     rounds count; with intervals longer than 1 s there are no rounds to see, and nothing is evaluated.
//   - a window is 5 consecutive rounds. It is steady when every round stays within ±10 % of the window's average
//     AND the least-squares slope of the rounds, times the window's length (5 s), stays under 10 % of the average.
//     Both are a little stricter than the PTS's wording (data excursion max - min <= 20 % of the average; the fitted
//     line's excursion across the window, slope x 4 rounds, <= 10 %): a window steady here is steady there.
//   - the first steady window is reported: at_s is its end (seconds since the measured phase began), the figure
//     its average. Fewer than 5 rounds: not evaluated (no warning).
// Warnings (stable codes):
//   - not-steady: a run with at least 5 rounds in which no window is steady.
//   - cache-answered: the first 20 % of the rounds (at least one) average more than 1.5 × the last 50 % (at least
//     two): a write-back cache (host, controller, an SSD's SLC) took the first writes faster than the disk behind
//     it takes the rest. Needs at least 5 rounds.
// The whole-run figure stays the record's headline; steady_state sits beside it.
namespace Steady {

inline constexpr int kWindowRounds = 5;
inline constexpr double kBand = 0.10; // every round within ±10 % of the window's average
inline constexpr double kSlope = 0.10; // |slope| × window length < 10 % of the average
inline constexpr double kHeadShare = 0.20, kTailShare = 0.50, kCacheRatio = 1.5;

using Unit = DiskRate;

struct Result
{
    int rounds = 0;
    bool evaluated = false; // at least kWindowRounds rounds
    bool reached = false;
    double atSec = 0; // end of the first steady window
    double value = 0; // that window's average
    bool cacheAnswered = false;
    double headAvg = 0, tailAvg = 0; // the cache rule's two averages (when evaluated)
    int headRounds = 0, tailRounds = 0;
};

// 1 s rounds from a meter's intervals (t = end in seconds, bytes, ops; the first starts at 0).
QList<double> rounds(const QList<DiskInterval>& intervals, Unit unit);
// The detector on a series of 1 s rounds.
Result detect(const QList<double>& rounds);

// summary.steady_state: at_s and the figure null unless reached.
DiskSteadyState figures(const Result& r, Unit unit);

// The engine's hook after a sustained part: puts summary.steady_state in `summary` and, when the part completed
// (`complete`), the warnings in `rec`. `capSec` > 0: the part ran under --until-steady with that cap.
void annotate(const QString& part, const QList<DiskInterval>& intervals, Unit unit, int intervalMs, double capSec,
    bool complete, DiskSummary& summary, RunRecord& rec);

// Over repeats: reached when every repeat reached; at_s and the figure are the medians over the repeats that did.
DiskSteadyState mergeRepeats(const QList<DiskSummary>& runSummaries);

// --until-steady: a predicate the I/O loop calls at each interval (on the thread that ticks the meter): true once
// a steady window is in `intervals` (which must outlive the predicate). Evaluates only when a new interval came.
std::function<bool()> untilSteady(const QList<DiskInterval>& intervals, Unit unit);

// Checks spec.untilSteadySec (field "until-steady"): 0 (off) or 5..86400 s, never with dd or with --duration.
ProbeError validate(const DiskSpec& spec);

// The median of `v` (0 for none); also the disk engine's rule for repeats.
double median(QList<double> v);

} // namespace Steady
