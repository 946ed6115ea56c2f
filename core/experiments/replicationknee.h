#pragma once

#include <QtGlobal>

#include <optional>
#include <vector>

// Replication lag against a write ramp (issue 13): the figures of one ramp step for one consumer, and the knee.
// Pure functions on the marker probe's time stamps (ReplicationWatch: one steady clock, ns), no server.
namespace ReplicationKnee {

struct StepLag
{
    qint64 markers = 0; // acknowledged in the step
    qint64 unseen = 0; // of those, never seen on the consumer
    // Percentiles of the step's markers' lag from their acknowledgement (ReplicationLag: the one definition). A
    // marker never seen counts with the lag it had at the end (a lower bound, then p99AtLeast): a consumer that fell
    // behind for good is not made to look better by leaving its markers out.
    std::optional<double> p50Ms, p99Ms;
    bool p99AtLeast = false;
    // The same from the writes' sends (an upper bound that includes the supplier's queueing); without sends, none.
    std::optional<double> p50FromSendMs, p99FromSendMs;
    // Least squares of the seen markers' lag against their acknowledgement time: how fast the lag grows through
    // the step (ms of lag per s). Null below two seen markers.
    std::optional<double> slopeMsPerS;
};

// The markers acknowledged in [beginNs, endNs): acks[k] and seen[k] as ReplicationWatch keeps them (ack 0 = not
// acknowledged, -1 = failed; seen.size() = how many were seen), nowNs the end of the watch.
StepLag stepLag(const std::vector<qint64>& acks, const std::vector<qint64>& sends, const std::vector<qint64>& seen,
    qint64 beginNs, qint64 endNs, qint64 nowNs);

// Still growing at the end of the step: a positive slope, or markers that were never seen.
bool growing(const StepLag& s);

// The knee: the first step whose p99 lag exceeds 10 x the first step's p99 and keeps growing through the step.
// The first step's p99 counts as at least floorMs (the resolution of the watch, e.g. the poll interval), so that a
// first step measured as 0 ms does not make every later millisecond a knee. nullopt: no knee.
constexpr double kKneeFactor = 10;
std::optional<size_t> kneeStep(const std::vector<StepLag>& steps, double floorMs);

} // namespace ReplicationKnee
