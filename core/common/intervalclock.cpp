#include "core/common/intervalclock.h"

#include <algorithm>

IntervalClock::IntervalClock(uint64_t intervalNs, uint64_t stepNs)
    : m_interval(std::max<uint64_t>(intervalNs, 1))
    , m_step(stepNs)
    , m_perStep(stepNs ? int64_t((stepNs + m_interval - 1) / m_interval) : 1)
{ }

int64_t IntervalClock::index(uint64_t tNs) const
{
    const uint64_t t0 = m_t0.load(std::memory_order_relaxed);
    if (t0 == kNotStarted || tNs < t0)
        return -1;
    const uint64_t d = tNs - t0;
    if (!m_step)
        return int64_t(d / m_interval);
    const uint64_t s = d / m_step;
    return int64_t(s) * m_perStep + int64_t((d - s * m_step) / m_interval);
}

uint64_t IntervalClock::begin(int64_t index) const
{
    const uint64_t t0 = m_t0.load(std::memory_order_relaxed);
    if (!m_step)
        return t0 + uint64_t(index) * m_interval;
    const auto s = uint64_t(index / m_perStep);
    const auto k = uint64_t(index % m_perStep);
    return t0 + s * m_step + k * m_interval;
}

uint64_t IntervalClock::end(int64_t index) const
{
    const uint64_t b = begin(index) + m_interval;
    if (!m_step)
        return b;
    const uint64_t stepEnd = m_t0.load(std::memory_order_relaxed) + uint64_t(step(index) + 1) * m_step;
    return std::min(b, stepEnd);
}

int IntervalClock::step(int64_t index) const
{
    return m_step ? int(index / m_perStep) : 0;
}
