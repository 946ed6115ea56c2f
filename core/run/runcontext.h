#pragma once

#include "core/common/sample.h"

#include <QMutex>
#include <QString>

#include <atomic>

// What an engine sees of the outside while it runs: a stop flag to poll between short steps, and places to put
// progress and samples. Everything here is cheap and thread-safe; whoever owns the context (ProbeRunner, a test,
// the CLI) drains it at its own pace, so the engine's rate never drives the UI's.
class RunContext
{
public:
    explicit RunContext(int runId = 0)
        : m_runId(runId)
    { }
    // A part of a bigger run (experiments run several engines): its samples go to the parent with the series
    // named `series` (or "series: inner" when the engine names its own) and `t` shifted by timeOffset; a stop
    // asked of the parent stops it too. Progress stays its own.
    RunContext(RunContext* parent, QString series, double timeOffset = 0)
        : m_runId(parent ? parent->runId() : 0)
        , m_parent(parent)
        , m_series(std::move(series))
        , m_timeOffset(timeOffset)
    { }
    Q_DISABLE_COPY_MOVE(RunContext)

    int runId() const { return m_runId; }

    bool stopRequested() const
    {
        return m_stop.load(std::memory_order_relaxed) || (m_parent && m_parent->stopRequested());
    }
    void requestStop() { m_stop.store(true, std::memory_order_relaxed); }

    // fraction in [0, 1]; phase is a short label ("preparing", "measuring", "seq-write 2/3").
    void setProgress(double fraction);
    void setPhase(const QString& phase);
    double progress() const { return m_progress.load(std::memory_order_relaxed); }
    QString phase() const;

    void addSample(Sample sample);
    SampleBatch takeSamples();
    qint64 samplesAdded() const { return m_samplesAdded.load(std::memory_order_relaxed); }

private:
    const int m_runId;
    RunContext* const m_parent = nullptr;
    const QString m_series;
    std::atomic<double> m_timeOffset { 0.0 };
    std::atomic<bool> m_stop { false };
    std::atomic<double> m_progress { 0.0 };
    std::atomic<qint64> m_samplesAdded { 0 };
    mutable QMutex m_mutex;
    QString m_phase;
    SampleBatch m_pending;
};
