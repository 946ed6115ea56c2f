#include "app/cli/ldapcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/historysink.h"
#include "app/cli/ldapoptions.h"
#include "app/cli/ldapprinter.h"
#include "core/common/units.h"
#include "core/ldap/loadgenerator.h"
#include "core/ldap/probe.h"
#include "core/run/proberunner.h"

#include <QCommandLineParser>

#include <cmath>
#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(Probe an LDAP server, or put load on it.

Operations:
  probe     connect, TLS, bind, root DSE and one search, each timed; TLS facts; server recognised
  search    searches: --base, --filter (a template), --scope, --attrs
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
it sets the duration. --duration excludes --warmup. A run fails when no operation succeeded for
--fail-after seconds; a reconnect within that window lets it go on, and is counted.

Passwords are never taken on the command line: --password-file FILE, the environment variable
DIRBENCH_PASSWORD, or a prompt. They are never written to any file, log or record.

Defaults: --scope sub, --filter (objectClass=*), --access uniform, --threads 2, --connections 2,
--outstanding 4, --duration 10, --warmup 0, --interval 1, --fail-after 10, --max-errors 0 (no limit),
--network-timeout 5, --op-timeout 10.
)";

} // namespace

int runLdapCommand(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString op = args.size() > 1 ? args.at(1) : QString();
    const QStringList ops = { QStringLiteral("probe"), QStringLiteral("search"), QStringLiteral("bind"),
        QStringLiteral("modify"), QStringLiteral("compare"), QStringLiteral("adddel"), QStringLiteral("mixed") };
    QCommandLineParser p;
    p.setApplicationDescription(QString::fromUtf8(kDescription));
    p.addHelpOption();
    QList<QCommandLineOption> options = ldapConnectionOptions() + ldapWorkloadOptions() + ldapTimingOptions();
    options << QCommandLineOption(QStringLiteral("json"),
        QStringLiteral("Write the RunRecord to FILE ('-' = stdout, and nothing else goes to stdout)."),
        QStringLiteral("FILE"))
            << QCommandLineOption(QStringLiteral("quiet"), QStringLiteral("Print no interval lines, only the summary."))
            << historyOptions();
    for (const auto& o : options)
        p.addOption(o);
    if (op.isEmpty() || op == u"--help" || op == u"-h") {
        std::fputs(
            qPrintable(p.helpText().replace(QStringLiteral("[options]"), QStringLiteral("ldap OPERATION [options]"))),
            op.isEmpty() ? stderr : stdout);
        return op.isEmpty() ? ExitBadArgs : ExitOk;
    }
    if (!ops.contains(op))
        return badArgument(QStringLiteral("ldap"),
            QStringLiteral("unknown operation '") + op + QStringLiteral("' (one of ") + ops.join(QStringLiteral(", "))
                + u')');
    args.removeAt(1);
    if (!p.parse(args)) {
        std::fprintf(stderr, "dirbench-cli ldap %s: %s\n", qPrintable(op), qPrintable(p.errorText()));
        return ExitBadArgs;
    }
    if (p.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(p.helpText().replace(
                       QStringLiteral("[options]"), QStringLiteral("ldap ") + op + QStringLiteral(" [options]"))),
            stdout);
        return ExitOk;
    }
    if (int rc = refuseRepeated(p))
        return rc;
    if (!p.positionalArguments().isEmpty())
        return badArgument(p.positionalArguments().first(),
            QStringLiteral("unexpected argument (passwords are never taken on the command line: use --password-file)"));

    LdapTarget t;
    const bool needPassword
        = op == u"bind" || (op == u"mixed" && p.value(QStringLiteral("mix")).contains(QLatin1String("bind")));
    if (int rc = ldapTargetFromParser(p, needPassword, &t))
        return rc;

    const QString jsonPath = p.value(QStringLiteral("json"));
    std::FILE* out = humanStream(jsonPath == u"-");
    const bool quiet = p.isSet(QStringLiteral("quiet"));
    HistorySink history;
    if (int rc = history.configure(p))
        return rc;
    ProbeRunner runner;
    RunRecord rec;

    if (op == u"probe") {
        ProbeSpec spec;
        spec.target = t;
        spec.searchBase = p.value(QStringLiteral("base"));
        if (p.isSet(QStringLiteral("filter")))
            spec.filter = p.value(QStringLiteral("filter"));
        if (int rc = history.begin(QStringLiteral("ldap-probe"), spec.toJson()))
            return rc;
        rec = runWithSignals(runner, Ldap::makeProbeJob(spec), [](const SampleBatch&) {});
        printProbe(out, rec);
    } else {
        LdapLoadSpec s;
        s.target = t;
        if (int rc = ldapWorkloadFromParser(p, op, &s))
            return rc;
        if (int rc = ldapTimingFromParser(p, &s))
            return rc;
        ProbeError e;
        if (!CompiledLoad::compile(s, &e))
            return badArgument(QStringLiteral("--") + e.field, e.detail);
        if (int rc = history.begin(s.kindName(), s.toJson()))
            return rc;
        printLoadHeader(out, s);
        rec = runWithSignals(runner, Ldap::makeLoadJob(s), [&](const SampleBatch& batch) {
            history.add(batch);
            if (!quiet)
                for (const auto& smp : batch)
                    printLoadInterval(out, smp);
        });
        printLoadSummary(out, rec);
    }
    history.finish(out, rec);
    if (!jsonPath.isEmpty() && !writeRecord(rec, jsonPath))
        return ExitFailed;
    return rec.status == u"ok" ? history.baselineExit() : ExitFailed;
}

} // namespace Cli
