#pragma once

#include "core/common/sample.h"

#include <QHash>
#include <QList>
#include <QPointF>
#include <QWidget>

#include <functional>

class LiveChartView;

// The disks' own counters beside DirBench's figures, as the LDAP page shows the server's: each interval's
// `devices` (the deltas of /sys/block/DEV/stat, summed over the witnesses: the file system's own partition or
// loop device, else the disks under it) turned into
// device MB/s and IOPS per series, which the Disk page draws on its chart next to DirBench's lines, and the
// device latency (io_ms per I/O, iostat's await) on a chart of its own.
class DiskDeviceView final : public QWidget
{
    Q_OBJECT
public:
    explicit DiskDeviceView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(DiskDeviceView)

    // The name of the device line drawn beside a series of DirBench's ("device: seq-write").
    static QString deviceSeries(const QString& label);

    using Label = std::function<QString(const QString& series)>;
    // Whether the test of a series writes (seq-write, rand-write, commit, dd) or reads.
    using Writes = std::function<bool(const QString& series)>;
    using Points = QHash<QString, QList<QPointF>>; // by the samples' series
    void clear();
    // Takes the disk samples of a batch that carry `devices`; draws their latency and returns their device
    // throughput in the test's direction (a read test: the device's reads; MB/s, or IOPS when iops is set) by
    // series, for the page's chart. The other direction is not the test's (the record warns of it: device-other-io).
    Points addSamples(const SampleBatch& samples, const Label& label, const Writes& writes, bool iops);
    // At the end of a run: says so in the chart when no interval had the disks' counters.
    void finish();
    QList<QPointF> throughput(const QString& series, bool iops) const;
    bool seenDevices() const { return !m_order.isEmpty(); }
    LiveChartView* latencyChart() const { return m_latency; }

private:
    struct SeriesPoints
    {
        QList<QPointF> mbPerSec;
        QList<QPointF> iops;
        double lastT = 0;
    };

    LiveChartView* m_latency = nullptr;
    QStringList m_order;
    QHash<QString, SeriesPoints> m_points;
};
