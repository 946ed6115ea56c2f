#pragma once

#include <atomic>
#include <cstdint>

// Where the intervals of a load begin and end, on the monotonic clock (ns), so that every thread can tell which
// interval an operation completed in. Intervals are `intervalNs` long from the start of the measured phase; with
// a step ramp they restart at every step, and the last one of a step ends with the step (no interval mixes two
// steps). Before start() every time is in the warm-up (index -1).
class IntervalClock
{
public:
    IntervalClock(uint64_t intervalNs, uint64_t stepNs);

    void start(uint64_t t0Ns) { m_t0.store(t0Ns, std::memory_order_release); }
    bool started() const { return m_t0.load(std::memory_order_acquire) != kNotStarted; }
    uint64_t t0() const { return m_t0.load(std::memory_order_acquire); }

    int64_t index(uint64_t tNs) const; // -1 before the measured phase
    uint64_t begin(int64_t index) const;
    uint64_t end(int64_t index) const;
    int step(int64_t index) const; // 0 without a ramp

private:
    static constexpr uint64_t kNotStarted = UINT64_MAX;
    std::atomic<uint64_t> m_t0 { kNotStarted };
    uint64_t m_interval;
    uint64_t m_step; // 0: no ramp
    int64_t m_perStep; // intervals per step
};
