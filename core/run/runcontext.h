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
    Q_DISABLE_COPY_MOVE(RunContext)

    int runId() const { return m_runId; }

    bool stopRequested() const { return m_stop.load(std::memory_order_relaxed); }
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
    std::atomic<bool> m_stop { false };
    std::atomic<double> m_progress { 0.0 };
    std::atomic<qint64> m_samplesAdded { 0 };
    mutable QMutex m_mutex;
    QString m_phase;
    SampleBatch m_pending;
};
