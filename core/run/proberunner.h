#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <QHash>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <functional>
#include <memory>

class RunContext;

// Runs jobs (engine calls) on its own bounded thread pool and reports to the thread it lives on. Each run gets
// an id; progress and samples are drained on a timer (at most one progress signal and one sample batch per run
// per tick, whatever the engine's rate); cancel sets the run's stop flag, and from then on that run delivers no
// more progress or samples, only its final record (status "cancelled", with what it measured). The pool runs at
// most MaxThreads jobs at once: a job started beyond that waits, and says so (waiting(), then began()).
class ProbeRunner final : public QObject
{
    Q_OBJECT
public:
    using Job = std::function<RunRecord(RunContext&)>;
    static constexpr int MaxThreads = 4;

    explicit ProbeRunner(QObject* parent = nullptr);
    ~ProbeRunner() override; // cancels everything and waits for the workers
    Q_DISABLE_COPY_MOVE(ProbeRunner)

    int start(Job job);
    // Runs the jobs (and every thread a job starts, which inherits it) this much below the priority of the thread
    // the runner lives on (Linux nice; 0 = the same, the default). The GUI sets it: a live load's threads then
    // never keep the window's thread waiting for a core; the CLI, whose only work is the job, does not.
    void setJobNice(int n) { m_jobNice = n; }
    void cancel(int runId);
    void cancelAll();
    bool isRunning(int runId) const;
    // Started but not yet on a thread: a free runner is awaited.
    bool isWaiting(int runId) const;
    int runningCount() const;
    // Blocks until every worker returned or msecs passed. For shutdown and tests only, never mid-session.
    bool waitForDone(int msecs);

    int drainIntervalMs() const { return m_timer.interval(); }

signals:
    void started(int runId);
    // A job that found every runner busy: `ahead` jobs wait before it (0: it is next). Again when that changes.
    void waiting(int runId, int ahead);
    // A job that waited got a runner and now runs (not emitted for a job that never waited).
    void began(int runId);
    void progressChanged(int runId, double fraction, const QString& phase);
    void samplesArrived(int runId, const SampleBatch& samples);
    void finished(int runId, const RunRecord& record);

private:
    struct Run;
    void drain();
    void updateQueue();

    QThreadPool m_pool;
    QTimer m_timer;
    int m_jobNice = 0;
    int m_nextId = 1;
    QHash<int, std::shared_ptr<Run>> m_runs;
};
