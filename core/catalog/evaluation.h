#pragma once

#include "core/catalog/catalog.h"
#include "core/catalog/models.h"

#include <QJsonObject>
#include <QString>

#include <optional>

// A disk type at a size, on a VM, for a test: the disk's limits (sustained and burst), the VM's caps, and what
// the test's queue depth × block size can drive at the disk's latency (Little's law: throughput = outstanding
// I/Os × I/O size / latency). The effective limit is the smallest, and the evaluation says which one binds.
// Every throughput here is MB/s (10^6 bytes/s), whatever unit the provider publishes.
namespace CloudCatalog {

struct Workload
{
    int queueDepth = 0; // 0: not known (no queue-depth ceiling)
    double blockKib = 0; // 0: not known (limits compared in MB/s and IOPS separately)
    Access access = Access::Write;
    std::optional<double> latencyMs; // measured latency per I/O; default: the catalog's typical latency
};

struct Limit
{
    std::optional<double> mbps;
    std::optional<double> iops;
};

struct Evaluation
{
    const DiskType* disk = nullptr;
    const Vm* vm = nullptr; // nullptr: no VM chosen
    double requestedGib = 0;
    Workload workload;
    DiskLimits raw; // the model's output, native units
    Limit diskLimit; // sustained
    Limit diskBurst; // empty when the disk does not burst
    Limit vmLimit; // sustained (AWS baseline, Azure uncached)
    Limit vmBurst; // AWS maximum, 30 min per 24 h
    double latencyMs = 0;
    QString latencyBasis; // measured | published | assumption
    Limit queueCeiling; // what QD × block can drive at latencyMs (needs both)
    Limit effective; // min(disk, VM, queue) at the workload's block size
    Limit effectiveBurst; // the same with the burst limits
    QString binding; // disk | vm | queue-depth | none
    QString bindingText; // a sentence

    QJsonObject toJson() const;
    QString summaryText() const; // a few lines for people
};

// Converts the disk type's native throughput unit to MB/s.
double toMBps(const DiskType& d, double nativeThroughput);
double fromMBps(const DiskType& d, double mbps);
// What a limit allows at a block size: min(mbps, iops × block) in MB/s, counting I/Os as the provider does.
std::optional<double> mbpsAtBlock(const Limit& l, double blockKib, double ioUnitKib);

// `field` names the input at fault ("size-gb", "provisioned-iops", ...).
std::optional<Evaluation> evaluate(const DiskType& d, double sizeGib, const Vm* vm, const Provisioning& p,
    const Workload& w, QString* field, QString* error);

} // namespace CloudCatalog
