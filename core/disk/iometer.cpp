#include "core/disk/iometer.h"

#include "core/disk/blockdevices.h"
#include "core/run/runcontext.h"

#include <ctime>

namespace {

double us(uint64_t ns)
{
    return double(ns) / 1000.0;
}

double round1(double v)
{
    return double(qint64(v * 10.0 + (v >= 0 ? 0.5 : -0.5))) / 10.0;
}

} // namespace

QJsonObject latencySummaryUs(const LatencyHistogram& h, bool full)
{
    QJsonObject o;
    if (h.count() == 0) {
        for (const char* k : { "mean", "p50", "p99", "max" })
            o.insert(QLatin1String(k), QJsonValue::Null);
        return o;
    }
    o.insert(QStringLiteral("mean"), round1(h.mean() / 1000.0));
    o.insert(QStringLiteral("p50"), round1(us(h.percentile(0.50))));
    if (full)
        o.insert(QStringLiteral("p95"), round1(us(h.percentile(0.95))));
    o.insert(QStringLiteral("p99"), round1(us(h.percentile(0.99))));
    if (full) {
        o.insert(QStringLiteral("p999"), round1(us(h.percentile(0.999))));
        o.insert(QStringLiteral("min"), round1(us(h.min())));
    }
    o.insert(QStringLiteral("max"), round1(us(h.max())));
    return o;
}

IoMeter::IoMeter(RunContext& ctx, QString series, int intervalMs)
    : m_ctx(ctx)
    , m_series(std::move(series))
    , m_intervalNs(uint64_t(intervalMs) * 1000000ULL)
{ }

uint64_t IoMeter::nowNs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000000ULL + uint64_t(ts.tv_nsec);
}

void IoMeter::begin()
{
    m_t0 = m_lastEmit = nowNs();
    m_end = 0;
    if (m_devices)
        m_devices->start();
}

void IoMeter::record(uint64_t latencyNs, uint64_t bytes)
{
    QMutexLocker lock(&m_mutex);
    m_interval.record(latencyNs);
    m_intervalBytes += bytes;
}

void IoMeter::tick()
{
    const uint64_t now = nowNs();
    if (now - m_lastEmit >= m_intervalNs)
        emitInterval(m_lastEmit + ((now - m_lastEmit) / m_intervalNs) * m_intervalNs);
}

void IoMeter::end()
{
    tick();
    const uint64_t now = nowNs();
    QMutexLocker lock(&m_mutex);
    const uint64_t tailOps = m_interval.count();
    const uint64_t tailNs = now - m_lastEmit;
    if (tailOps > 0 && tailNs < m_intervalNs / 4 && !m_intervals.isEmpty()) {
        // Too short to be a rate of its own: fold it into the interval before it (in the record).
        m_prev.merge(m_interval);
        m_prevBytes += m_intervalBytes;
        m_total.merge(m_interval);
        m_totalBytes += m_intervalBytes;
        m_interval.reset();
        m_intervalBytes = 0;
        lock.unlock();
        QJsonObject folded = makeSample(m_prev, m_prevBytes, m_prevStart, now).toJson();
        if (m_devices)
            folded.insert(QStringLiteral("devices"),
                BlockDevices::sum(
                    m_intervals.last().toObject().value(QStringLiteral("devices")).toArray(), m_devices->next()));
        m_intervals.replace(m_intervals.size() - 1, folded);
        m_lastEmit = now;
    } else if (tailOps > 0 || tailNs >= m_intervalNs / 2) {
        lock.unlock();
        emitInterval(now);
    }
    m_end = now;
}

Sample IoMeter::makeSample(const LatencyHistogram& h, uint64_t bytes, uint64_t from, uint64_t to) const
{
    const double secs = double(to - from) / 1e9;
    Sample s;
    s.series = m_series;
    s.t = double(qint64(double(to - m_t0) / 1e6 + 0.5)) / 1000.0; // milliseconds
    s.values.insert(QStringLiteral("mb_per_s"), secs > 0 ? round1(double(bytes) / 1e6 / secs) : 0.0);
    s.values.insert(QStringLiteral("iops"), secs > 0 ? round1(double(h.count()) / secs) : 0.0);
    s.values.insert(QStringLiteral("latency_us"), latencySummaryUs(h, false));
    s.values.insert(QStringLiteral("bytes"), double(bytes));
    s.values.insert(QStringLiteral("ops"), double(h.count()));
    return s;
}

void IoMeter::emitInterval(uint64_t at)
{
    LatencyHistogram h;
    uint64_t bytes = 0;
    {
        QMutexLocker lock(&m_mutex);
        h = m_interval;
        bytes = m_intervalBytes;
        m_total.merge(m_interval);
        m_totalBytes += m_intervalBytes;
        m_interval.reset();
        m_intervalBytes = 0;
    }
    Sample s = makeSample(h, bytes, m_lastEmit, at);
    if (m_devices)
        s.values.insert(QStringLiteral("devices"), m_devices->next());
    m_prev = h;
    m_prevBytes = bytes;
    m_prevStart = m_lastEmit;
    m_lastEmit = at;
    m_intervals.append(s.toJson());
    m_ctx.addSample(std::move(s));
}

double IoMeter::elapsedSec() const
{
    const uint64_t stop = m_end ? m_end : nowNs();
    return double(stop - m_t0) / 1e9;
}

uint64_t IoMeter::ops() const
{
    QMutexLocker lock(&m_mutex);
    return m_total.count() + m_interval.count();
}

QJsonObject IoMeter::summary() const
{
    LatencyHistogram all;
    uint64_t bytes = 0;
    {
        QMutexLocker lock(&m_mutex);
        all = m_total;
        all.merge(m_interval);
        bytes = m_totalBytes + m_intervalBytes;
    }
    const double secs = elapsedSec();
    QJsonObject o;
    o.insert(QStringLiteral("mb_per_s"), secs > 0 ? round1(double(bytes) / 1e6 / secs) : 0.0);
    o.insert(QStringLiteral("iops"), secs > 0 ? round1(double(all.count()) / secs) : 0.0);
    o.insert(QStringLiteral("latency_us"), latencySummaryUs(all, true));
    o.insert(QStringLiteral("bytes"), double(bytes));
    o.insert(QStringLiteral("ops"), double(all.count()));
    o.insert(QStringLiteral("seconds"), double(qint64(secs * 1e6)) / 1e6);
    o.insert(QStringLiteral("latency_histogram_ns"), all.toJson());
    return o;
}
