#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/loadstats.h"
#include "core/replay/replayplan.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>
#include <vector>

// How faithful a replay was (a record's summary.fidelity): per template, the logged against the replayed count and
// share of the mix, result codes, entries returned, and the log's server time (etime) against the replay's client
// latency; and a sentence for each drift beyond the tolerance (mix share or a result code's share differing by
// more than kTolerancePp percentage points). Logged shares count every logged operation of the replayed span,
// skipped writes included, so a replay without --allow-writes of a log with writes says how far that moved the mix.
namespace ReplayFidelity {

inline constexpr double kTolerancePp = 2.0;

// byTemplate: the replay's counts, indexed like plan.templates; replayedOps: every operation answered (or timed
// out); seconds: the replay's measured span.
QJsonObject compute(
    const ReplayPlan& plan, const std::vector<LoadCounts>& byTemplate, uint64_t replayedOps, double seconds);
QStringList drift(const QJsonObject& fidelity); // the sentences of compute()'s "drift"

inline constexpr double kRateTolerance = 0.05; // the rate verdict: achieved within 5 % of the log's

// The achieved rate against the log's (open loop; summary.fidelity.rate): per second of the replay, the operations
// sent against those the schedule (the log's times, after --speed) puts in that second, and over the schedule's
// whole span. Seconds the schedule leaves empty are counted (quiet) and not in the per-second figures; a send
// later than the schedule's last second is not in the achieved count: a replay that fell behind shows.
struct RateFidelity
{
    double loggedOpsPerS = 0, achievedOpsPerS = 0; // achieved: the server's answers per second
    double sentOpsPerS = 0; // the requests the replay sent per second over the same seconds
    std::optional<double> ratio; // achieved / logged over the span (none when the schedule is empty)
    uint64_t seconds = 0; // the schedule's seconds
    uint64_t quietSeconds = 0; // of them, without a logged operation
    // |achieved - logged| / logged over the seconds with logged operations: p50, p99, max (none without any).
    std::optional<double> perSecondP50, perSecondP99, perSecondMax;

    std::optional<double> difference() const; // |ratio - 1|
    bool passed() const; // difference() <= kRateTolerance
    QJsonObject toJson() const;
    static RateFidelity fromJson(const QJsonObject& o);
    // logged: the schedule's operations per second; achieved: the answers per second the replay received.
    static RateFidelity of(const std::vector<uint64_t>& logged, const std::vector<uint64_t>& achieved);
    void setSent(const std::vector<uint64_t>& sentPerSecond); // sentOpsPerS over the schedule's seconds
};

std::vector<uint64_t> scheduledPerSecond(const ReplayPlan& plan); // the plan's sends by scheduled second
Verdict rateVerdict(const RateFidelity& rate); // "replayed rate within 5 % of the log's"

} // namespace ReplayFidelity
