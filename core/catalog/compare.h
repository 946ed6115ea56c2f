#pragma once

#include "core/catalog/catalog.h"
#include "core/catalog/evaluation.h"
#include "core/common/runrecord.h"

#include <QJsonArray>
#include <QList>
#include <QString>

#include <optional>

// Measured vs listed: a disk test (a RunRecord of kind "disk", or a row of the seed's table) beside a catalog
// entry, with flags of stable codes that say what the gap means.
namespace CloudCatalog {

struct Measured
{
    QString label; // "seq-write on /var/tmp" or the seed case
    QString test; // disk profile: dd, seq-write, ...
    double mbps = 0;
    bool upperBound = false; // the seed's "< 50 MB/s"
    std::optional<double> iops;
    int queueDepth = 0; // 0: not known (dd: buffered, the kernel's writeback decides)
    double blockKib = 0;
    std::optional<double> latencyMs; // measured p50 per I/O
    bool buffered = false;
    QJsonArray intervals; // {t, mb_per_s, ...}
};

// Reads a disk record; `test` picks a sub-test of a suite ("" = seq-write if present, else the first).
std::optional<Measured> measuredFromRecord(const RunRecord& rec, const QString& test, QString* error);
// The tests a disk record can be compared by: a suite's sub-tests, or its one profile.
QStringList testsOf(const RunRecord& rec);

struct Knee
{
    bool found = false;
    double atSeconds = 0;
    double beforeMbps = 0;
    double afterMbps = 0;
};

// A sustained drop in the interval series: the split that maximises mean(before) / mean(after), kept when
// after <= (1 - minDrop) × before with at least minSamples on each side.
Knee findKnee(const QJsonArray& intervals, double minDrop = 0.3, int minSamples = 3);

struct Flag
{
    QString code; // above-published-max | only-while-bursting | far-below-listed | queue-depth-low | vm-cap |
                  // burst-knee | no-vm-figure
    QString message;
};

struct Comparison
{
    Measured measured;
    Evaluation evaluation; // at the test's queue depth and block size, with its measured latency
    std::optional<double> listedMbps; // the disk's sustained limit
    std::optional<double> listedMaxMbps; // the disk's maximum including burst
    std::optional<double> vmCapMbps; // sustained
    std::optional<double> vmMaxMbps; // burst
    std::optional<double> ceilingMbps; // effective reachable limit (sustained)
    Knee knee;
    QList<Flag> flags;

    bool hasFlag(const QString& code) const;
    QJsonObject summaryJson() const;
    QString text() const;
};

std::optional<Comparison> compare(const Measured& m, const DiskType& d, double sizeGib, const Vm* vm,
    const Provisioning& p, QString* field, QString* error);

} // namespace CloudCatalog
