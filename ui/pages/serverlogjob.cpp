#include "ui/pages/serverlogjob.h"

#include "core/run/runcontext.h"
#include "core/workload/serverlogtail.h"
#include "core/workload/serverlogview.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <tuple>

namespace {

// While the load runs, the log is followed on a thread of its own (the job's thread is in the load): every half
// second what the server answered since is published as a status sample for the live chart.
class LiveTail
{
public:
    LiveTail(const QString& path, qint64 offset, RunContext& ctx)
        : m_thread([this, path, offset, &ctx] { follow(ServerLogTail(path, offset), ctx); })
    { }
    ~LiveTail()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }
    LiveTail(const LiveTail&) = delete;
    LiveTail& operator=(const LiveTail&) = delete;

private:
    void follow(ServerLogTail tail, RunContext& ctx)
    {
        std::unique_lock lock(m_mutex);
        while (!m_wake.wait_for(lock, std::chrono::milliseconds(500), [this] { return m_done; }))
            if (const auto slice = tail.poll())
                ctx.addSample(slice->toSample());
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false;
    std::thread m_thread; // last: started once the rest is set up
};

} // namespace

namespace ServerLogJob {

ProbeError check(const QString& path)
{
    if (path.isEmpty())
        return {};
    const QFileInfo fi(path);
    if (!fi.isFile() || !fi.isReadable())
        return ProbeError::invalid(QStringLiteral("server-log"),
            QCoreApplication::translate("LdapPage", "'%1' is not a readable file").arg(path));
    return {};
}

std::function<RunRecord(RunContext&)> wrap(std::function<RunRecord(RunContext&)> job, const QString& path)
{
    if (path.isEmpty())
        return job;
    return [job = std::move(job), path](RunContext& ctx) {
        const qint64 offset = QFileInfo(path).size(); // what comes after it is the load's
        RunRecord record;
        {
            const LiveTail live(path, offset, ctx);
            record = job(ctx);
        }
        if (!record.intervals.isEmpty()) // a run that never measured has no window to put the server's times in
            std::ignore = ServerLogView::attach(path, offset, record);
        return record;
    };
}

} // namespace ServerLogJob
