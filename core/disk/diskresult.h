#pragma once

#include "core/common/histogram.h"
#include "core/common/sample.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

// The typed figures of a disk test as they cross the core boundary: what the engine hands over and what the CLI,
// the GUI, the requirements and comparisons read. Their JSON (a record's `intervals[]` and `summary`, DESIGN.md's
// contract) is written and read here only, with exactly the keys records have always had: a record read and
// written again is the same JSON (keys this version does not know are kept in `other`).

// What a sustained test's throughput is counted in: MB/s (sequential) or IOPS (random, commit).
enum class DiskRate
{
    MBps,
    Iops
};

// Latency percentiles in microseconds (`latency_us`); null where nothing was measured. Intervals carry mean, p50,
// p99 and max; summaries also p95, p999 and min.
struct DiskLatency
{
    std::optional<double> mean, p50, p95, p99, p999, min, max;

    static DiskLatency of(const LatencyHistogram& ns, bool full);
    QJsonObject toJson() const; // mean, p50, p99, max always (null when absent); p95, p999, min when present
    static DiskLatency fromJson(const QJsonObject& o);
};

// One device's counters over an interval or a whole part (deltas of /sys/block/DEV/stat); null where unreadable.
struct DiskDeviceFigures
{
    QString name;
    std::optional<double> readIos, writeIos, readBytes, writeBytes, readMerges, writeMerges, ioMs, busyMs;
    QString layer; // "filesystem" | "disk"; empty in records made before layers
    std::optional<bool> witness; // absent in records made before witnesses: every device counts

    bool isWitness() const { return witness.value_or(true); }
    QJsonObject toJson() const;
    static DiskDeviceFigures fromJson(const QJsonObject& o);
};
using DiskDevices = QList<DiskDeviceFigures>;

namespace DiskDeviceSum {
// One field summed over the witnesses; nullopt when any of them could not say (or there is none).
std::optional<double> witnesses(const DiskDevices& d, std::optional<double> DiskDeviceFigures::*field);
// Two intervals' deltas of the same devices added (an interval that absorbs the next one); `b` when they differ.
DiskDevices add(const DiskDevices& a, const DiskDevices& b);
QJsonValue toJson(const std::optional<DiskDevices>& d);
std::optional<DiskDevices> fromJson(const QJsonValue& v);
} // namespace DiskDeviceSum

// One interval of a disk test (a record's `intervals[i]`, a live Sample's values).
struct DiskInterval
{
    QString series; // "" for a single series
    double t = 0; // seconds since the measured phase of the series began, at the interval's end
    std::optional<double> seconds; // its length where the engine knows it (not in the record)
    double mbPerS = 0;
    double iops = 0;
    double bytes = 0;
    double ops = 0;
    DiskLatency latencyUs;
    std::optional<DiskDevices> devices; // absent in records made before the witness
    QJsonObject other;

    QJsonObject toJson() const; // with "t" and, when set, "series"
    static DiskInterval fromJson(const QJsonObject& o);
    Sample toSample() const;
    static DiskInterval fromSample(const Sample& s);
    static QList<DiskInterval> listFromJson(const QJsonArray& a); // fills `seconds` from the t's of each series
};

// summary.steady_state (core/disk/steadystate.h has the rule).
struct DiskSteadyState
{
    bool evaluated = false;
    int rounds = 0;
    bool reached = false;
    std::optional<double> atS; // end of the first steady window
    int windowS = 5;
    bool cacheAnswered = false;
    DiskRate rate = DiskRate::MBps;
    std::optional<double> value; // the window's average, in `rate`
    std::optional<int> reachedIn, of; // over repeats: how many reached, of how many

    static QString rateKey(DiskRate rate); // "mb_per_s" | "iops"
    QJsonObject toJson() const;
    static DiskSteadyState fromJson(const QJsonObject& o);
};

// summary.spread.<figure>: over repeats.
struct DiskSpread
{
    double min = 0, median = 0, max = 0, cv = 0;
    QJsonObject toJson() const;
    static DiskSpread fromJson(const QJsonObject& o);
};

// A test's summary (a record's `summary`, a suite's `summary.tests.<name>`, a repeat's `summary.repeats[i]`). A
// suite's top level has `tests` and no figures of its own.
struct DiskSummary
{
    QString test; // a single test's name ("seq-write", "rand-read qd8"); a suite part's key in `tests`
    std::optional<double> mbPerS, iops, bytes, ops, seconds;
    DiskLatency latencyUs;
    QJsonValue latencyHistogramNs = QJsonValue::Undefined; // the whole histogram (sparse), when kept
    std::optional<double> setupS; // file and buffer setup, not in `seconds`
    std::optional<DiskDevices> devices; // the devices' totals over the part
    bool hasDeviceBytesBeforeSync = false; // dd only
    std::optional<double> deviceBytesBeforeSync; // null when unreadable
    std::optional<double> commitsPerS;
    std::optional<DiskSteadyState> steadyState;
    bool complete = true; // false: the part failed or was cancelled
    std::vector<DiskSummary> repeats; // more than one: this summary is their median
    std::optional<DiskSpread> spreadMbPerS, spreadIops;
    bool suite = false; // a suite's top level (`tests`, even when no part finished)
    std::vector<DiskSummary> tests; // a suite's parts, each named by `test`
    QJsonObject other;

    bool hasRates() const { return mbPerS || iops; }
    bool isSuite() const { return suite || !tests.empty(); }
    // A figure by its requirement path ("mb_per_s", "iops", "commits_per_s", "seconds", "latency_us.p99", ...).
    std::optional<double> metric(const QString& path) const;
    const DiskSummary* part(const QString& name) const; // a suite's part, or this one when it is that test
    // The figure a reader looks for, as every front end prints it: MB/s for sequential tests and dd, IOPS for random,
    // commits/s for commit ("" when the part measured none).
    QString figureText() const;
    // "seq-write 312.4 MB/s, rand-read 2,000 IOPS": each part's figure (a suite), or the single test's.
    QString headlineText() const;

    QJsonObject toJson() const;
    static DiskSummary fromJson(const QJsonObject& o);
};
