// One engine on a host: the coordinator's side (runRemote) and the agent's (engineJob, addReachedOver).
#include "core/agents/remoterun.h"

#include "core/agents/coordinator.h"
#include "core/agents/remoteanalyze.h"
#include "core/common/environment.h"
#include "core/disk/diskengine.h"
#include "core/run/runcontext.h"
#include "core/workload/logreader.h"

#include <QProcess>
#include <QProcessEnvironment>

#include <algorithm>

namespace Agents {

namespace {

constexpr uint64_t kRemoteStopGraceNs
    = 15000000000ULL; // an agent asked to stop is killed after this (cleanup included)

QString lastStderrLine(const QString& text)
{
    const QStringList lines = text.trimmed().split(u'\n', Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.constLast().trimmed();
}

// The conversation with one agent: launched, spec sent at its hello, messages applied as they come.
class RemoteRun
{
public:
    RemoteRun(const RemoteRunSpec& spec, RunContext& ctx)
        : m_spec(spec)
        , m_ctx(ctx)
    { }
    RunRecord run();

private:
    void apply(const QJsonObject& m);
    void pump();
    void askStop();
    RunRecord failed(const QString& failure) const;
    QString endText() const;

    const RemoteRunSpec& m_spec;
    RunContext& m_ctx;
    QProcess m_proc;
    LineBuffer m_buf;
    QJsonObject m_hello;
    std::optional<RunRecord> m_record;
    QString m_agentError;
    QString m_stderr;
    uint64_t m_stopSentNs = 0;
};

RunRecord RemoteRun::failed(const QString& failure) const
{
    RunRecord r;
    r.kind = m_spec.kind;
    r.spec = m_spec.recordSpec;
    r.spec.insert(QStringLiteral("host"), m_spec.host.name);
    r.started = QDateTime::currentDateTimeUtc();
    r.status = m_ctx.stopRequested() && m_hello.isEmpty() ? QStringLiteral("cancelled") : QStringLiteral("failed");
    r.failure = failure;
    return r;
}

void RemoteRun::apply(const QJsonObject& m)
{
    const QString type = m.value(QStringLiteral("type")).toString();
    if (type == u"hello") {
        m_hello = m;
        AgentSpec s;
        s.engine = m_spec.engine;
        s.engineSpec = m_spec.engineSpec;
        s.deadlineS = m_spec.deadlineS;
        m_proc.write(encode(s.toJson()));
    } else if (type == u"interval") {
        m_ctx.addSample(Sample::fromJson(m.value(QStringLiteral("interval")).toObject()));
    } else if (type == u"progress") {
        m_ctx.setProgress(m.value(QStringLiteral("fraction")).toDouble());
        m_ctx.setPhase(m.value(QStringLiteral("phase")).toString());
    } else if (type == u"final") {
        QString why;
        m_record = RunRecord::fromJson(m.value(QStringLiteral("record")).toObject(), &why);
        if (!m_record)
            m_agentError = QStringLiteral("its record could not be read: ") + why;
    } else if (type == u"error") {
        m_agentError = m.value(QStringLiteral("message")).toString();
    }
}

void RemoteRun::askStop()
{
    if (m_stopSentNs)
        return;
    m_stopSentNs = monotonicNs();
    if (m_proc.state() == QProcess::Running) {
        m_proc.write(encode(stop(QStringLiteral("cancelled"))));
        m_proc.closeWriteChannel();
    }
}

// Reads what arrived and applies it; asks the agent to stop when the run is cancelled; kills it past the grace.
void RemoteRun::pump()
{
    m_buf.feed(m_proc.readAllStandardOutput());
    m_stderr += QString::fromUtf8(m_proc.readAllStandardError());
    if (m_stderr.size() > 65536)
        m_stderr = m_stderr.right(16384);
    for (const QByteArray& line : m_buf.take()) {
        QString why;
        if (const auto m = decode(line, &why))
            apply(*m);
    }
    if (m_ctx.stopRequested())
        askStop();
    if (m_stopSentNs && monotonicNs() > m_stopSentNs + kRemoteStopGraceNs)
        m_proc.kill();
}

QString RemoteRun::endText() const
{
    if (m_proc.error() == QProcess::FailedToStart)
        return QStringLiteral("could not start '%1': %2").arg(m_proc.program(), m_proc.errorString());
    if (m_hello.isEmpty())
        return launchFailureText(m_spec, m_proc.exitStatus() == QProcess::CrashExit ? -1 : m_proc.exitCode(), m_stderr);
    const QString said = lastStderrLine(m_stderr);
    return QStringLiteral("lost the agent on %1 mid-run (%2)%3")
        .arg(m_spec.host.name,
            m_proc.exitStatus() == QProcess::CrashExit ? QStringLiteral("killed by a signal")
                                                       : QStringLiteral("exit status %1").arg(m_proc.exitCode()),
            said.isEmpty() ? QString() : QStringLiteral(": ") + said);
}

RunRecord RemoteRun::run()
{
    const QStringList cmd = agentCommandLine(m_spec.sshOptions, m_spec.agentCommand, m_spec.host);
    m_proc.start(cmd.first(), cmd.mid(1));
    if (!m_proc.waitForStarted(10000))
        return failed(endText());
    const uint64_t helloBy = monotonicNs() + uint64_t(m_spec.helloTimeoutMs) * 1000000ULL;
    while (m_proc.state() == QProcess::Running) {
        m_proc.waitForReadyRead(100);
        pump();
        if (m_hello.isEmpty() && monotonicNs() > helloBy) {
            m_proc.kill();
            m_proc.waitForFinished(5000);
            return failed(QStringLiteral("no answer from %1 within %2 s: %3")
                              .arg(m_spec.host.name)
                              .arg(m_spec.helloTimeoutMs / 1000)
                              .arg(lastStderrLine(m_stderr)));
        }
    }
    m_proc.waitForFinished(5000);
    pump();
    if (!m_agentError.isEmpty())
        return failed(QStringLiteral("on %1: %2").arg(m_spec.host.name, m_agentError));
    if (!m_record)
        return failed(endText());
    RunRecord r = *m_record;
    r.spec.insert(QStringLiteral("host"), m_spec.host.name);
    r.extra.insert(QStringLiteral("remote"),
        QJsonObject { { QStringLiteral("host"), m_spec.host.name },
            { QStringLiteral("via"), m_spec.host.local ? QStringLiteral("local") : QStringLiteral("ssh") },
            { QStringLiteral("agent_pid"), m_hello.value(QStringLiteral("pid")) },
            { QStringLiteral("agent_version"), m_hello.value(QStringLiteral("version")) } });
    return r;
}

} // namespace

RunRecord runRemote(const RemoteRunSpec& spec, RunContext& ctx)
{
    RemoteRun r(spec, ctx);
    return r.run();
}

QString launchFailureText(const RemoteRunSpec& spec, int exitCode, const QString& stderrText)
{
    const QString said = lastStderrLine(stderrText);
    const QString& host = spec.host.name;
    if (exitCode == 255 && !spec.host.local)
        return QStringLiteral("cannot reach %1 over ssh: %2")
            .arg(host, said.isEmpty() ? QStringLiteral("(ssh said nothing)") : said);
    if (exitCode == 127)
        return QStringLiteral("%1 is not installed on %2 (not found on its PATH): install the dirbench-cli package "
                              "there (apt install ./dirbench-cli_*.deb, or the Ansible playbook in "
                              "packaging/ansible), or give its path with --agent-command")
            .arg(spec.agentCommand, host);
    if (exitCode == 126)
        return QStringLiteral("%1 on %2 cannot be run (not executable): %3").arg(spec.agentCommand, host, said);
    return QStringLiteral("the agent on %1 ended before it answered (%2)%3")
        .arg(host, exitCode < 0 ? QStringLiteral("killed by a signal") : QStringLiteral("exit status %1").arg(exitCode),
            said.isEmpty() ? QString() : QStringLiteral(": ") + said);
}

QString sshDestinationProblem(const QString& destination)
{
    if (destination.isEmpty())
        return QStringLiteral("required: an ssh destination (a ~/.ssh/config name, user@host)");
    if (destination.startsWith(u'-')
        || std::any_of(destination.begin(), destination.end(), [](QChar c) { return c.isSpace(); }))
        return QStringLiteral("'%1' is not an ssh destination (a ~/.ssh/config name, user@host)").arg(destination);
    return {};
}

RemoteRunSpec remoteDisk(
    const AgentHost& host, const QStringList& sshOptions, const QString& agentCommand, const DiskSpec& spec)
{
    RemoteRunSpec r;
    r.host = host;
    r.sshOptions = sshOptions;
    r.agentCommand = agentCommand;
    r.engine = QStringLiteral("disk");
    r.engineSpec = spec.toWire();
    r.kind = QStringLiteral("disk");
    r.recordSpec = spec.toJson();
    r.recordSpec.insert(QStringLiteral("host"), host.name);
    const DiskSpec resolved = spec.resolved();
    const double longest = std::max({ spec.untilSteadySec, resolved.durationSec, resolved.suiteSustainedSeconds });
    r.deadlineS = longest * std::max(1, spec.repeat) * 6 + 600; // the suite's parts, preparing, cleaning up
    return r;
}

HostCheck checkHost(const AgentHost& host, const QStringList& sshOptions, const QString& agentCommand)
{
    RemoteRunSpec r;
    r.host = host;
    r.sshOptions = sshOptions;
    r.agentCommand = agentCommand;
    r.engine = QStringLiteral("filesystems");
    r.kind = QStringLiteral("host-filesystems");
    r.deadlineS = 60;
    RunContext ctx;
    const RunRecord rec = runRemote(r, ctx);
    HostCheck c;
    if (rec.status != u"ok") {
        c.error = rec.failure;
        return c;
    }
    c.host = rec.environment.value(QStringLiteral("host")).toString();
    c.version = rec.environment.value(QStringLiteral("dirbench_version")).toString();
    c.cpus = rec.environment.value(QStringLiteral("cpus")).toInt();
    c.fileSystems = Mounts::fromJson(rec.extra.value(QStringLiteral("filesystems")).toArray());
    return c;
}

std::optional<std::function<RunRecord(RunContext&)>> engineJob(const AgentSpec& spec, QString* error)
{
    if (spec.engine == u"filesystems")
        return [](RunContext&) {
            RunRecord r;
            r.kind = QStringLiteral("host-filesystems");
            r.started = QDateTime::currentDateTimeUtc();
            r.environment = Environment::collect();
            r.extra.insert(QStringLiteral("filesystems"), Mounts::toJson(Mounts::writable()));
            return r;
        };
    if (spec.engine == u"workload-analyze") {
        auto options = analyzeOptionsFromWire(spec.engineSpec, error);
        if (!options)
            return std::nullopt;
        if (const QString unreadable = LogReader::checkReadable(options->logs); !unreadable.isEmpty()) {
            *error = QStringLiteral("--log: ") + unreadable;
            return std::nullopt;
        }
        return [o = *options](RunContext& ctx) { return analyzeHere(o, ctx); };
    }
    if (spec.engine != u"disk") {
        *error = QStringLiteral("engine '%1' is not one this agent runs (install the same DirBench version)")
                     .arg(spec.engine);
        return std::nullopt;
    }
    const auto disk = DiskSpec::fromWire(spec.engineSpec, error);
    if (!disk)
        return std::nullopt;
    if (const ProbeError e = disk->validate(); e.isError()) {
        *error = QStringLiteral("--") + e.field + QStringLiteral(": ") + e.cliDetail();
        return std::nullopt;
    }
    return Disk::makeJob(*disk);
}

void addReachedOver(QJsonObject* environment)
{
    // "client_ip client_port server_ip server_port" (sshd sets it for the session)
    const QStringList f = QProcessEnvironment::systemEnvironment()
                              .value(QStringLiteral("SSH_CONNECTION"))
                              .split(u' ', Qt::SkipEmptyParts);
    if (f.size() != 4)
        return;
    environment->insert(QStringLiteral("reached_over_ssh"),
        QJsonObject { { QStringLiteral("client_address"), f.at(0) }, { QStringLiteral("server_address"), f.at(2) } });
}

} // namespace Agents
