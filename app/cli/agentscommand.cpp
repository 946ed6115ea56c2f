#include "app/cli/agentscommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/ldapagents.h"
#include "core/agents/agentcheck.h"
#include "core/agents/k8smanifest.h"
#include "core/common/units.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(The agents of a load from many hosts.

  agents check --agents HOSTS [--uri URI]
      each host's agent is started as a run starts it (ssh HOST dirbench-cli agent, or local processes) and
      reports its version and CPU count; its clock offset and round trip are measured as before a run (8 rounds,
      the lowest round trip wins); with --uri it also connects to the target from there. Exit 0 when every
      agent answered (and reached the URI), else 1.
  agents k8s-manifest --image IMAGE --count N [--namespace NS] [--name NAME] [--out FILE]
      writes a Kubernetes Indexed Job (JSON, for kubectl apply -f) of N pods, each running one agent with its
      stdin open for 'kubectl attach -i' (a closed stdin stops it); 'ldap ... --agents k8s:[NS/]JOB:N'
      attaches to them. Untested against a cluster.
)";

int runK8sManifest(const QCommandLineParser& parser)
{
    if (int rc = refuseOptions(parser,
            { QStringLiteral("agents"), QStringLiteral("ssh-option"), QStringLiteral("agent-command"),
                QStringLiteral("uri") },
            QStringLiteral("not an option of agents k8s-manifest (it is for agents check)")))
        return rc;
    Agents::K8sJobSpec spec;
    spec.image = parser.value(QStringLiteral("image")).trimmed();
    if (spec.image.isEmpty())
        return badArgument(
            QStringLiteral("--image"), QStringLiteral("required: an image with dirbench-cli in its PATH"));
    bool ok = false;
    spec.agents = parser.value(QStringLiteral("count")).toInt(&ok);
    if (!ok || spec.agents < 1 || spec.agents > 4096)
        return badArgument(QStringLiteral("--count"), QStringLiteral("the number of agent pods, 1 to 4096"));
    static const QRegularExpression dns(QStringLiteral("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$"));
    if (parser.isSet(QStringLiteral("name")))
        spec.name = parser.value(QStringLiteral("name"));
    if (!dns.match(spec.name).hasMatch())
        return badArgument(QStringLiteral("--name"), QStringLiteral("a DNS label: lower-case letters, digits and '-'"));
    spec.nameSpace = parser.value(QStringLiteral("namespace"));
    if (!spec.nameSpace.isEmpty() && !dns.match(spec.nameSpace).hasMatch())
        return badArgument(
            QStringLiteral("--namespace"), QStringLiteral("a DNS label: lower-case letters, digits and '-'"));
    const QByteArray json = QJsonDocument(Agents::k8sIndexedJob(spec)).toJson(QJsonDocument::Indented);
    const QString out = parser.value(QStringLiteral("out"));
    if (out.isEmpty() || out == u"-") {
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        return ExitOk;
    }
    QFile f(out);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(json) != json.size())
        return badArgument(QStringLiteral("--out"), out + QStringLiteral(" cannot be written: ") + f.errorString());
    return ExitOk;
}

} // namespace

int runAgentsCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("check|k8s-manifest"), QStringLiteral("the subcommand"));
    parser.addOptions(ldapAgentOptions().mid(0, 3));
    parser.addOption(QCommandLineOption(QStringLiteral("uri"),
        QStringLiteral("check: the target each agent should reach: ldap://host[:port] or ldaps://..."),
        QStringLiteral("URI")));
    parser.addOption(QCommandLineOption(QStringLiteral("image"),
        QStringLiteral("k8s-manifest: the image (with dirbench-cli)."), QStringLiteral("IMAGE")));
    parser.addOption(QCommandLineOption(
        QStringLiteral("count"), QStringLiteral("k8s-manifest: the number of agent pods."), QStringLiteral("N")));
    parser.addOption(QCommandLineOption(
        QStringLiteral("namespace"), QStringLiteral("k8s-manifest: the Job's namespace."), QStringLiteral("NS")));
    parser.addOption(QCommandLineOption(QStringLiteral("name"),
        QStringLiteral("k8s-manifest: the Job's name (default dirbench-agents)."), QStringLiteral("NAME")));
    parser.addOption(QCommandLineOption(QStringLiteral("out"),
        QStringLiteral("k8s-manifest: write the manifest to FILE (default stdout)."), QStringLiteral("FILE")));
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli agents: %s\n", qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printHelp(parser, QStringLiteral("agents check"));
    if (int rc = refuseRepeated(parser))
        return rc;
    if (parser.positionalArguments() == QStringList { QStringLiteral("k8s-manifest") })
        return runK8sManifest(parser);
    if (parser.positionalArguments() != QStringList { QStringLiteral("check") })
        return badArgument(QStringLiteral("agents"), QStringLiteral("the subcommand is check or k8s-manifest"));
    if (int rc = refuseOptions(parser,
            { QStringLiteral("image"), QStringLiteral("count"), QStringLiteral("namespace"), QStringLiteral("name"),
                QStringLiteral("out") },
            QStringLiteral("not an option of agents check (it is for agents k8s-manifest)")))
        return rc;
    if (!parser.isSet(QStringLiteral("agents")))
        return badArgument(QStringLiteral("--agents"), QStringLiteral("required: the hosts to check"));
    QString why;
    const auto hosts = Agents::parseAgentList(parser.value(QStringLiteral("agents")), &why);
    if (!hosts)
        return badArgument(QStringLiteral("--agents"), why);
    Agents::CoordinatorSpec spec;
    spec.sshOptions = parser.values(QStringLiteral("ssh-option"));
    if (parser.isSet(QStringLiteral("agent-command")))
        spec.agentCommand = parser.value(QStringLiteral("agent-command"));
    spec.hosts = *hosts;
    int failed = 0;
    std::printf("%-24s %-10s %5s %12s %10s  %s\n", "agent", "version", "cpus", "offset ms", "rtt ms", "target");
    for (const Agents::AgentCheck& c : Agents::checkAgents(spec, parser.value(QStringLiteral("uri")))) {
        if (!c.ok())
            ++failed;
        std::printf("%-24s %-10s %5d %12s %10s  %s\n", qPrintable(c.host.name),
            qPrintable(c.version().isEmpty() ? QStringLiteral("-") : c.version()), c.cpus(),
            c.offsetMs ? qPrintable(Units::formatNumber(*c.offsetMs, 3)) : "-",
            c.rttMs ? qPrintable(Units::formatNumber(*c.rttMs, 3)) : "-", qPrintable(c.targetText()));
    }
    return failed ? ExitFailed : ExitOk;
}

} // namespace Cli
