#include "app/cli/ldapcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/historysink.h"
#include "app/cli/ldapagents.h"
#include "app/cli/ldapoptions.h"
#include "app/cli/ldapprinter.h"
#include "app/cli/serverlogoption.h"
#include "core/agents/coordinator.h"
#include "core/common/units.h"
#include "core/ldap/loadgenerator.h"
#include "core/ldap/probe.h"
#include "core/run/proberunner.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(Probe an LDAP server, or put load on it.

Operations:
  probe     connect, TLS, bind, root DSE and one search, each timed; TLS facts; server recognised
  search    searches: --base, --filter (a template; required, there is no default), --scope, --attrs
  bind      binds as --dn PATTERN (all share the password of --password-file);
            --mode rebind (on persistent connections, default) or new-connection (connect+bind+unbind)
  modify    replaces --attr of --dn PATTERN with --value PATTERN
  compare   compares --attr of --dn PATTERN with --value PATTERN
  adddel    adds and deletes inetOrgPerson entries under --parent (removed at the end, also on cancel)
  mixed     a mix by weight: --mix search=90,modify=10 (plus the options of each operation)

Templates (filter, dn, value): [A-B] an inclusive integer range, zero-padded when A has leading zeros
([00000-99999]); \[ a literal bracket; [file:PATH] the lines of a file. Keys are drawn by --access:
uniform (default), sequential, zipf:S (e.g. zipf:1.0), hot:P/Q (P % of operations to Q % of the keys).
Filters are accepted with or without outer parentheses.

Concurrency: --threads x --connections (per thread) x --outstanding (per connection), asynchronous.
--rate sets a total target for the run (open loop: latency counts from the scheduled time, so queueing
shows). --ramp rate:1000,2000,4000@10 or outstanding:1,2,4,8@5 steps through values (seconds per step);
it sets the duration, so it does not take --duration (nor --rate for a rate ramp). --duration excludes
--warmup. A run fails when no operation succeeded for --fail-after seconds; a reconnect within that
window lets it go on, and is counted. --ok-codes 0,32 counts those result codes as successes (for loads
meant to miss). --coalesce-reads batches the reads of a closed-loop load (not with --rate, not for binds).

An option that does not apply to the operation (or to the operations of the mix) is refused, never
ignored: 'dirbench-cli ldap OPERATION --help' lists the options of each.

Many hosts: --agents load1,load2 (names as in ~/.ssh/config), @FILE, ansible:INVENTORY:GROUP, this, or
local:N runs the load from agents ('dirbench-cli agent' over ssh, or N processes here); --rate and --threads
are totals split as evenly as possible, each agent's clock offset is measured and all start at one instant,
and the record's intervals and summary are the exact merge (histograms summed, never averaged percentiles),
with each agent's share and figures in agents[]. --start-at and --interval-histograms make records of runs
started by another launcher mergeable with 'dirbench-cli merge'.

Passwords are never taken on the command line: --password-file FILE, the environment variable
DIRBENCH_PASSWORD, or a prompt. They are never written to any file, log or record.

Defaults: --scope sub, --access uniform, --threads 2, --connections 2,
--outstanding 4, --duration 10, --warmup 0, --interval 1, --fail-after 10, --max-errors 0 (no limit),
--network-timeout 5, --op-timeout 10.
)";

const QStringList& operations()
{
    static const QStringList ops = { QStringLiteral("probe"), QStringLiteral("search"), QStringLiteral("bind"),
        QStringLiteral("modify"), QStringLiteral("compare"), QStringLiteral("adddel"), QStringLiteral("mixed") };
    return ops;
}

QStringList connectionNames()
{
    QStringList out;
    for (const auto& o : ldapConnectionOptions())
        out << o.names().constFirst();
    return out;
}

QStringList outputNames(bool load)
{
    QStringList out { QStringLiteral("json") };
    if (load)
        out << QStringLiteral("quiet") << QStringLiteral("server-log");
    for (const auto& o : historyOptions())
        out << o.names().constFirst();
    return out;
}

QStringList loadRunNames()
{
    QStringList out = ldapAgentOptionNames();
    for (const auto& o : ldapRunOptions())
        out << o.names().constFirst();
    return out;
}

// The options of one operation; for "mixed", those of every operation (the mix decides when it is parsed).
QStringList optionsOf(const QString& op)
{
    if (op == u"probe")
        return connectionNames() + QStringList { QStringLiteral("base"), QStringLiteral("filter") }
        + outputNames(false);
    if (op == u"mixed")
        return connectionNames() + QStringList { QStringLiteral("mix") }
        + ldapLoadOptionNames(
            { LdapOpKind::Search, LdapOpKind::Bind, LdapOpKind::Modify, LdapOpKind::Compare, LdapOpKind::AddDelete })
            + loadRunNames() + outputNames(true);
    return connectionNames() + ldapLoadOptionNames({ ldapOpKind(op) }) + loadRunNames() + outputNames(true);
}

QList<QCommandLineOption> allOptions()
{
    return ldapConnectionOptions() + ldapWorkloadOptions() + ldapTimingOptions() + ldapRunOptions() + ldapAgentOptions()
        + QList<QCommandLineOption> { QCommandLineOption(QStringLiteral("json"),
                                          QStringLiteral("Write the RunRecord to FILE ('-' = stdout, and nothing "
                                                         "else goes to stdout)."),
                                          QStringLiteral("FILE")),
              QCommandLineOption(
                  QStringLiteral("quiet"), QStringLiteral("Print no interval lines, only the summary (loads).")),
              serverLogCommandLineOption() }
    + historyOptions();
}

// Probe takes the connection, --base and --filter (its one search) and the output options; nothing of a load.
int refuseForProbe(const QCommandLineParser& parser)
{
    const QStringList mine = optionsOf(QStringLiteral("probe"));
    for (const QString& name : parser.optionNames())
        if (!mine.contains(name))
            return badArgument(QStringLiteral("--") + name,
                QStringLiteral("does not apply to ldap probe (one connect, bind and search, timed): it is an option "
                               "of the loads"));
    return ExitOk;
}

int runProbe(
    const QCommandLineParser& parser, const LdapTarget& t, HistorySink& history, std::FILE* out, RunRecord* rec)
{
    ProbeSpec spec;
    spec.target = t;
    spec.searchBase = parser.value(QStringLiteral("base"));
    if (parser.isSet(QStringLiteral("filter")))
        spec.filter = parser.value(QStringLiteral("filter"));
    if (int rc = history.configure(parser))
        return rc;
    if (int rc = history.begin(QStringLiteral("ldap-probe"), spec.toJson()))
        return rc;
    ProbeRunner runner;
    *rec = runWithSignals(runner, Ldap::makeProbeJob(spec), [](const SampleBatch&) {});
    printProbe(out, *rec);
    return ExitOk;
}

int runLoad(const LdapLoadSpec& s, const Agents::CoordinatorSpec* agents, const QCommandLineParser& parser,
    HistorySink& history, std::FILE* out, RunRecord* rec)
{
    ServerLogOption serverLog;
    if (int rc = serverLogFromParser(parser, &serverLog))
        return rc;
    if (int rc = history.configure(parser))
        return rc;
    if (int rc = history.begin(s.kindName(), s.toJson()))
        return rc;
    printLoadHeader(out, s);
    const bool quiet = parser.isSet(QStringLiteral("quiet"));
    ProbeRunner runner;
    std::function<RunRecord(RunContext&)> job = Ldap::makeLoadJob(s);
    if (agents)
        job = [spec = *agents](RunContext& ctx) { return Agents::runAgents(spec, ctx); };
    *rec = runWithSignals(runner, job, [&](const SampleBatch& batch) {
        history.add(batch);
        if (!quiet)
            for (const auto& smp : batch)
                printLoadInterval(out, smp);
    });
    attachServerLog(serverLog, *rec, out);
    printLoadSummary(out, *rec);
    return ExitOk;
}

int refuseRepeatedBut(const QCommandLineParser& parser, const QString& repeatable)
{
    QStringList seen;
    for (const QString& name : parser.optionNames()) {
        if (seen.contains(name) && name != repeatable)
            return badArgument(QStringLiteral("--") + name, QStringLiteral("given more than once"));
        seen << name;
    }
    return ExitOk;
}

} // namespace

int ldapLoadFromArgs(const QStringList& args, const QByteArray& password, LdapLoadSpec* spec)
{
    const QString op = args.value(0);
    if (!operations().contains(op) || op == u"probe")
        return badArgument(QStringLiteral("spec.args"), QStringLiteral("not a load operation: '") + op + u'\'');
    QCommandLineParser parser;
    parser.addOptions(allOptions());
    if (!parser.parse(QStringList { QStringLiteral("dirbench-cli") } + args.mid(1)))
        return badArgument(QStringLiteral("spec.args"), parser.errorText());
    if (int rc = refuseRepeated(parser))
        return rc;
    if (int rc = ldapWorkloadFromParser(parser, { op, {}, false }, spec))
        return rc;
    if (int rc = ldapTimingFromParser(parser, spec))
        return rc;
    const bool needPassword
        = std::any_of(spec->mix.begin(), spec->mix.end(), [](const auto& m) { return m.first == LdapOpKind::Bind; });
    // The password came over stdin; the parser takes it from where it looks when no file is named.
    const QByteArray saved = qgetenv("DIRBENCH_PASSWORD");
    qputenv("DIRBENCH_PASSWORD", password);
    const int rc = ldapTargetFromParser(parser, { needPassword, false }, &spec->target);
    qputenv("DIRBENCH_PASSWORD", saved);
    if (saved.isEmpty())
        qunsetenv("DIRBENCH_PASSWORD");
    if (rc)
        return rc;
    if (ProbeError e; !CompiledLoad::compile(*spec, &e))
        return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
    return ExitOk;
}

int runLdapCommand(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString op = args.size() > 1 ? args.at(1) : QString();
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    parser.addOptions(allOptions());
    if (op.isEmpty() || op == u"--help" || op == u"-h" || op == u"--help-all")
        return printHelp(parser, QStringLiteral("ldap OPERATION"), op.isEmpty());
    if (!operations().contains(op))
        return badArgument(QStringLiteral("ldap"),
            QStringLiteral("unknown operation '") + op + QStringLiteral("' (one of ")
                + operations().join(QStringLiteral(", ")) + u')');
    args.removeAt(1);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli ldap %s: %s\n", qPrintable(op), qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printUsage(
            QStringLiteral("ldap ") + op, QString::fromUtf8(kDescription), onlyOptions(allOptions(), optionsOf(op)));
    if (int rc = refuseRepeatedBut(parser, QStringLiteral("ssh-option")))
        return rc;
    if (!parser.positionalArguments().isEmpty())
        return badArgument(parser.positionalArguments().constFirst(),
            QStringLiteral("unexpected argument (passwords are never taken on the command line: use --password-file)"));

    // Everything is checked before the password is read (it may be prompted for) and before the history opens.
    LdapLoadSpec s;
    if (op == u"probe") {
        if (int rc = refuseForProbe(parser))
            return rc;
    } else {
        if (int rc = ldapWorkloadFromParser(parser, { op, {}, false }, &s))
            return rc;
        if (int rc = ldapTimingFromParser(parser, &s))
            return rc;
        if (int rc = ldapRunOptionsFromParser(parser, &s))
            return rc;
    }
    const bool needPassword = op != u"probe"
        && std::any_of(s.mix.begin(), s.mix.end(), [](const auto& m) { return m.first == LdapOpKind::Bind; });
    if (int rc = ldapTargetFromParser(parser, { needPassword, false }, &s.target))
        return rc;
    if (op != u"probe")
        if (ProbeError e; !CompiledLoad::compile(s, &e))
            return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
    Agents::CoordinatorSpec agents;
    if (op != u"probe")
        if (int rc = coordinatorFromParser(parser, s, &agents))
            return rc;
    const bool useAgents = !agents.hosts.isEmpty();

    const QString jsonPath = parser.value(QStringLiteral("json"));
    std::FILE* out = humanStream(jsonPath == u"-");
    HistorySink history;
    RunRecord rec;
    if (int rc = op == u"probe" ? runProbe(parser, s.target, history, out, &rec)
                                : runLoad(s, useAgents ? &agents : nullptr, parser, history, out, &rec))
        return rc;
    history.finish(out, rec);
    if (!jsonPath.isEmpty() && !writeRecord(rec, jsonPath))
        return ExitFailed;
    return rec.status == u"ok" ? history.baselineExit() : ExitFailed;
}

} // namespace Cli
