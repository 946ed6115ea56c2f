#pragma once

#include "core/common/histogram.h"
#include "core/common/intervalclock.h"
#include "core/disk/diskresult.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

class RunContext;
namespace BlockDevices {
class Sampler;
}

// Counts completed I/Os (bytes, latency) per interval and in total. Every engine thread records into its own
// Recorder (no lock shared between threads); an I/O belongs to the interval in which it completed, by its
// completion time stamp on the IntervalClock. tick() and end() run on the coordinating thread: they merge the
// recorders' finished intervals, turn each into a Sample for the context and keep it for the record. The
// intervals sum exactly to the summary (bytes, ops).
class IoMeter
{
public:
    struct Bucket
    {
        LatencyHistogram latency;
        uint64_t bytes = 0;
    };
    using Buckets = std::map<int64_t, std::unique_ptr<Bucket>>;

    // One thread's counters, by interval index. Its lock is taken by that thread per I/O and by the
    // coordinator at each tick only, so it is never contended between engine threads.
    class Recorder
    {
    public:
        explicit Recorder(const IntervalClock& clock)
            : m_clock(clock)
        { }
        // Completion is now: the clock is read under the lock, so a tick never misses an I/O that completed
        // before it (see IoMeter::harvest). Returns the completion time.
        uint64_t complete(uint64_t startNs, uint64_t bytes);
        // Completion at a known time, from the coordinating thread itself (the io_uring engine).
        void recordAt(uint64_t doneNs, uint64_t latencyNs, uint64_t bytes);
        // Moves every interval with index < `before` into `into` (all of them with INT64_MAX).
        void takeBefore(int64_t before, Buckets& into);

    private:
        void add(uint64_t doneNs, uint64_t latencyNs, uint64_t bytes);
        const IntervalClock& m_clock;
        std::mutex m_mutex;
        Buckets m_open;
        Bucket* m_current = nullptr;
        int64_t m_currentIndex = -2;
    };

    IoMeter(RunContext& ctx, QString series, int intervalMs);

    static uint64_t nowNs();

    // The disks' own counters go into every interval as `devices` (started by begin(), read at each emit).
    void setDevices(BlockDevices::Sampler* devices) { m_devices = devices; }
    // Before begin(), from the coordinating thread: one per engine thread; the meter owns it.
    Recorder& newRecorder();
    void begin();
    void tick();
    void end();

    const IntervalClock& clock() const { return m_clock; }
    double elapsedSec() const;
    DiskSummary summary() const;
    const QList<DiskInterval>& intervals() const { return m_intervals; }

private:
    void harvest(int64_t before);
    void emitThrough(int64_t lastIndex, uint64_t endNs);
    DiskInterval makeInterval(const Bucket& b, uint64_t from, uint64_t to) const;

    RunContext& m_ctx;
    BlockDevices::Sampler* m_devices = nullptr;
    const QString m_series;
    const uint64_t m_intervalNs;
    IntervalClock m_clock;
    std::vector<std::unique_ptr<Recorder>> m_recorders;
    Buckets m_pending; // harvested, not yet emitted
    int64_t m_next = 0; // the first interval index not yet emitted
    uint64_t m_t0 = 0;
    uint64_t m_lastEmit = 0;
    uint64_t m_end = 0;

    Bucket m_total;
    QList<DiskInterval> m_intervals;
    // The last emitted interval, so that a tail too short to stand alone can be folded into it.
    Bucket m_prev;
    uint64_t m_prevStart = 0;
};
