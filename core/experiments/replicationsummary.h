#pragma once

#include "core/common/runrecord.h"
#include "core/experiments/replicationfigures.h"
#include "core/experiments/replicationlag.h"
#include "core/ldap/loadresult.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// The replication record (kind "replication") read into typed values in one place: its summary (the marker probe's
// figures per consumer, the write load beside it and its ramp) and its intervals. The CLI printer, the Replication
// page's charts and topology and the report read these fields.
namespace ReplicationFigures {

// One consumer, as the summary or an interval has it.
struct ConsumerFigures
{
    QString uri;
    Lag lag, lagFromSend; // lagOf(lag_ms), lagOf(lag_from_send_ms)
    std::optional<ReplicationLag::Figures> lagFigures, lagFromSendFigures;
    // The summary's: markers seen, never seen (behind for at least that long), seen before the supplier's ack.
    std::optional<double> markersSeen, unseen, behindForAtLeastS, seenBeforeAck;
    // An interval's: markers behind now and the age of the oldest.
    double behind = 0, oldestUnseenS = 0;
    bool reachable = true;
    QString method; // empty: the record's (methodOf)
    QString vendor; // vendorText(): "" without vendor figures
    QString vendorLag; // " vendor 1,000.0 ms (last reading) (disagrees)": the CLI's per-interval note, "" without

    static ConsumerFigures fromJson(const QString& uri, const QJsonObject& c);
};
// "1.0/2.5/> 9.1" (p50/p99/max), "-" without figures: the CLI's lag cell.
QString lagTriple(const std::optional<ReplicationLag::Figures>& f);
// A count as a report cell: "n/a" without it.
QString cell(const std::optional<double>& v);

struct RampConsumer
{
    QString uri;
    std::optional<double> p50Ms, p99Ms, slopeMsPerS;
    int unseen = 0;
    bool knee = false;
};

struct RampStep
{
    int step = 0;
    std::optional<double> targetRate, writeRate;
    QList<RampConsumer> consumers;
};

struct Summary
{
    std::optional<double> markersWritten, writeErrors, markersMissed;
    std::optional<double> writeOkPerS; // with a load beside: the load's and the markers'
    std::optional<double> markerWriteOkPerS; // the markers' alone (written with a load beside)
    QString method;
    QList<ConsumerFigures> consumers; // in the summary's order
    QStringList discoveredConsumers;
    std::optional<LoadSummary> load; // the write load beside the probe
    std::optional<double> loadWriteOkPerS;
    bool ramped = false; // the load ramped: steps and the knee (or none)
    QList<RampStep> steps;
    std::optional<double> kneeWriteRate, kneeTargetRate;
    int kneeStep = 0;
    QString kneeConsumer;

    static Summary fromJson(const QJsonObject& summary);
    static Summary of(const RunRecord& r) { return fromJson(r.summary); }
    // The markers' own rate: marker_write_ok_per_s, else write_ok_per_s (a record without a load beside).
    double markerRate() const { return markerWriteOkPerS.value_or(writeOkPerS.value_or(0)); }
    const ConsumerFigures* consumer(const QString& uri) const;
};

struct Interval
{
    double t = 0;
    double writeOkPerS = 0, markersMissed = 0;
    QList<ConsumerFigures> consumers;

    static Interval fromJson(const QJsonObject& interval);
};

// spec.supplier.uri
QString supplierUri(const RunRecord& r);

} // namespace ReplicationFigures
