#include "core/disk/iometer.h"

#include "core/disk/blockdevices.h"
#include "core/run/runcontext.h"

#include <algorithm>
#include <cmath>
#include <ctime>

namespace {

double round1(double v)
{
    return double(qint64(v * 10.0 + (v >= 0 ? 0.5 : -0.5))) / 10.0;
}

} // namespace

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
    DiskInterval i = makeInterval(b, m_lastEmit, endNs);
    if (m_devices)
        i.devices = m_devices->next();
    m_prev = b;
    m_prevStart = m_lastEmit;
    m_lastEmit = endNs;
    m_next = lastIndex + 1;
    m_intervals.append(i);
    m_ctx.addSample(i.toSample());
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
        DiskInterval folded = makeInterval(m_prev, m_prevStart, now);
        if (m_devices)
            folded.devices = DiskDeviceSum::add(m_intervals.last().devices.value_or(DiskDevices {}), m_devices->next());
        m_intervals.last() = folded;
        m_lastEmit = now;
    } else if (tailOps > 0 || tailNs >= m_intervalNs / 2) {
        emitThrough(INT64_MAX - 1, now);
    }
    m_pending.clear(); // an empty tail too short to report
    m_end = now;
}

DiskInterval IoMeter::makeInterval(const Bucket& b, uint64_t from, uint64_t to) const
{
    const double secs = double(to - from) / 1e9;
    DiskInterval i;
    i.series = m_series;
    i.t = double(std::llround(double(to - m_t0) / 1e6)) / 1000.0; // milliseconds
    i.seconds = secs;
    i.mbPerS = secs > 0 ? round1(double(b.bytes) / 1e6 / secs) : 0.0;
    i.iops = secs > 0 ? round1(double(b.latency.count()) / secs) : 0.0;
    i.latencyUs = DiskLatency::of(b.latency, false);
    i.bytes = double(b.bytes);
    i.ops = double(b.latency.count());
    return i;
}

double IoMeter::elapsedSec() const
{
    const uint64_t stop = m_end ? m_end : nowNs();
    return double(stop - m_t0) / 1e9;
}

// After end(): every I/O is in an emitted interval, so the summary is exactly their sum.
DiskSummary IoMeter::summary() const
{
    const LatencyHistogram& all = m_total.latency;
    const double secs = elapsedSec();
    DiskSummary o;
    o.mbPerS = secs > 0 ? round1(double(m_total.bytes) / 1e6 / secs) : 0.0;
    o.iops = secs > 0 ? round1(double(all.count()) / secs) : 0.0;
    o.latencyUs = DiskLatency::of(all, true);
    o.bytes = double(m_total.bytes);
    o.ops = double(all.count());
    o.seconds = double(qint64(secs * 1e6)) / 1e6;
    o.latencyHistogramNs = all.toJson();
    return o;
}
