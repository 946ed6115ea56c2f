#include "app/cli/diskhost.h"

#include "app/cli/clicommon.h"

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
    if (const QString problem = Agents::sshDestinationProblem(host); !problem.isEmpty())
        return badArgument(QStringLiteral("--host"), problem);
    QString command = Agents::RemoteRunSpec().agentCommand;
    if (p.isSet(QStringLiteral("agent-command")))
        command = p.value(QStringLiteral("agent-command"));
    *remote = Agents::remoteDisk(Agents::AgentHost::named(host), p.values(QStringLiteral("ssh-option")), command, spec);
    return ExitOk;
}

} // namespace Cli
