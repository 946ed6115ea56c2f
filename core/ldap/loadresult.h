#pragma once

#include "core/ldap/loadstats.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <map>
#include <optional>

// The typed figures of an LDAP load as they cross the core boundary: what the load generator hands over and what
// the CLI, the GUI, the history, comparisons and reports read. Their JSON (the record's `intervals[]` and `summary`,
// DESIGN.md's contract) is written and read here only.

// Latency percentiles in milliseconds; null where nothing was measured.
struct LatencyFigures
{
    std::optional<double> mean, p50, p95, p99, p999, max, min;

    static LatencyFigures of(const LatencyHistogram& ns);
    QJsonObject toJson(bool full) const; // full: also p999 and min (summaries)
    static LatencyFigures fromJson(const QJsonObject& o);
};

// One kind of operation, or all of them, over one interval or the whole measured phase.
struct OpFigures
{
    double ops = 0; // completed (succeeded or failed)
    double ok = 0; // succeeded
    double errors = 0;
    double entries = 0;
    double noEntry = 0;
    double timeouts = 0;
    double opsPerS = 0;
    double okPerS = 0;
    double entriesPerS = 0;
    std::map<int, double> resultCodes;
    LatencyFigures latencyMs;
    QJsonObject latencyHistogramNs; // an interval's own histogram (LdapLoadSpec::intervalHistograms), else empty
    bool okDerived = false; // read from a record older than `ok`: ok = ops - errors

    static OpFigures of(const LoadCounts& c, double seconds);
    // The counts back from the figures and their histogram (latencyHistogramNs); exact when it was kept.
    LoadCounts counts() const;
    QJsonObject toJson(bool full) const;
    static OpFigures fromJson(const QJsonObject& o);
    // The most frequent failing result codes, most first: "155,323 × No such object (32)".
    QString topErrors(int count = 3) const;
};

using OpFiguresByKind = std::map<QString, OpFigures>; // "search", "modify", ... (LdapLoadSpec::opName)

// One interval of a load (a record's `intervals[i]`).
struct LoadInterval
{
    double t = 0; // seconds since the measured phase began, at the interval's end
    double seconds = 0; // its length
    OpFigures all;
    OpFiguresByKind byOperation; // mixed runs only
    double reconnects = 0;
    double connectFailures = 0; // attempts to make a lost connection again that failed
    double missed = 0;
    std::optional<double> targetRate;
    std::optional<int> step;
    std::optional<int> outstanding; // an outstanding ramp's step value
    std::optional<int> agentsReporting; // a run of several agents: how many delivered this interval
    QJsonValue server = QJsonValue::Null; // the server's own counters over the interval (MonitorReader)

    QJsonObject toJson() const;
    static LoadInterval fromJson(const QJsonObject& o);
};

// The whole measured phase (a record's `summary`).
struct LoadSummary
{
    OpFigures all;
    OpFiguresByKind byOperation;
    double seconds = 0;
    double reconnects = 0;
    double connectFailures = 0;
    double missed = 0;
    LatencyFigures sendLagMs; // open loop: scheduled time to the write that sent the operation
    QJsonObject sendLagHistogramNs; // open loop: the send lags' histogram (sparse), so that hosts merge exactly
    std::optional<double> clientCpuS; // the whole process (GUI and disk threads included)
    std::optional<double> loadCpuS; // the load threads only (their thread CPU clocks)
    std::optional<int> setupResultCode; // the setup connection failed with this code
    std::optional<int> cleanupRemoved;
    int bindConnections = 0; // extra connections for binds in a mix, in all
    QJsonObject latencyHistogramNs; // the run's whole latency histogram (sparse), when kept
    QJsonValue server = QJsonValue::Null;

    std::optional<double> loadCpuUsPerOp() const;
    std::optional<double> clientCpuUsPerOp() const;
    QJsonObject toJson() const;
    static LoadSummary fromJson(const QJsonObject& o);
};

// An open-loop run's send lag, judged the same way for the LDAP load and the replay: the sentence of the warning
// "schedule-late" when 1 % of the operations left more than kScheduleLateNs after their scheduled time, else empty.
inline constexpr uint64_t kScheduleLateNs = 1000000ULL;
QString scheduleLateMessage(const LatencyHistogram& sendLagNs);

// The measured window on the wall clock (ns since the epoch, as strings: doubles lose nanoseconds), from two
// CLOCK_MONOTONIC instants: {"start", "end"}, where the server's own log of the same operations lines up.
QJsonObject windowEpochJson(uint64_t monoStartNs, uint64_t monoEndNs);
