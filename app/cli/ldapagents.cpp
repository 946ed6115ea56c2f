#include "app/cli/ldapagents.h"

#include "app/cli/clicommon.h"
#include "core/agents/agentargs.h"
#include "core/agents/agentprotocol.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>

#include <cmath>

namespace Cli {

namespace {

QCommandLineOption opt(const char* name, const char* help, const char* value = nullptr)
{
    return value ? QCommandLineOption(QLatin1String(name), QString::fromUtf8(help), QLatin1String(value))
                 : QCommandLineOption(QLatin1String(name), QString::fromUtf8(help));
}

QString defaultAgentCommand()
{
    // The program running now, when it is installed under that name; else the name for ssh's PATH.
    const QString self = QCoreApplication::applicationFilePath();
    return QFileInfo(self).fileName() == u"dirbench-cli" && self.startsWith(QLatin1String("/usr/"))
        ? self
        : QStringLiteral("dirbench-cli");
}

} // namespace

QList<QCommandLineOption> ldapAgentOptions()
{
    return {
        opt("agents",
            "Run the load from agents: host names as in ~/.ssh/config (load1,load2), @FILE, ansible:INV:GROUP, "
            "this (this machine), local:N (N processes here, no ssh) or k8s:[NS/]JOB:N (the pods of agents "
            "k8s-manifest, through kubectl attach). --rate and --threads are totals.",
            "HOSTS"),
        opt("ssh-option", "One ssh argument for every agent's ssh (repeatable), e.g. -Jbastion.", "OPT"),
        opt("agent-command", "The program the agents run (default dirbench-cli).", "CMD"),
        opt("allow-clock-skew", "Start even when an agent's clock is off by more than a tenth of the interval."),
        opt("on-agent-loss", "fail (default: stop the run, failed) or continue (the others go on).", "POLICY"),
    };
}

QStringList ldapAgentOptionNames()
{
    QStringList out;
    for (const auto& o : ldapAgentOptions())
        out << o.names().constFirst();
    return out;
}

QList<QCommandLineOption> ldapRunOptions()
{
    return {
        opt("start-at",
            "Start the measured phase at this absolute time (ISO 8601, e.g. 2026-12-01T20:00:00Z, or @EPOCH "
            "seconds); the warm-up is the time until then. For runs started together by another launcher.",
            "TIME"),
        opt("interval-histograms",
            "Keep each interval's latency histogram (latency_histogram_ns, also per operation) in the record, so "
            "that records of separate runs merge exactly (dirbench-cli merge)."),
    };
}

int ldapRunOptionsFromParser(const QCommandLineParser& parser, LdapLoadSpec* spec)
{
    spec->intervalHistograms = parser.isSet(QStringLiteral("interval-histograms"));
    if (!parser.isSet(QStringLiteral("start-at")))
        return ExitOk;
    const QString text = parser.value(QStringLiteral("start-at")).trimmed();
    qint64 ns = 0;
    if (text.startsWith(u'@')) {
        bool ok = false;
        const double secs = text.mid(1).toDouble(&ok);
        if (ok && std::isfinite(secs) && secs > 0)
            ns = qint64(std::llround(secs * 1e9));
    } else {
        const QDateTime dt = QDateTime::fromString(text, Qt::ISODateWithMs);
        if (dt.isValid())
            ns = dt.toMSecsSinceEpoch() * 1000000LL;
    }
    if (ns <= 0)
        return badArgument(QStringLiteral("--start-at"),
            u'\'' + text + QStringLiteral("' is not a time: ISO 8601 (2026-12-01T20:00:00Z) or @EPOCH seconds"));
    const qint64 now = Agents::realtimeNs();
    if (ns < now)
        return badArgument(QStringLiteral("--start-at"), u'\'' + text + QStringLiteral("' is in the past"));
    if (ns > now + 86400LL * 1000000000LL)
        return badArgument(QStringLiteral("--start-at"), u'\'' + text + QStringLiteral("' is more than a day ahead"));
    spec->startAtEpochNs = ns;
    return ExitOk;
}

namespace {

int checkAgentUse(const QCommandLineParser& parser, const LdapLoadSpec& load, int agents)
{
    if (load.threads < agents)
        return badArgument(QStringLiteral("--threads"),
            QStringLiteral("%1 threads for %2 agents: --threads is the total, at least one per agent")
                .arg(load.threads)
                .arg(agents));
    if (parser.isSet(QStringLiteral("start-at")))
        return badArgument(QStringLiteral("--start-at"),
            QStringLiteral("not with --agents: the coordinator starts the agents at one instant itself"));
    if (parser.isSet(QStringLiteral("on-agent-loss"))) {
        const QString v = parser.value(QStringLiteral("on-agent-loss"));
        if (v != u"fail" && v != u"continue")
            return badArgument(
                QStringLiteral("--on-agent-loss"), QStringLiteral("must be fail or continue, not '") + v + u'\'');
    }
    return ExitOk;
}

} // namespace

int coordinatorFromParser(const QCommandLineParser& parser, const LdapLoadSpec& load, Agents::CoordinatorSpec* spec)
{
    if (!parser.isSet(QStringLiteral("agents"))) {
        for (const QString& name : ldapAgentOptionNames())
            if (parser.isSet(name))
                return badArgument(QStringLiteral("--") + name, QStringLiteral("only with --agents"));
        return ExitOk;
    }
    QString why;
    const auto hosts = Agents::parseAgentList(parser.value(QStringLiteral("agents")), &why);
    if (!hosts)
        return badArgument(QStringLiteral("--agents"), why);
    if (int rc = checkAgentUse(parser, load, int(hosts->size())))
        return rc;
    const bool anySsh = std::any_of(hosts->begin(), hosts->end(), [](const auto& h) { return !h.local && !h.isPod(); });
    if (!anySsh && parser.isSet(QStringLiteral("ssh-option")))
        return badArgument(QStringLiteral("--ssh-option"), QStringLiteral("no agent of --agents is reached over ssh"));
    Agents::CoordinatorSpec& s = *spec;
    s.load = load;
    s.hosts = *hosts;
    s.sshOptions = parser.values(QStringLiteral("ssh-option"));
    s.agentCommand = parser.isSet(QStringLiteral("agent-command")) ? parser.value(QStringLiteral("agent-command"))
                                                                   : defaultAgentCommand();
    s.allowClockSkew = parser.isSet(QStringLiteral("allow-clock-skew"));
    s.continueOnLoss = parser.value(QStringLiteral("on-agent-loss")) == u"continue";
    s.args = Agents::agentLoadArgs(load); // the one the GUI's LDAP page uses
    return ExitOk;
}

} // namespace Cli
