#pragma once

#include "core/disk/diskresult.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>

struct RunRecord;

// The device as witness: the whole disks under a file system and their own counters (/sys/block/DEV/stat).
namespace BlockDevices {

// The mount that holds a path (/proc/self/mountinfo, the longest mount point that prefixes it).
struct Mount
{
    QString mountPoint;
    QString fsType;
    QString source; // "/dev/vda1", a ZFS dataset, "tmpfs", ...
    QStringList options; // the mount's and the super block's options, in that order
    bool ok = false;
};
Mount mountOf(const QString& path);

// The whole disks that hold path's file system: a partition is replaced by its disk, device-mapper/LVM and md by
// their members (/sys/block/X/slaves, recursively), a loop device by the disks under its backing file where that
// file can be found (else the loop device itself). Empty where the file system has no block device (tmpfs, NFS).
QStringList disksUnder(const QString& path);

// What the disk test samples: the file system's own device first ("filesystem": a partition, loop, dm or md
// device) where it is not itself one of the disks, then the disks ("disk"). The witness, whose bytes the
// cross-check compares with the test's, is the file system's own device when that is a partition or a loop
// device (no other file system's work passes through it, so it is not blurred by the rest of the disk), else
// the disks (a dm or md layer may compress, dedupe or mirror below itself).
struct Device
{
    QString name;
    QString layer; // "filesystem" | "disk"
    bool witness = true;
};
QList<Device> stackUnder(const QString& path);

// One reading of /sys/block/NAME/stat.
struct Counters
{
    bool ok = false;
    uint64_t readIos = 0, readMerges = 0, readSectors = 0, readMs = 0;
    uint64_t writeIos = 0, writeMerges = 0, writeSectors = 0, writeMs = 0;
    uint64_t busyMs = 0;
};
Counters read(const QString& name);

// {name, read_ios, write_ios, read_bytes, write_bytes, read_merges, write_merges, io_ms, busy_ms} from a to b;
// every figure null when either reading failed. io_ms is the time the reads and writes took, summed (fields 4
// and 8 of the stat file), so io_ms / (read_ios + write_ios) is the mean device latency (iostat's await);
// busy_ms is the time the device had any I/O in flight (field 10).
DiskDeviceFigures delta(const QString& name, const Counters& a, const Counters& b);

// {name, model, rotational, scheduler, write_cache}; null where /sys does not say.
QJsonObject describe(const QString& name);

// Reads the counters of a fixed set of devices: start() at the beginning of the measured span, next() at each
// interval's end (the deltas since the call before, each with its layer and witness flag), total() for the
// whole span up to the last next().
class Sampler
{
public:
    explicit Sampler(QList<Device> devices);
    bool isEmpty() const { return m_devices.isEmpty(); }
    void start();
    DiskDevices next();
    DiskDevices total() const;
    // Bytes the witnesses wrote (write = true) or read since start(); -1 when any counter was unreadable.
    double bytesSinceStart(bool write) const;

private:
    QList<Counters> readAll() const;
    DiskDeviceFigures entry(qsizetype i, const Counters& a, const Counters& b) const;
    QList<Device> m_devices;
    QList<Counters> m_start;
    QList<Counters> m_last;
};

// The end-of-part cross-check: the witnesses' bytes in the test's direction against the bytes the test moved. Warns
// `device-saw-less` below kLessRatio and `device-saw-more` above kMoreRatio, with the ratio. Parts that moved
// less than kMinCheckedBytes are not judged (file-system metadata alone can be a few MiB). Bytes the witnesses moved
// the other way (a read test's writes) beyond kMinCheckedBytes and 5 % of the test's are `device-other-io`, with
// their size.
inline constexpr double kLessRatio = 0.8;
inline constexpr double kMoreRatio = 1.5;
inline constexpr double kMinCheckedBytes = 32.0 * 1024 * 1024;
void crossCheck(const QString& part, bool write, double testBytes, const Sampler& devices, RunRecord& rec);

// environment.devices: describe() of each device, with its layer and witness flag.
void addToEnvironment(QJsonObject& environment, const QList<Device>& devices);

} // namespace BlockDevices
