#pragma once

#include "core/common/proberror.h"
#include "core/common/runrecord.h"
#include "core/ldap/ldaptarget.h"
#include "core/ldap/loadspec.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

class RunContext;

// How long until a write is everywhere (issue 13): the marker probe. A sequence number is written into the
// description of markerDn on the supplier, markerRate times a second; each consumer is read (base scope, every
// pollMs) and marker k counts as seen there when a value >= k is first read. Lag = time seen - time the
// supplier acknowledged the write, on one steady clock (one process reads every server). A marker seen before its
// acknowledgement arrived has lag 0 and is counted (seen_before_ack); one not seen yet makes the consumer
// "behind for at least" the age of the oldest unseen marker, and is never dropped: after the duration the probe
// waits up to graceS for the consumers to catch up, and what is still unseen is reported as such.
struct ReplicationSpec
{
    LdapTarget supplier;
    QList<LdapTarget> consumers;
    QString markerDn;
    double markerRate = 10; // markers per second
    double durationS = 10;
    int pollMs = 5;
    double intervalS = 1;
    double maxLagMs = 0; // > 0: a verdict per consumer on its p99 lag
    double graceS = 15; // after the duration, the wait for the consumers to see the last marker
    double failAfterS = 10; // the supplier's failure window: no write acknowledged for this long fails the run
    // Beside a write load on the supplier (core/experiments/replicationload.h); set it with ReplicationLoad::attach.
    std::optional<LdapLoadSpec> load;

    // Fields named as the CLI names them: marker-dn, marker-rate, duration, poll-ms, max-lag-ms, consumer.
    ProbeError validate() const;
    QJsonObject toJson() const;
};

namespace Experiments {

// kind "replication". intervals: {t, write_ok_per_s, consumers: {URI: {lag_ms: {p50, p99, max} | null, seen,
// behind, oldest_unseen_s, seen_before_ack, reachable}}}; summary: markers_written, write_errors,
// write_ok_per_s, method ("poll"), consumers: {URI: {lag_ms, markers_seen, unseen, behind_for_at_least_s,
// seen_before_ack, method, reachable}}, verdict_sentences. Warnings: consumer-unreachable, marker-not-restored.
// Fails (status failed) when the marker entry cannot be made, no consumer can be read, or the supplier
// acknowledges no write for failAfterS.
RunRecord runReplication(const ReplicationSpec& spec, RunContext& ctx);
std::function<RunRecord(RunContext&)> makeReplicationJob(const ReplicationSpec& spec);

} // namespace Experiments
