#include "core/disk/diskresult.h"

#include "core/disk/diskjson_p.h"

#include <QJsonArray>
#include <QSet>

#include <cmath>

using namespace DiskJson;

namespace {

double round1(double v)
{
    return std::round(v * 10.0) / 10.0;
}

} // namespace

DiskLatency DiskLatency::of(const LatencyHistogram& h, bool full)
{
    DiskLatency l;
    if (h.count() == 0)
        return l;
    const auto us = [](uint64_t ns) { return round1(double(ns) / 1000.0); };
    l.mean = round1(h.mean() / 1000.0);
    l.p50 = us(h.percentile(0.50));
    l.p99 = us(h.percentile(0.99));
    l.max = us(h.max());
    if (full) {
        l.p95 = us(h.percentile(0.95));
        l.p999 = us(h.percentile(0.999));
        l.min = us(h.min());
    }
    return l;
}

QJsonObject DiskLatency::toJson() const
{
    QJsonObject o { { QStringLiteral("mean"), orNull(mean) }, { QStringLiteral("p50"), orNull(p50) },
        { QStringLiteral("p99"), orNull(p99) }, { QStringLiteral("max"), orNull(max) } };
    putIf(o, QStringLiteral("p95"), p95);
    putIf(o, QStringLiteral("p999"), p999);
    putIf(o, QStringLiteral("min"), min);
    return o;
}

DiskLatency DiskLatency::fromJson(const QJsonObject& o)
{
    DiskLatency l;
    l.mean = number(o, QStringLiteral("mean"));
    l.p50 = number(o, QStringLiteral("p50"));
    l.p95 = number(o, QStringLiteral("p95"));
    l.p99 = number(o, QStringLiteral("p99"));
    l.p999 = number(o, QStringLiteral("p999"));
    l.min = number(o, QStringLiteral("min"));
    l.max = number(o, QStringLiteral("max"));
    return l;
}

QJsonObject DiskDeviceFigures::toJson() const
{
    QJsonObject o { { QStringLiteral("name"), name }, { QStringLiteral("read_ios"), orNull(readIos) },
        { QStringLiteral("write_ios"), orNull(writeIos) }, { QStringLiteral("read_bytes"), orNull(readBytes) },
        { QStringLiteral("write_bytes"), orNull(writeBytes) }, { QStringLiteral("read_merges"), orNull(readMerges) },
        { QStringLiteral("write_merges"), orNull(writeMerges) }, { QStringLiteral("io_ms"), orNull(ioMs) },
        { QStringLiteral("busy_ms"), orNull(busyMs) } };
    if (!layer.isEmpty())
        o.insert(QStringLiteral("layer"), layer);
    if (witness)
        o.insert(QStringLiteral("witness"), *witness);
    return o;
}

DiskDeviceFigures DiskDeviceFigures::fromJson(const QJsonObject& o)
{
    DiskDeviceFigures d;
    d.name = o.value(QStringLiteral("name")).toString();
    d.readIos = number(o, QStringLiteral("read_ios"));
    d.writeIos = number(o, QStringLiteral("write_ios"));
    d.readBytes = number(o, QStringLiteral("read_bytes"));
    d.writeBytes = number(o, QStringLiteral("write_bytes"));
    d.readMerges = number(o, QStringLiteral("read_merges"));
    d.writeMerges = number(o, QStringLiteral("write_merges"));
    d.ioMs = number(o, QStringLiteral("io_ms"));
    d.busyMs = number(o, QStringLiteral("busy_ms"));
    d.layer = o.value(QStringLiteral("layer")).toString();
    if (o.value(QStringLiteral("witness")).isBool())
        d.witness = o.value(QStringLiteral("witness")).toBool();
    return d;
}

namespace DiskDeviceSum {

std::optional<double> witnesses(const DiskDevices& d, std::optional<double> DiskDeviceFigures::*field)
{
    double sum = 0;
    bool any = false;
    for (const DiskDeviceFigures& f : d) {
        if (!f.isWitness())
            continue;
        if (!(f.*field))
            return std::nullopt;
        sum += *(f.*field);
        any = true;
    }
    return any ? std::optional<double>(sum) : std::nullopt;
}

DiskDevices add(const DiskDevices& a, const DiskDevices& b)
{
    if (a.size() != b.size())
        return b;
    DiskDevices out = a;
    for (qsizetype i = 0; i < a.size(); ++i)
        for (auto field : { &DiskDeviceFigures::readIos, &DiskDeviceFigures::writeIos, &DiskDeviceFigures::readBytes,
                 &DiskDeviceFigures::writeBytes, &DiskDeviceFigures::readMerges, &DiskDeviceFigures::writeMerges,
                 &DiskDeviceFigures::ioMs, &DiskDeviceFigures::busyMs }) {
            auto& x = out[i].*field;
            const auto& y = b.at(i).*field;
            x = x && y ? std::optional<double>(*x + *y) : std::nullopt;
        }
    return out;
}

QJsonValue toJson(const std::optional<DiskDevices>& d)
{
    if (!d)
        return QJsonValue::Undefined;
    QJsonArray a;
    for (const DiskDeviceFigures& f : *d)
        a.append(f.toJson());
    return a;
}

std::optional<DiskDevices> fromJson(const QJsonValue& v)
{
    if (!v.isArray())
        return std::nullopt;
    DiskDevices out;
    const QJsonArray items = v.toArray();
    for (const auto& x : items)
        out.append(DiskDeviceFigures::fromJson(x.toObject()));
    return out;
}

} // namespace DiskDeviceSum

QJsonObject DiskInterval::toJson() const
{
    QJsonObject o = other;
    o.insert(QStringLiteral("t"), t);
    if (!series.isEmpty())
        o.insert(QStringLiteral("series"), series);
    o.insert(QStringLiteral("mb_per_s"), mbPerS);
    o.insert(QStringLiteral("iops"), iops);
    o.insert(QStringLiteral("bytes"), bytes);
    o.insert(QStringLiteral("ops"), ops);
    o.insert(QStringLiteral("latency_us"), latencyUs.toJson());
    if (devices)
        o.insert(QStringLiteral("devices"), DiskDeviceSum::toJson(devices));
    return o;
}

DiskInterval DiskInterval::fromJson(const QJsonObject& o)
{
    static const QSet<QString> known { QStringLiteral("t"), QStringLiteral("series"), QStringLiteral("mb_per_s"),
        QStringLiteral("iops"), QStringLiteral("bytes"), QStringLiteral("ops"), QStringLiteral("latency_us"),
        QStringLiteral("devices") };
    DiskInterval i;
    i.t = o.value(QStringLiteral("t")).toDouble();
    i.series = o.value(QStringLiteral("series")).toString();
    i.mbPerS = o.value(QStringLiteral("mb_per_s")).toDouble();
    i.iops = o.value(QStringLiteral("iops")).toDouble();
    i.bytes = o.value(QStringLiteral("bytes")).toDouble();
    i.ops = o.value(QStringLiteral("ops")).toDouble();
    i.latencyUs = DiskLatency::fromJson(o.value(QStringLiteral("latency_us")).toObject());
    i.devices = DiskDeviceSum::fromJson(o.value(QStringLiteral("devices")));
    i.other = unknownKeys(o, known);
    return i;
}

Sample DiskInterval::toSample() const
{
    Sample s;
    s.series = series;
    s.t = t;
    s.values = toJson();
    s.values.remove(QStringLiteral("t"));
    s.values.remove(QStringLiteral("series"));
    return s;
}

DiskInterval DiskInterval::fromSample(const Sample& s)
{
    return fromJson(s.toJson());
}

QList<DiskInterval> DiskInterval::listFromJson(const QJsonArray& a)
{
    QList<DiskInterval> out;
    QHash<QString, double> lastT;
    for (const auto& v : a) {
        DiskInterval i = fromJson(v.toObject());
        i.seconds = i.t - lastT.value(i.series, 0.0);
        lastT[i.series] = i.t;
        out.append(i);
    }
    return out;
}
