// dirbench-cli: the headless front end. Wiring only: each command lives in its own file.
#include "app/cli/agentcommand.h"
#include "app/cli/agentscommand.h"
#include "app/cli/clicommon.h"
#include "app/cli/cloudcommand.h"
#include "app/cli/curvecommand.h"
#include "app/cli/diskcommand.h"
#include "app/cli/experimentcommand.h"
#include "app/cli/historycommand.h"
#include "app/cli/ldapcommand.h"
#include "app/cli/mergecommand.h"
#include "app/cli/replaycommand.h"
#include "app/cli/replicationcommand.h"
#include "app/cli/reportcommand.h"
#include "app/cli/sandboxcommand.h"
#include "app/cli/sizingcommand.h"
#include "app/cli/workloadcommand.h"

#include <QCoreApplication>

#include <cstdio>
#include <cstring>

namespace {

const char* const kUsage = R"(Usage: dirbench-cli COMMAND [OPTIONS]

DirBench: directory-service performance workbench, headless.

Commands:
  agent     one agent of a load from many hosts (started by 'ldap ... --agents'; NDJSON on stdin/stdout)
  agents    check the agents' hosts: version, clock offset, round trip, CPUs, the target reachable
  disk      test a disk the way a directory server uses it (dd as the eDirectory article measures it, sequential,
            random, commit latency, and the "directory" suite with verdicts)
  cloud     cloud disk catalog: list, eval a disk at a size, "what do I need", measured vs listed
  curve     entry-cache coverage vs ok/s: a 389-ds cache sweep, or a working-set sweep on any server
  experiment  the guide's experiments: threads (Table 2), tls (Table 7), dbsize (Table 5)
  history   list, show, export, import, compare, rename, tag or delete saved runs
  ldap      probe an LDAP server, or load it: search, bind, modify, compare, adddel, mixed
  replay    replay a workload (connections, timing, values) against a server, with a fidelity report
  merge     merge the records of loads run together from several hosts, exactly (histograms, not averages)
  replication  replication lag: a marker written on the supplier, timed until each consumer shows it
  report    a PDF/HTML/CSV report of run records (--in RUN.json ... --pdf OUT.pdf); needs no display
  sandbox   start, inspect or stop a private slapd (or 389-ds) on 127.0.0.1 with generated entries
  sizing    RAM and cache sizing per server kind, each number with its formula and source
  workload  analyze access logs (389-ds, OpenLDAP stats, slapo-accesslog LDIF): mix, templates, skew, churn

Run 'dirbench-cli COMMAND --help' for the options of a command.

Every run is saved in the history unless --no-history; --name NAME names it. --baseline NAME compares a run with
a saved one, and --fail-if-slower PCT exits 3 when its headline is worse than the baseline's by more than PCT %.

Exit codes: 0 the run completed; 1 the run failed or was cancelled; 2 bad arguments (nothing was run);
3 a verdict failed and --fail-on-verdict was given, or the run was slower than --baseline by more than
--fail-if-slower.
)";

} // namespace

int main(int argc, char** argv)
{
    if (argc > 1 && std::strcmp(argv[1], "report") == 0) // makes its own QGuiApplication (offscreen)
        return Cli::runReportCommand(argc, argv);
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DIRBENCH_VERSION));

    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args.at(1) == u"--help" || args.at(1) == u"-h" || args.at(1) == u"help") {
        std::fputs(kUsage, args.size() < 2 ? stderr : stdout);
        return args.size() < 2 ? Cli::ExitBadArgs : Cli::ExitOk;
    }
    if (args.at(1) == u"--version" || args.at(1) == u"-v") {
        std::printf("dirbench-cli %s\n", DIRBENCH_VERSION);
        return Cli::ExitOk;
    }
    const QString& command = args.at(1);
    QStringList rest = args;
    rest.removeAt(1); // keep argv[0] for QCommandLineParser
    if (command == u"disk")
        return Cli::runDiskCommand(rest);
    if (command == u"agent")
        return Cli::runAgentCommand(rest);
    if (command == u"agents")
        return Cli::runAgentsCommand(rest);
    if (command == u"merge")
        return Cli::runMergeCommand(rest);
    if (command == u"cloud")
        return Cli::runCloudCommand(rest);
    if (command == u"curve")
        return Cli::runCurveCommand(rest);
    if (command == u"experiment")
        return Cli::runExperimentCommand(rest);
    if (command == u"history")
        return Cli::runHistoryCommand(rest);
    if (command == u"ldap")
        return Cli::runLdapCommand(rest);
    if (command == u"replay")
        return Cli::runReplayCommand(rest);
    if (command == u"replication")
        return Cli::runReplicationCommand(rest);
    if (command == u"sandbox")
        return Cli::runSandboxCommand(rest);
    if (command == u"sizing")
        return Cli::runSizingCommand(rest);
    if (command == u"workload")
        return Cli::runWorkloadCommand(rest);
    std::fprintf(stderr, "dirbench-cli: unknown command '%s' (try --help)\n", qPrintable(command));
    return Cli::ExitBadArgs;
}
