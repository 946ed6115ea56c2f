#include "app/cli/experimentcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/historysink.h"
#include "app/cli/ldapoptions.h"
#include "app/cli/ldapprinter.h"
#include "core/catalog/sources.h"
#include "core/common/units.h"
#include "core/experiments/experimentsummary.h"
#include "core/experiments/guided.h"
#include "core/experiments/pointaxis.h"
#include "core/run/proberunner.h"
#include "core/store/comparison.h"

#include <QJsonArray>

#include <algorithm>
#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(The guide's experiments, one command each (HP-UX Directory Server 8.1 tuning guide):

  threads   ok/s and latency as client threads grow (Table 2): a search load per point
            (--points 1,2,4,8,16,32 threads); or, with --server-threads 4,8,16,32, as 389-ds's
            nsslapd-threadnumber grows under the fixed load of --threads (admin bind; set online, or with
            --restart on a DirBench 389-ds sandbox restarted per point; the original is put back)
  tls       connect + bind per operation, plain and over TLS (Table 7): --uri is the plain server,
            --tls-uri the same server over ldaps:// (or --tls-starttls), --dn the entries to bind as
  dbsize    ok/s against demo directories of growing size (Table 5), started and stopped by DirBench
            (--points 1000,10000,100000 entries); needs slapd, takes no --uri

Each point runs --seconds-per-point seconds (default 10). ok/s counts successful operations (the throughput, and
what the best point is); ops/s counts every completed one, errors among them. The connection and load options are those of
'dirbench-cli ldap search' (threads: --filter is required, and --threads only goes with --server-threads,
as --points sets the client threads) and of 'ldap bind' for tls (a new connection per bind: no --mode,
--connections or --outstanding). dbsize sets the server, --base and --filter of each point itself.
An option that does not apply to the experiment is refused, never ignored.
)";

QList<double> parsePoints(const QString& text, bool* ok)
{
    QList<double> out;
    *ok = !text.trimmed().isEmpty();
    for (const QString& p : text.split(u',')) { // an empty item ("1,,2") is an error, not skipped
        bool good = false;
        const double v = p.trimmed().toDouble(&good);
        if (!good || v < 1 || v != std::floor(v) || v > 10000000)
            *ok = false;
        out << v;
    }
    return out;
}

QString num(const std::optional<double>& v, int decimals = 1)
{
    return v ? Units::formatNumber(*v, decimals) : QStringLiteral("-");
}

// A point per line: ok/s (successful operations: the throughput), ops/s (completed) and errors beside, latency,
// and CPU per operation (the load threads', the whole client's).
void printPoints(std::FILE* out, const RunRecord& rec, const ExperimentSummary& s, const char* x)
{
    std::fprintf(out, "\n%12s %12s %12s %10s %10s %10s %12s %12s %8s%s\n", x, "ok/s", "ops/s", "errors", "p50 ms",
        "p99 ms", "load us/op", "client us/op", "status", Comparison::coalescedReads(rec) ? "  (coalesced reads)" : "");
    for (const ExperimentPoint& p : s.points)
        std::fprintf(out, "%12s %12s %12s %10s %10s %10s %12s %12s %8s\n", qPrintable(num(p.x, 0)),
            qPrintable(num(p.okPerS)), qPrintable(num(p.opsPerS)), qPrintable(num(p.errors, 0)),
            qPrintable(num(p.latencyMs.p50, 3)), qPrintable(num(p.latencyMs.p99, 3)), qPrintable(num(p.loadCpuUsPerOp)),
            qPrintable(num(p.clientCpuUsPerOp)), qPrintable(p.status));
    if (!s.answer.isEmpty())
        std::fprintf(out, "%s\n", qPrintable(s.answer)); // as the page and the report's headline word it
    if (s.hasReference)
        std::fprintf(
            out, "reference: %s — %s\n", qPrintable(Sources::readable(s.referenceSource)), qPrintable(s.referenceNote));
}

QStringList names(const QList<QCommandLineOption>& options)
{
    QStringList out;
    for (const auto& o : options)
        out << o.names().constFirst();
    return out;
}

// What one experiment does not take, with the reason; the load options of the wrong operation are refused by
// ldapWorkloadFromParser.
int refuseForExperiment(const QCommandLineParser& parser, const QString& what)
{
    const QString tlsOnly = QStringLiteral("only for experiment tls");
    const QString threadsOnly = QStringLiteral("only for experiment threads");
    if (what != u"tls")
        if (int rc = refuseOptions(parser,
                { QStringLiteral("tls-uri"), QStringLiteral("tls-starttls"), QStringLiteral("tls-ca-file") }, tlsOnly))
            return rc;
    if (what != u"threads")
        if (int rc
            = refuseOptions(parser, { QStringLiteral("server-threads"), QStringLiteral("restart") }, threadsOnly))
            return rc;
    if (what == u"threads" && !parser.isSet(QStringLiteral("server-threads")))
        return refuseOptions(parser, { QStringLiteral("threads") },
            QStringLiteral("the points set the client threads (--points); --threads is the fixed load of "
                           "--server-threads"));
    if (what == u"tls") {
        if (int rc = refuseOptions(
                parser, { QStringLiteral("points") }, QStringLiteral("experiment tls has two points, plain and TLS")))
            return rc;
        if (parser.isSet(QStringLiteral("tls-uri")) && parser.isSet(QStringLiteral("tls-starttls")))
            return badArgument(QStringLiteral("--tls-starttls"),
                QStringLiteral("give the TLS server with --tls-uri or use StartTLS on --uri, not both"));
        return refuseOptions(parser, { QStringLiteral("mode"), QStringLiteral("connections") },
            QStringLiteral("experiment tls connects and binds anew for each operation"));
    }
    if (what == u"dbsize")
        return refuseOptions(parser,
            names(ldapConnectionOptions()) + QStringList { QStringLiteral("base"), QStringLiteral("filter") },
            QStringLiteral("experiment dbsize starts its own demo directories and binds to them; each point "
                           "searches its own entries (the base and the filter are set per point)"));
    return ExitOk;
}

// The options each experiment takes, for its --help.
QStringList optionsOf(const QString& what, const QStringList& all)
{
    QStringList out = names(historyOptions()) << QStringLiteral("json") << QStringLiteral("seconds-per-point");
    const QStringList conn = names(ldapConnectionOptions());
    if (what == u"tls") {
        out << conn << ldapLoadOptionNames({ LdapOpKind::Bind }) << QStringLiteral("tls-uri")
            << QStringLiteral("tls-starttls") << QStringLiteral("tls-ca-file");
        out.removeAll(QStringLiteral("mode"));
        out.removeAll(QStringLiteral("connections"));
    } else {
        out << ldapLoadOptionNames({ LdapOpKind::Search }) << QStringLiteral("points");
        if (what == u"threads") {
            out << conn << QStringLiteral("server-threads") << QStringLiteral("restart");
        } else {
            out.removeAll(QStringLiteral("base"));
            out.removeAll(QStringLiteral("filter"));
        }
    }
    QStringList taken;
    for (const QString& n : all)
        if (out.contains(n))
            taken << n;
    return taken;
}

} // namespace

int runExperimentCommand(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString what = args.size() > 1 ? args.at(1) : QString();
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    QList<QCommandLineOption> options = ldapConnectionOptions() + ldapWorkloadOptions();
    options << QCommandLineOption(
        QStringLiteral("points"), QStringLiteral("Threads or entries per point."), QStringLiteral("LIST"))
            << QCommandLineOption(QStringLiteral("seconds-per-point"),
                   QStringLiteral("Seconds each point runs (default 10)."), QStringLiteral("S"))
            << QCommandLineOption(
                   QStringLiteral("tls-uri"), QStringLiteral("tls: the server over ldaps://."), QStringLiteral("URI"))
            << QCommandLineOption(QStringLiteral("tls-starttls"), QStringLiteral("tls: use StartTLS on --uri instead."))
            << QCommandLineOption(QStringLiteral("tls-ca-file"),
                   QStringLiteral("tls: CA certificates for the TLS run."), QStringLiteral("FILE"))
            << QCommandLineOption(QStringLiteral("server-threads"),
                   QStringLiteral("threads: sweep 389-ds's nsslapd-threadnumber over LIST instead."),
                   QStringLiteral("LIST"))
            << QCommandLineOption(QStringLiteral("restart"),
                   QStringLiteral("threads --server-threads: restart the DirBench 389-ds sandbox for each point."))
            << QCommandLineOption(QStringLiteral("json"), QStringLiteral("Write the RunRecord to FILE ('-' = stdout)."),
                   QStringLiteral("FILE"))
            << historyOptions();
    for (const auto& o : options)
        parser.addOption(o);
    if (what.isEmpty() || what == u"--help" || what == u"-h" || what == u"--help-all")
        return printHelp(parser, QStringLiteral("experiment WHAT"), what.isEmpty());
    if (what != u"threads" && what != u"tls" && what != u"dbsize")
        return badArgument(QStringLiteral("experiment"),
            QStringLiteral("unknown experiment '") + what + QStringLiteral("' (threads, tls or dbsize)"));
    args.removeAt(1);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli experiment %s: %s\n", qPrintable(what), qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printUsage(QStringLiteral("experiment ") + what, QString::fromUtf8(kDescription),
            onlyOptions(options, optionsOf(what, names(options))));
    if (int rc = refuseRepeated(parser))
        return rc;
    if (!parser.positionalArguments().isEmpty())
        return badArgument(parser.positionalArguments().constFirst(), QStringLiteral("unexpected argument"));
    if (int rc = refuseForExperiment(parser, what))
        return rc;
    double seconds = 10;
    if (int rc = numberOption(parser, "seconds-per-point", 0.5, 3600, &seconds))
        return rc;
    bool ok = true;
    const QList<double> points = parser.isSet(QStringLiteral("points"))
        ? parsePoints(parser.value(QStringLiteral("points")), &ok)
        : QList<double>();
    if (!ok)
        return badArgument(QStringLiteral("--points"), QStringLiteral("a comma-separated list of whole numbers ≥ 1"));

    std::function<RunRecord(RunContext&)> job;
    QString kind;
    QJsonObject specJson;
    const char* x = "threads";
    bool coalesced = false; // the load held responses (--coalesce-reads): every latency includes that
    if (what == u"dbsize") {
        DatabaseSizeSpec s;
        if (int rc = ldapWorkloadFromParser(
                parser, { QStringLiteral("search"), QStringLiteral("experiment dbsize"), true }, &s.load))
            return rc;
        // Replaced per point; here only for the form check.
        s.load.target.uri = QStringLiteral("ldap://127.0.0.1:389");
        s.load.base = QStringLiteral("dc=example,dc=com");
        s.load.filter = QStringLiteral("(uid=user[0-9])");
        if (!points.isEmpty()) {
            s.entries.clear();
            for (double v : points)
                s.entries << int(v);
        }
        s.secondsPerPoint = seconds;
        specJson = { { QStringLiteral("entries"),
                         QJsonArray::fromVariantList(QVariantList(s.entries.begin(), s.entries.end())) },
            { QStringLiteral("load"), s.load.toJson() }, { QStringLiteral("seconds_per_point"), seconds } };
        if (ProbeError e; !CompiledLoad::compile(s.load, &e))
            return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
        kind = QStringLiteral("database-size");
        x = "entries";
        coalesced = s.load.coalesceReads;
        job = Experiments::makeDatabaseSizeJob(s);
    } else {
        LdapLoadSpec load;
        if (int rc = ldapWorkloadFromParser(parser,
                { what == u"tls" ? QStringLiteral("bind") : QStringLiteral("search"),
                    QStringLiteral("experiment ") + what },
                &load))
            return rc;
        LdapTarget t;
        if (int rc = ldapTargetFromParser(parser, { what == u"tls", what == u"tls" }, &t))
            return rc;
        load.target = t;
        if (what == u"threads") {
            ThreadSweepSpec s;
            s.load = load;
            if (!points.isEmpty()) {
                s.threads.clear();
                for (double v : points)
                    s.threads << int(v);
            }
            if (parser.isSet(QStringLiteral("server-threads"))) {
                if (parser.isSet(QStringLiteral("points")))
                    return badArgument(QStringLiteral("--points"), QStringLiteral("give --points or --server-threads"));
                const QList<double> st = parsePoints(parser.value(QStringLiteral("server-threads")), &ok);
                if (!ok || std::any_of(st.begin(), st.end(), [](double v) { return v > 4096; }))
                    return badArgument(
                        QStringLiteral("--server-threads"), QStringLiteral("a comma-separated list of 1..4096"));
                for (double v : st)
                    s.serverThreads << int(v);
                s.restart = parser.isSet(QStringLiteral("restart"));
                x = "server_threads";
            } else if (parser.isSet(QStringLiteral("restart"))) {
                return badArgument(QStringLiteral("--restart"), QStringLiteral("only with --server-threads"));
            }
            s.secondsPerPoint = seconds;
            ProbeError e;
            if (!CompiledLoad::compile(s.load, &e))
                return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
            const QList<int>& axis = s.serverThreads.isEmpty() ? s.threads : s.serverThreads;
            specJson = { { QStringLiteral("axis"), QLatin1String(x) },
                { QLatin1String(x), QJsonArray::fromVariantList(QVariantList(axis.begin(), axis.end())) },
                { QStringLiteral("load"), s.load.toJson() }, { QStringLiteral("restart"), s.restart },
                { QStringLiteral("seconds_per_point"), seconds } };
            kind = QStringLiteral("thread-sweep");
            coalesced = s.load.coalesceReads;
            job = Experiments::makeThreadSweepJob(s);
        } else {
            TlsCostSpec s;
            s.plain = load;
            s.plain.bindNewConnection = true; // as runTlsCost runs it
            s.tls = t;
            if (parser.isSet(QStringLiteral("tls-starttls"))) {
                s.tls.startTls = true;
            } else if (parser.isSet(QStringLiteral("tls-uri"))) {
                s.tls.uri = parser.value(QStringLiteral("tls-uri"));
            } else {
                return badArgument(
                    QStringLiteral("--tls-uri"), QStringLiteral("give the TLS server (or --tls-starttls)"));
            }
            if (parser.isSet(QStringLiteral("tls-ca-file"))) {
                if (!t.isTls())
                    if (int rc = refuseOptions(parser, { QStringLiteral("ca-file") },
                            QStringLiteral("the plain run has no TLS, and the TLS run takes --tls-ca-file")))
                        return rc;
                s.tls.caFile = parser.value(QStringLiteral("tls-ca-file"));
            }
            if (const ProbeError e = s.tls.validate(); e.isError())
                return badArgument(QStringLiteral("--tls-") + e.field, e.cliDetail());
            if (ProbeError e; !CompiledLoad::compile(s.plain, &e))
                return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
            s.secondsEach = seconds;
            specJson = { { QStringLiteral("plain"), s.plain.toJson() }, { QStringLiteral("tls"), s.tls.toJson() },
                { QStringLiteral("seconds_each"), seconds } };
            kind = QStringLiteral("tls-cost");
            x = "tls";
            coalesced = s.plain.coalesceReads;
            job = Experiments::makeTlsCostJob(s);
        }
    }
    const QString jsonPath = parser.value(QStringLiteral("json"));
    std::FILE* out = humanStream(jsonPath == u"-");
    HistorySink history;
    if (int rc = history.configure(parser))
        return rc;
    if (int rc = history.begin(kind, specJson))
        return rc;
    ProbeRunner runner;
    const RunRecord rec = runWithSignals(runner, job, [&](const SampleBatch& batch) {
        history.add(batch);
        for (const auto& s : batch) {
            std::fprintf(out, "%-16s ", qPrintable(s.series));
            printLoadInterval(out, s, coalesced);
        }
    });
    const ExperimentSummary summary = ExperimentSummary::of(rec, QLatin1String(x));
    printPoints(out, rec, summary, x);
    RunRecord tail = rec; // warnings and status; the points were printed above
    tail.summary = QJsonObject();
    printLoadSummary(out, tail);
    history.finish(out, rec);
    if (!jsonPath.isEmpty() && !writeRecord(rec, jsonPath))
        return ExitFailed;
    return rec.status == u"ok" ? history.baselineExit() : ExitFailed;
}

} // namespace Cli
