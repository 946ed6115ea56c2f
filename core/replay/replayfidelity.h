#pragma once

#include "core/ldap/loadstats.h"
#include "core/replay/replayplan.h"

#include <QJsonObject>
#include <QStringList>

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

} // namespace ReplayFidelity
