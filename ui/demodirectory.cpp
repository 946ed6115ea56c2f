#include "ui/demodirectory.h"

#include "core/common/runrecord.h"
#include "core/run/proberunner.h"
#include "core/run/runcontext.h"
#include "core/sandbox/demosandbox.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QMutex>
#include <QMutexLocker>

#include <utility>

struct DemoDirectory::Shared
{
    QMutex mutex;
    std::optional<SandboxInfo> info; // set by the start job as soon as slapd runs; cleared once stopped
    QStringList orphansStopped; // the demo directories of gone DirBench processes the orphans job stopped
};

namespace {

RunRecord sandboxRecord(const QString& kind)
{
    RunRecord r;
    r.kind = kind;
    r.started = QDateTime::currentDateTime();
    return r;
}

// Demo directories of GUIs that were killed (nobody could stop them), stopped: one warning each.
void addOrphansStopped(RunRecord* r, const QStringList& dirs)
{
    for (const QString& dir : dirs)
        r->warnings.append({ QStringLiteral("orphan-stopped"),
            QStringLiteral("stopped the demo directory of a DirBench that is gone: ") + dir });
}

} // namespace

DemoDirectory::DemoDirectory(ProbeRunner* runner, QObject* parent)
    : QObject(parent)
    , m_runner(runner)
    , m_shared(std::make_shared<Shared>())
{
    connect(m_runner, &ProbeRunner::finished, this, &DemoDirectory::onFinished);
}

DemoDirectory::~DemoDirectory() = default;

void DemoDirectory::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

void DemoDirectory::start(SandboxOptions options, DemoSandbox::Server server)
{
    if (m_state != State::Stopped)
        return;
    options.makeCurrent = false;
    m_server = server;
    options.ownerPid = QCoreApplication::applicationPid(); // the next GUI stops it if this one is killed
    m_lastError.clear();
    m_stopWhenStarted = false;
    std::shared_ptr<Shared> shared = m_shared;
    m_startRunId = m_runner->start([shared, options, server](RunContext& ctx) {
        RunRecord r = sandboxRecord(QStringLiteral("sandbox"));
        r.spec = { { QStringLiteral("entries"), options.entries }, { QStringLiteral("tls"), options.tls },
            { QStringLiteral("replicas"), options.topology.replicas },
            { QStringLiteral("server"),
                server == DemoSandbox::Server::Ds389 ? QStringLiteral("389ds") : QStringLiteral("openldap") } };
        addOrphansStopped(&r, DemoSandbox::stopOrphans(options.parentDir)); // theirs first
        ProbeError e;
        const std::optional<SandboxInfo> info = DemoSandbox::start(options, server, &e, &ctx);
        if (!info) {
            r.status = e.kind == ProbeError::Kind::Cancelled ? QStringLiteral("cancelled") : QStringLiteral("failed");
            r.failure = e.message();
            return r;
        }
        {
            const QMutexLocker lock(&shared->mutex);
            shared->info = info;
        }
        r.summary = info->toJson();
        return r;
    });
    setState(State::Starting);
}

void DemoDirectory::stop()
{
    if (m_state == State::Starting) {
        m_stopWhenStarted = true;
        m_runner->cancel(m_startRunId);
        return;
    }
    if (m_state != State::Running || !m_info)
        return;
    const SandboxInfo info = *m_info;
    std::shared_ptr<Shared> shared = m_shared;
    m_stopRunId = m_runner->start([shared, info](RunContext&) {
        RunRecord r = sandboxRecord(QStringLiteral("sandbox-stop"));
        r.spec = { { QStringLiteral("dir"), info.dir } };
        ProbeError e;
        if (!DemoSandbox::stop(info, &e)) {
            r.status = QStringLiteral("failed");
            r.failure = e.message();
        } else {
            const QMutexLocker lock(&shared->mutex);
            shared->info.reset();
        }
        return r;
    });
    setState(State::Stopping);
}

void DemoDirectory::stopOrphans(const QString& parentDir)
{
    if (m_orphansRunId != 0)
        return;
    std::shared_ptr<Shared> shared = m_shared;
    m_orphansRunId = m_runner->start([shared, parentDir](RunContext&) {
        RunRecord r = sandboxRecord(QStringLiteral("sandbox-orphans"));
        const QStringList dirs = DemoSandbox::stopOrphans(parentDir);
        addOrphansStopped(&r, dirs);
        const QMutexLocker lock(&shared->mutex);
        shared->orphansStopped = dirs;
        return r;
    });
}

void DemoDirectory::onFinished(int runId, const RunRecord& record)
{
    if (runId == 0)
        return;
    if (runId == m_orphansRunId) {
        m_orphansRunId = 0;
        QStringList dirs;
        {
            const QMutexLocker lock(&m_shared->mutex);
            dirs = std::exchange(m_shared->orphansStopped, {});
        }
        if (!dirs.isEmpty())
            emit orphansStopped(dirs);
        return;
    }
    if (runId == m_startRunId) {
        m_startRunId = 0;
        const std::optional<SandboxInfo> info
            = record.status == u"ok" ? SandboxInfo::fromJson(record.summary) : std::optional<SandboxInfo>();
        if (!info) {
            setState(State::Stopped);
            // A start the user cancelled is no failure; a start that made it despite the cancel is stopped below.
            m_lastError = record.status == u"cancelled" ? QString() : record.failure;
            if (!m_lastError.isEmpty())
                emit failed(m_lastError);
            std::optional<SandboxInfo> late;
            {
                const QMutexLocker lock(&m_shared->mutex);
                late = m_shared->info;
            }
            if (late) {
                m_info = late;
                setState(State::Running);
                stop();
            }
            return;
        }
        m_info = info;
        setState(State::Running);
        if (m_stopWhenStarted) {
            stop();
            return;
        }
        emit started(*info);
    } else if (runId == m_stopRunId) {
        m_stopRunId = 0;
        const QString dir = m_info ? m_info->dir : QString();
        if (record.status == u"failed") {
            m_lastError = record.failure;
            setState(State::Running); // still there: the user may try again
            emit failed(m_lastError);
            return;
        }
        m_info.reset();
        setState(State::Stopped);
        emit stopped(dir);
    }
}

bool DemoDirectory::stopNow(QString* error)
{
    std::optional<SandboxInfo> info;
    {
        const QMutexLocker lock(&m_shared->mutex);
        info = m_shared->info;
    }
    if (!info)
        return true;
    ProbeError e;
    const bool ok = DemoSandbox::stop(*info, &e);
    if (ok) {
        const QMutexLocker lock(&m_shared->mutex);
        m_shared->info.reset();
        m_info.reset();
        m_state = State::Stopped;
    } else if (error) {
        *error = e.message();
    }
    return ok;
}

QByteArray DemoDirectory::readPassword(const SandboxInfo& info)
{
    QFile f(info.passwordFile);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readLine().trimmed(); // one line, no newline (SandboxInfo)
}
