#include "core/disk/iometer.h"

#include "core/disk/blockdevices.h"
#include "core/run/runcontext.h"

#include <algorithm>
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
    , m_clock(m_intervalNs, 0)
{ }

uint64_t IoMeter::nowNs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000000ULL + uint64_t(ts.tv_nsec);
}

uint64_t IoMeter::Recorder::complete(uint64_t startNs, uint64_t bytes)
{
    std::lock_guard lock(m_mutex);
    const uint64_t done = nowNs();
    add(done, done > startNs ? done - startNs : 0, bytes);
    return done;
}

void IoMeter::Recorder::recordAt(uint64_t doneNs, uint64_t latencyNs, uint64_t bytes)
{
    std::lock_guard lock(m_mutex);
    add(doneNs, latencyNs, bytes);
}

void IoMeter::Recorder::add(uint64_t doneNs, uint64_t latencyNs, uint64_t bytes)
{
    const int64_t index = std::max<int64_t>(m_clock.index(doneNs), 0);
    if (index != m_currentIndex || !m_current) {
        auto& slot = m_open[index];
        if (!slot)
            slot = std::make_unique<Bucket>();
        m_current = slot.get();
        m_currentIndex = index;
    }
    m_current->latency.record(latencyNs);
    m_current->bytes += bytes;
}

void IoMeter::Recorder::takeBefore(int64_t before, Buckets& into)
{
    std::lock_guard lock(m_mutex);
    while (!m_open.empty() && m_open.begin()->first < before) {
        auto node = m_open.extract(m_open.begin());
        if (node.key() == m_currentIndex)
            m_current = nullptr;
        auto& slot = into[node.key()];
        if (slot) {
            slot->latency.merge(node.mapped()->latency);
            slot->bytes += node.mapped()->bytes;
        } else {
            slot = std::move(node.mapped());
        }
    }
}

IoMeter::Recorder& IoMeter::newRecorder()
{
    m_recorders.push_back(std::make_unique<Recorder>(m_clock));
    return *m_recorders.back();
}

void IoMeter::begin()
{
    m_t0 = m_lastEmit = nowNs();
    m_clock.start(m_t0);
    m_next = 0;
    m_end = 0;
    if (m_devices)
        m_devices->start();
}

// An I/O that completed before `now` was recorded under its recorder's lock with a clock read inside it: either
// that happened before this harvest takes the lock, or the clock was read after it, hence after `now`. So when
// `before` is the index of `now`, no I/O of an earlier interval can still arrive.
void IoMeter::harvest(int64_t before)
{
    for (auto& r : m_recorders)
        r->takeBefore(before, m_pending);
}

void IoMeter::tick()
{
    const int64_t current = m_clock.index(nowNs());
    if (current <= m_next)
        return;
    harvest(current);
    // A late tick closes several intervals at once: they go out as one, like the device counters read now.
    emitThrough(current - 1, m_clock.end(current - 1));
}

void IoMeter::emitThrough(int64_t lastIndex, uint64_t endNs)
{
    Bucket b;
    while (!m_pending.empty() && m_pending.begin()->first <= lastIndex) {
        b.latency.merge(m_pending.begin()->second->latency);
        b.bytes += m_pending.begin()->second->bytes;
        m_pending.erase(m_pending.begin());
    }
    m_total.latency.merge(b.latency);
    m_total.bytes += b.bytes;
    Sample s = makeSample(b, m_lastEmit, endNs);
    if (m_devices)
        s.values.insert(QStringLiteral("devices"), m_devices->next());
    m_prev = b;
    m_prevStart = m_lastEmit;
    m_lastEmit = endNs;
    m_next = lastIndex + 1;
    m_intervals.append(s.toJson());
    m_ctx.addSample(std::move(s));
}

void IoMeter::end()
{
    tick();
    const uint64_t now = nowNs();
    harvest(INT64_MAX); // the engine has stopped: everything recorded completed before now
    uint64_t tailOps = 0;
    for (const auto& [index, bucket] : m_pending)
        tailOps += bucket->latency.count();
    const uint64_t tailNs = now - m_lastEmit;
    if (tailOps > 0 && tailNs < m_intervalNs / 4 && !m_intervals.isEmpty()) {
        // Too short to be a rate of its own: fold it into the interval before it (in the record).
        for (const auto& [index, bucket] : m_pending) {
            m_prev.latency.merge(bucket->latency);
            m_prev.bytes += bucket->bytes;
            m_total.latency.merge(bucket->latency);
            m_total.bytes += bucket->bytes;
        }
        m_pending.clear();
        QJsonObject folded = makeSample(m_prev, m_prevStart, now).toJson();
        if (m_devices)
            folded.insert(QStringLiteral("devices"),
                BlockDevices::sum(
                    m_intervals.last().toObject().value(QStringLiteral("devices")).toArray(), m_devices->next()));
        m_intervals.replace(m_intervals.size() - 1, folded);
        m_lastEmit = now;
    } else if (tailOps > 0 || tailNs >= m_intervalNs / 2) {
        emitThrough(INT64_MAX - 1, now);
    }
    m_pending.clear(); // an empty tail too short to report
    m_end = now;
}

Sample IoMeter::makeSample(const Bucket& b, uint64_t from, uint64_t to) const
{
    const LatencyHistogram& h = b.latency;
    const uint64_t bytes = b.bytes;
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

double IoMeter::elapsedSec() const
{
    const uint64_t stop = m_end ? m_end : nowNs();
    return double(stop - m_t0) / 1e9;
}

// After end(): every I/O is in an emitted interval, so the summary is exactly their sum.
QJsonObject IoMeter::summary() const
{
    const LatencyHistogram& all = m_total.latency;
    const uint64_t bytes = m_total.bytes;
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
