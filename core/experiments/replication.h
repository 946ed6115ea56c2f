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
// description of markerDn on the supplier, markerRate times a second; each consumer is watched (`watch`: pushed
// through RFC 4533 sync or a persistent search where it offers one, else read with base-scope searches every
// pollMs) and marker k counts as seen there when a value >= k is first seen. Lag = time seen - time the
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
    QString watch = QStringLiteral("auto"); // auto (push where offered, else poll) | push (refused where not) | poll
    double intervalS = 1;
    double maxLagMs = 0; // > 0: a verdict per consumer on its p99 lag
    double graceS = 15; // after the duration, the wait for the consumers to see the last marker
    double failAfterS = 10; // the supplier's failure window: no write acknowledged for this long fails the run
    // Consumers the supplier's replication agreements point at (389-ds) that `consumers` does not name are added
    // (summary.discovered_consumers); with discovery on, `consumers` may be empty. They connect as
    // consumerTemplate does (its uri replaced; an empty uri: as the supplier).
    bool discoverConsumers = true;
    LdapTarget consumerTemplate;
    // Beside a write load on the supplier (core/experiments/replicationload.h); set it with ReplicationLoad::attach.
    std::optional<LdapLoadSpec> load;

    // Fields named as the CLI names them: marker-dn, marker-rate, duration, poll-ms, watch, max-lag-ms, consumer.
    ProbeError validate() const;
    QJsonObject toJson() const;
};

namespace Experiments {

// kind "replication". intervals: {t, write_ok_per_s, consumers: {URI: {lag_ms: {p50, p99, max} | null, seen,
// behind, oldest_unseen_s, seen_before_ack, reachable}}}; summary: markers_written, write_errors,
// write_ok_per_s, method (the consumers' one, or "mixed"), consumers: {URI: {lag_ms, markers_seen, unseen,
// behind_for_at_least_s, seen_before_ack, method ("sync" | "psearch" | "poll" | "unknown": never read, refused),
// reachable, discovered, vendor}}, discovered_consumers, verdict_sentences. Each interval's and the summary's
// consumer has `vendor`: what the server says (core/experiments/replicationvendor.h). Warnings:
// consumer-unreachable, marker-not-restored, vendor-lag-disagrees, consumer-discovery. Fails (status failed) when
// the marker entry cannot be made, no consumer can be read, watch "push" meets a consumer that offers neither
// control, or the supplier acknowledges no write for failAfterS.
RunRecord runReplication(const ReplicationSpec& spec, RunContext& ctx);
std::function<RunRecord(RunContext&)> makeReplicationJob(const ReplicationSpec& spec);

} // namespace Experiments
