#include "core/run/proberunner.h"

#include "core/run/runcontext.h"

#include <QDateTime>
#include <QMutex>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <exception>
#include <sys/resource.h>
#include <unistd.h>

struct ProbeRunner::Run
{
    explicit Run(int id)
        : ctx(id)
    { }
    RunContext ctx;
    std::atomic<bool> done { false };
    std::atomic<bool> begun { false }; // the job is on a thread
    bool cancelled = false; // GUI-thread side only
    bool waiting = false; // GUI-thread side only: announced as waiting, began() not sent yet
    int ahead = -1; // GUI-thread side only: last announced
    double lastProgress = -1;
    QString lastPhase;
    QMutex resultMutex;
    RunRecord result;
};

namespace {

int threadNice()
{
    errno = 0;
    const int n = ::getpriority(PRIO_PROCESS, id_t(::gettid()));
    return errno == 0 ? n : 0;
}

// A pool thread keeps its nice value from one job to the next (it can be raised, never lowered again without
// privilege): set it once, to at least `nice`.
void lowerThisThread(int nice)
{
    if (threadNice() < nice)
        ::setpriority(PRIO_PROCESS, id_t(::gettid()), nice);
}

} // namespace

ProbeRunner::ProbeRunner(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<SampleBatch>("SampleBatch");
    qRegisterMetaType<RunRecord>("RunRecord");
    m_pool.setMaxThreadCount(MaxThreads);
    m_pool.setExpiryTimeout(5000);
    // 60 ms: at most ~16 batches a second per run, well under the UI's budget of 20.
    m_timer.setInterval(60);
    m_timer.setTimerType(Qt::CoarseTimer);
    connect(&m_timer, &QTimer::timeout, this, &ProbeRunner::drain);
}

ProbeRunner::~ProbeRunner()
{
    cancelAll();
    m_pool.waitForDone(10000);
}

int ProbeRunner::start(Job job)
{
    const int id = m_nextId++;
    auto run = std::make_shared<Run>(id);
    m_runs.insert(id, run);
    // Every runner busy (those running and those waiting): this one waits in line.
    int busy = 0;
    for (const auto& r : std::as_const(m_runs))
        busy += r != run && !r->done.load() ? 1 : 0;
    run->waiting = busy >= MaxThreads;
    m_pool.start([this, run, job = std::move(job), nice = m_jobNice, base = threadNice()]() {
        lowerThisThread(base + nice);
        run->begun.store(true);
        RunRecord rec;
        try {
            rec = job(run->ctx);
        } catch (const std::exception& e) {
            rec.status = QStringLiteral("failed");
            rec.failure = QStringLiteral("internal error: ") + QString::fromLocal8Bit(e.what());
        } catch (...) {
            rec.status = QStringLiteral("failed");
            rec.failure = QStringLiteral("internal error");
        }
        {
            QMutexLocker lock(&run->resultMutex);
            run->result = std::move(rec);
        }
        run->done.store(true);
        // Deliver promptly instead of waiting for the next tick; dropped if the runner is gone.
        QMetaObject::invokeMethod(this, &ProbeRunner::drain, Qt::QueuedConnection);
    });
    if (!m_timer.isActive())
        m_timer.start();
    emit started(id);
    // Announced from the event loop: the caller knows the run's id by then.
    QMetaObject::invokeMethod(this, &ProbeRunner::updateQueue, Qt::QueuedConnection);
    return id;
}

void ProbeRunner::cancel(int runId)
{
    const auto it = m_runs.constFind(runId);
    if (it == m_runs.constEnd())
        return;
    (*it)->cancelled = true;
    (*it)->ctx.requestStop();
}

void ProbeRunner::cancelAll()
{
    for (const auto& run : std::as_const(m_runs)) {
        run->cancelled = true;
        run->ctx.requestStop();
    }
}

bool ProbeRunner::isRunning(int runId) const
{
    return m_runs.contains(runId);
}

int ProbeRunner::runningCount() const
{
    return int(m_runs.size());
}

bool ProbeRunner::isWaiting(int runId) const
{
    const auto run = m_runs.value(runId);
    return run && run->waiting && !run->begun.load();
}

// The waiting runs in the order they were started (run ids grow): each learns how many wait before it; one that
// has a thread now says it began.
void ProbeRunner::updateQueue()
{
    QList<int> ids = m_runs.keys();
    std::sort(ids.begin(), ids.end());
    int ahead = 0;
    for (const int id : std::as_const(ids)) {
        const auto run = m_runs.value(id);
        if (!run->waiting)
            continue;
        if (run->begun.load()) {
            run->waiting = false;
            emit began(id);
            continue;
        }
        if (run->ahead != ahead) {
            run->ahead = ahead;
            emit waiting(id, ahead);
        }
        ++ahead;
    }
}

bool ProbeRunner::waitForDone(int msecs)
{
    return m_pool.waitForDone(msecs);
}

void ProbeRunner::drain()
{
    updateQueue();
    const QList<int> ids = m_runs.keys();
    for (const int id : ids) {
        const auto run = m_runs.value(id);
        if (!run)
            continue;
        const bool done = run->done.load(); // read before taking samples so none slips past the final batch
        SampleBatch batch = run->ctx.takeSamples();
        if (!run->cancelled) {
            if (!batch.isEmpty())
                emit samplesArrived(id, batch);
            const double p = run->ctx.progress();
            const QString phase = run->ctx.phase();
            // A run still waiting for a thread has made no progress: its page keeps saying that it waits.
            if (run->begun.load() && (p != run->lastProgress || phase != run->lastPhase)) {
                run->lastProgress = p;
                run->lastPhase = phase;
                emit progressChanged(id, p, phase);
            }
        }
        if (done) {
            m_runs.remove(id);
            RunRecord rec;
            {
                QMutexLocker lock(&run->resultMutex);
                rec = std::move(run->result);
            }
            if (run->cancelled && rec.status == u"ok")
                rec.status = QStringLiteral("cancelled");
            emit finished(id, rec);
        }
    }
    if (m_runs.isEmpty())
        m_timer.stop();
}
