#include "app/cli/diskhost.h"

#include "app/cli/clicommon.h"

#include <algorithm>

namespace Cli {

QList<QCommandLineOption> diskHostOptions()
{
    return { { QStringLiteral("host"),
                 QStringLiteral("Run the test on HOST (an ssh destination: a ~/.ssh/config name, user@host), where "
                                "dirbench-cli must be installed; --dir is a directory there. The record names the "
                                "host and carries its environment."),
                 QStringLiteral("HOST") },
        { QStringLiteral("ssh-option"),
            QStringLiteral("With --host: one ssh argument (repeatable), e.g. -Jbastion or -F FILE."),
            QStringLiteral("OPT") },
        { QStringLiteral("agent-command"),
            QStringLiteral("With --host: the program to run there (default dirbench-cli)."), QStringLiteral("CMD") } };
}

int remoteDiskFromParser(
    const QCommandLineParser& p, const DiskSpec& spec, std::optional<Agents::RemoteRunSpec>* remote)
{
    if (!p.isSet(QStringLiteral("host"))) {
        for (const char* only : { "ssh-option", "agent-command" })
            if (p.isSet(QString::fromLatin1(only)))
                return badArgument(QStringLiteral("--") + QLatin1String(only), QStringLiteral("only with --host"));
        return ExitOk;
    }
    const QString host = p.value(QStringLiteral("host")).trimmed();
    if (host.isEmpty() || host.startsWith(u'-') || host.contains(u' '))
        return badArgument(QStringLiteral("--host"), QStringLiteral("'%1' is not an ssh destination").arg(host));
    Agents::RemoteRunSpec r;
    r.host = Agents::AgentHost::named(host);
    r.sshOptions = p.values(QStringLiteral("ssh-option"));
    if (p.isSet(QStringLiteral("agent-command")))
        r.agentCommand = p.value(QStringLiteral("agent-command"));
    r.engine = QStringLiteral("disk");
    r.engineSpec = spec.toWire();
    r.kind = QStringLiteral("disk");
    r.recordSpec = spec.toJson();
    // Its own hard stop: the longest the test may take, and time to prepare and clean up.
    const DiskSpec resolved = spec.resolved();
    r.deadlineS = std::max(spec.untilSteadySec, resolved.durationSec) * std::max(1, spec.repeat) * 6 + 600;
    *remote = r;
    return ExitOk;
}

} // namespace Cli
