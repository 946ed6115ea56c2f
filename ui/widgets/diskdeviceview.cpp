#include "ui/widgets/diskdeviceview.h"

#include "ui/charts/livechartview.h"

#include <QJsonArray>
#include <QVBoxLayout>

namespace {

// The sum of one field over the interval's witnesses (the devices the record's cross-check reads: every one when
// the record does not say); nullopt when any of them could not say.
std::optional<double> total(const QJsonArray& devices, const char* key)
{
    double sum = 0;
    for (const QJsonValue& d : devices) {
        if (!d.toObject().value(QStringLiteral("witness")).toBool(true))
            continue;
        const QJsonValue v = d.toObject().value(QLatin1String(key));
        if (!v.isDouble())
            return std::nullopt;
        sum += v.toDouble();
    }
    return sum;
}

} // namespace

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

DiskDeviceView::Points DiskDeviceView::addSamples(const SampleBatch& samples, const Label& label, bool iops)
{
    Points fresh;
    QHash<QString, QList<QPointF>> latency;
    QStringList latencyOrder;
    for (const Sample& s : samples) {
        const QJsonValue devices = s.values.value(QStringLiteral("devices"));
        if (!devices.isArray() || devices.toArray().isEmpty())
            continue;
        if (!m_points.contains(s.series))
            m_order << s.series;
        SeriesPoints& sp = m_points[s.series];
        const double secs = s.t - sp.lastT;
        sp.lastT = s.t;
        const QJsonArray d = devices.toArray();
        const auto rb = total(d, "read_bytes"), wb = total(d, "write_bytes");
        const auto ri = total(d, "read_ios"), wi = total(d, "write_ios"), ms = total(d, "io_ms");
        if (secs > 0 && rb && wb)
            sp.mbPerSec << QPointF(s.t, (*rb + *wb) / 1e6 / secs);
        if (secs > 0 && ri && wi)
            sp.iops << QPointF(s.t, (*ri + *wi) / secs);
        if (secs > 0 && (iops ? ri && wi : rb && wb))
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
