#pragma once

#include "core/sandbox/demosandbox.h"
#include "core/sandbox/sandboxinfo.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class ProbeRunner;
struct RunRecord;

// The demo directory the GUI starts for the user: a private slapd or 389-ds sandbox (core/sandbox, DemoSandbox).
// Starting and stopping block for seconds, so both run as jobs on the ProbeRunner; the UI hears about them through
// signals. At exit, after the window closed and the runner is idle, stopNow() stops a sandbox this object started,
// synchronously. The GUI's sandbox is private: it never becomes the "current" sandbox dirbench-cli finds.
class DemoDirectory final : public QObject
{
    Q_OBJECT
public:
    enum class State
    {
        Stopped,
        Starting,
        Running,
        Stopping
    };
    Q_ENUM(State)

    explicit DemoDirectory(ProbeRunner* runner, QObject* parent = nullptr);
    ~DemoDirectory() override; // does not stop the sandbox (that blocks): owners call stopNow() at exit
    Q_DISABLE_COPY_MOVE(DemoDirectory)

    State state() const { return m_state; }
    bool isRunning() const { return m_state == State::Running; }
    std::optional<SandboxInfo> info() const { return m_info; }
    QString lastError() const { return m_lastError; }
    DemoSandbox::Server server() const { return m_server; } // of the demo running, starting, or last started

    // Starts a sandbox of that server (options.makeCurrent is forced off). Ignored unless stopped.
    void start(SandboxOptions options, DemoSandbox::Server server = DemoSandbox::Server::OpenLdap);
    // Stops the running sandbox as a job; while starting, cancels the start (nothing is left behind).
    void stop();
    // Stops, as a job, the demo directories of GUIs that were killed (nobody else can stop them); start() does this
    // too. orphansStopped() names what was stopped, when there was any.
    void stopOrphans(const QString& parentDir = {});
    // At exit only: stops whatever sandbox this object started, blocking (up to 15 s). Call it when the runner has
    // no job of ours left (ProbeRunner::waitForDone), so that a start that finished unseen is stopped too.
    bool stopNow(QString* error = nullptr);

    // The sandbox's generated password, read from its 0600 file into memory (empty if unreadable).
    static QByteArray readPassword(const SandboxInfo& info);

signals:
    void stateChanged(DemoDirectory::State state);
    void started(const SandboxInfo& info);
    void stopped(const QString& dir);
    void failed(const QString& message);
    void orphansStopped(const QStringList& dirs);

private:
    struct Shared;
    void onFinished(int runId, const RunRecord& record);
    void setState(State state);

    ProbeRunner* m_runner;
    std::shared_ptr<Shared> m_shared; // what the start job produced, readable without the event loop
    State m_state = State::Stopped;
    DemoSandbox::Server m_server = DemoSandbox::Server::OpenLdap;
    std::optional<SandboxInfo> m_info;
    QString m_lastError;
    int m_startRunId = 0;
    int m_orphansRunId = 0;
    int m_stopRunId = 0;
    bool m_stopWhenStarted = false;
};
