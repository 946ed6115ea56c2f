#include "ui/widgets/diskdeviceview.h"

#include "core/disk/diskresult.h"
#include "ui/charts/livechartview.h"

#include <QVBoxLayout>

DiskDeviceView::DiskDeviceView(QWidget* parent)
    : QWidget(parent)
    , m_latency(new LiveChartView(this))
{
    m_latency->setObjectName(QStringLiteral("deviceLatencyChart"));
    m_latency->setTitle(tr("Device latency (the disks' own counters, /sys/block/DEV/stat)"));
    m_latency->setAxisTitles(tr("Time (s)"), tr("ms/I/O"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_latency);
    clear();
}

QString DiskDeviceView::deviceSeries(const QString& label)
{
    return tr("device: %1").arg(label);
}

void DiskDeviceView::clear()
{
    m_latency->clear();
    m_latency->setPlaceholderText(tr("the disks' own latency appears here while a test runs"));
    m_order.clear();
    m_points.clear();
}

DiskDeviceView::Points DiskDeviceView::addSamples(
    const SampleBatch& samples, const Label& label, const Writes& writes, bool iops)
{
    Points fresh;
    QHash<QString, QList<QPointF>> latency;
    QStringList latencyOrder;
    for (const Sample& s : samples) {
        const DiskInterval interval = DiskInterval::fromSample(s);
        if (!interval.devices || interval.devices->isEmpty())
            continue;
        if (!m_points.contains(s.series))
            m_order << s.series;
        SeriesPoints& sp = m_points[s.series];
        const double secs = s.t - sp.lastT;
        sp.lastT = s.t;
        // Summed over the witnesses (the devices the record's cross-check reads).
        const DiskDevices& d = *interval.devices;
        using F = DiskDeviceFigures;
        const auto rb = DiskDeviceSum::witnesses(d, &F::readBytes), wb = DiskDeviceSum::witnesses(d, &F::writeBytes);
        const auto ri = DiskDeviceSum::witnesses(d, &F::readIos), wi = DiskDeviceSum::witnesses(d, &F::writeIos);
        const auto ms = DiskDeviceSum::witnesses(d, &F::ioMs);
        const bool write = writes(s.series);
        const auto bytes = write ? wb : rb;
        const auto ios = write ? wi : ri;
        if (secs > 0 && bytes)
            sp.mbPerSec << QPointF(s.t, *bytes / 1e6 / secs);
        if (secs > 0 && ios)
            sp.iops << QPointF(s.t, *ios / secs);
        if (secs > 0 && (iops ? ios : bytes))
            fresh[s.series] << (iops ? sp.iops : sp.mbPerSec).last();
        if (ri && wi && ms && *ri + *wi > 0) {
            const QString name = label(s.series);
            if (!latency.contains(name))
                latencyOrder << name;
            latency[name] << QPointF(s.t, *ms / (*ri + *wi));
        }
    }
    for (const QString& name : std::as_const(latencyOrder))
        m_latency->appendPoints(name, latency.value(name));
    return fresh;
}

void DiskDeviceView::finish()
{
    if (!seenDevices())
        m_latency->setPlaceholderText(tr("Not readable: no block device under this file system (tmpfs, network or "
                                         "FUSE), or /sys/block is not visible here."));
}

QList<QPointF> DiskDeviceView::throughput(const QString& series, bool iops) const
{
    const SeriesPoints sp = m_points.value(series);
    return iops ? sp.iops : sp.mbPerSec;
}
