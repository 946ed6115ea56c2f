#include "core/run/runcontext.h"

#include <algorithm>

void RunContext::setProgress(double fraction)
{
    m_progress.store(std::clamp(fraction, 0.0, 1.0), std::memory_order_relaxed);
}

void RunContext::setPhase(const QString& phase)
{
    QMutexLocker lock(&m_mutex);
    m_phase = phase;
}

QString RunContext::phase() const
{
    QMutexLocker lock(&m_mutex);
    return m_phase;
}

void RunContext::addSample(Sample sample)
{
    if (m_parent) {
        sample.series = sample.series.isEmpty() ? m_series : m_series + QStringLiteral(": ") + sample.series;
        sample.t += m_timeOffset.load(std::memory_order_relaxed);
        m_samplesAdded.fetch_add(1, std::memory_order_relaxed);
        m_parent->addSample(std::move(sample));
        return;
    }
    QMutexLocker lock(&m_mutex);
    m_pending.append(std::move(sample));
    m_samplesAdded.fetch_add(1, std::memory_order_relaxed);
}

SampleBatch RunContext::takeSamples()
{
    QMutexLocker lock(&m_mutex);
    SampleBatch out;
    out.swap(m_pending);
    return out;
}
