#include "app/cli/replaycommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/historysink.h"
#include "app/cli/ldapoptions.h"
#include "app/cli/ldapprinter.h"
#include "app/cli/replayprinter.h"
#include "core/replay/replayplan.h"
#include "core/replay/replayprepare.h"
#include "core/replay/replayrun.h"
#include "core/run/proberunner.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QJsonDocument>
#include <QSaveFile>

#include <cmath>
#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(Replay a workload against a server: the logged connections, their operations in
log order and their timing, with a fidelity report (replayed against logged, per template).

Source: --workload W.dbwl (made by 'workload analyze --save'), or --log FILE... (access logs).
Timing (one of): --speed K (the logged inter-arrival times divided by K; default 1), --rate-profile (the
log's operations per second, second by second, spread evenly over each second in log order: it smooths the
bursts within a second), --as-fast-as-possible (closed loop, from time 0: nothing is sent before the
measured span). Open loop: latency counts from the scheduled time; an operation that cannot be sent within
--op-timeout of its time is not sent and is counted as missed; how late each left is the send lag
(summary.send_lag_ms, warning schedule-late when its p99 is over 1 ms). --duration S stops after S seconds.
Logs with whole-second timestamps (389-ds without high-resolution time, syslog): with --speed, each
second's operations are spread over it at random positions drawn from --seed N (default: a random seed,
recorded in the record's spec, so that a run can be repeated). The record's spec lists the workload's
gaps: what the log could not give.
Connections are opened off the replay's threads: a slow connect, TLS handshake or server delays only its
own connection.
Fidelity: per template, the replayed against the logged counts, shares, result codes and times; open loop,
the achieved rate against the log's, over the whole run (verdict: within 5 %) and per second (p50 and
p99 of |achieved - logged| / logged).
Concurrency: one connection per logged connection, opened at its logged time; its operations in log order,
overlapping only where the log shows a request before the previous result; binds and unbinds replayed.
Each replayed connection starts anonymous; --bind-dn (with --password-file) is the setup connection's
identity: the server's counters, and reading and restoring the entries the replay writes.
Values: --values mapped (default) maps each pseudonym onto --key-space ATTR=PATTERN[,PARENT] (e.g.
uid=user[0-99999],ou=people,dc=example,dc=com) keeping its frequency rank: the most frequent token gets the
first key, and so on; --values log sends the logged values (only when the workload kept them).
Binds: logs carry no passwords. --shared-password-file F (one password for every DN) or --passwords FILE
(lines DN<TAB>password; the file must be mode 0600). The record says which was used.
Writes only with --allow-writes --write-base DN (the logged DNs mapped under it); the entries written are
read first and restored at the end, added ones removed, also on cancel or failure. Without --allow-writes,
writes are skipped and counted. --dry-run prints what would be sent, per template and connection, and
sends nothing.

Defaults: --speed 1, --values mapped, --interval 1, --threads 2, --network-timeout 5, --op-timeout 10.
)";

QCommandLineOption opt(const char* name, const char* help, const char* value = nullptr)
{
    return value ? QCommandLineOption(QLatin1String(name), QString::fromUtf8(help), QLatin1String(value))
                 : QCommandLineOption(QLatin1String(name), QString::fromUtf8(help));
}

QList<QCommandLineOption> replayOptions()
{
    return {
        opt("workload", "The workload to replay (a .dbwl file).", "W"),
        opt("log", "Access log(s) to replay instead of a workload (may be given more than once).", "FILE"),
        opt("speed", "Timing: the logged inter-arrival times divided by K (default 1).", "K"),
        opt("rate-profile",
            "Timing: the log's operations per second, second by second, spread evenly over each second (smooths "
            "bursts within a second)."),
        opt("as-fast-as-possible", "Timing: closed loop, each connection as fast as its order allows."),
        opt("seed",
            "Whole-second log timestamps with --speed: the seed of the positions each second's operations get "
            "(default: random, recorded).",
            "N"),
        opt("values", "log (the logged values, when kept) or mapped (default).", "MODE"),
        opt("key-space", "The target's keys for mapped values: ATTR=PATTERN[,PARENT], e.g. uid=user[0-99999].", "P"),
        opt("passwords", "Bind passwords: lines DN<TAB>password (mode 0600).", "FILE"),
        opt("shared-password-file", "One bind password for every DN (first line of F).", "F"),
        opt("allow-writes", "Replay writes (with --write-base); undone at the end."),
        opt("write-base", "The DN under which writes are replayed.", "DN"),
        opt("duration", "Stop after S seconds (default: the whole workload).", "S"),
        opt("interval", "Seconds per interval line (default 1).", "S"),
        opt("threads", "Client threads driving the connections (default 2).", "N"),
        opt("no-server-counters", "Do not read the server's counters (cn=monitor)."),
        opt("dry-run", "Print what would be sent (per template and connection); send nothing."),
        opt("json", "Write the RunRecord (or, with --dry-run, the counts) to FILE ('-' = stdout).", "FILE"),
        opt("quiet", "Print no interval lines, only the summary."),
    };
}

QList<QCommandLineOption> allOptions()
{
    return ldapConnectionOptions() + replayOptions() + historyOptions();
}

int timingFromParser(const QCommandLineParser& parser, ReplaySpec& s)
{
    const bool speed = parser.isSet(QStringLiteral("speed")), rate = parser.isSet(QStringLiteral("rate-profile")),
               fast = parser.isSet(QStringLiteral("as-fast-as-possible"));
    if (int(speed) + int(rate) + int(fast) > 1)
        return badArgument(speed ? QStringLiteral("--speed") : QStringLiteral("--rate-profile"),
            QStringLiteral("one timing only: --speed K, --rate-profile or --as-fast-as-possible"));
    s.timing = rate ? ReplaySpec::Timing::RateProfile
        : fast      ? ReplaySpec::Timing::AsFastAsPossible
                    : ReplaySpec::Timing::Speed;
    if (int rc = numberOption(parser, "speed", 0.001, 1000, &s.speed))
        return rc;
    if (int rc = numberOption(parser, "duration", 0.1, 7 * 86400, &s.durationSec))
        return rc;
    if (int rc = numberOption(parser, "interval", 0.1, 3600, &s.intervalSec))
        return rc;
    double threads = s.threads;
    if (int rc = numberOption(parser, "threads", 1, 64, &threads))
        return rc;
    if (threads != std::floor(threads))
        return badArgument(QStringLiteral("--threads"), QStringLiteral("must be a whole number"));
    s.threads = int(threads);
    if (parser.isSet(QStringLiteral("seed"))) {
        bool ok = false;
        const qulonglong seed = parser.value(QStringLiteral("seed")).toULongLong(&ok);
        if (!ok)
            return badArgument(QStringLiteral("--seed"),
                QStringLiteral("must be a whole number from 0 to 18446744073709551615, not '")
                    + parser.value(QStringLiteral("seed")) + u'\'');
        s.seed = seed;
    }
    return ExitOk;
}

int specFromParser(const QCommandLineParser& parser, ReplaySpec& s)
{
    s.workloadPath = parser.value(QStringLiteral("workload"));
    s.logFiles = parser.values(QStringLiteral("log"));
    if (int rc = timingFromParser(parser, s))
        return rc;
    if (parser.isSet(QStringLiteral("values"))) {
        const QString v = parser.value(QStringLiteral("values"));
        if (v != u"log" && v != u"mapped")
            return badArgument(QStringLiteral("--values"), QStringLiteral("must be log or mapped, not '") + v + u'\'');
        s.values = v == u"log" ? ReplaySpec::Values::Log : ReplaySpec::Values::Mapped;
    }
    s.keySpace = parser.value(QStringLiteral("key-space"));
    s.passwordsFile = parser.value(QStringLiteral("passwords"));
    s.sharedPasswordFile = parser.value(QStringLiteral("shared-password-file"));
    s.allowWrites = parser.isSet(QStringLiteral("allow-writes"));
    s.writeBase = parser.value(QStringLiteral("write-base"));
    s.dryRun = parser.isSet(QStringLiteral("dry-run"));
    s.readServerCounters = !parser.isSet(QStringLiteral("no-server-counters"));
    if (const ProbeError e = s.validate(); e.isError())
        return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
    return ExitOk;
}

// The workload, the spec checked against it, the passwords and the plan (Replay::prepare). Logs with no operation
// DirBench recognises exit 1, as `workload analyze`; a log partly not understood is said on stderr.
int prepareReplay(const ReplaySpec& s, ReplayPrepared* out)
{
    *out = Replay::prepare(s);
    for (const QString& w : std::as_const(out->warnings))
        std::fprintf(stderr, "dirbench-cli replay: warning: %s\n", qPrintable(w));
    if (out->unrecognised) {
        std::fprintf(stderr, "dirbench-cli replay: %s\n", qPrintable(out->error.detail));
        return ExitFailed;
    }
    if (!out->ok())
        return badArgument(QStringLiteral("--") + out->error.field, out->error.cliDetail());
    return ExitOk;
}

bool writeJsonFile(const QJsonObject& o, const QString& path)
{
    const QByteArray bytes = QJsonDocument(o).toJson(QJsonDocument::Indented);
    if (path == u"-") {
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
        std::fflush(stdout);
        return true;
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || f.write(bytes) != bytes.size() || !f.commit()) {
        std::fprintf(
            stderr, "dirbench-cli: --json: cannot write %s: %s\n", qPrintable(path), qPrintable(f.errorString()));
        return false;
    }
    return true;
}

int dryRun(const ReplaySpec& s, const Workload& w, const ReplayPasswords& pw, const QString& jsonPath)
{
    ProbeError e;
    const auto plan = ReplayPlan::make(w, s, &pw, QStringLiteral("TAG"), &e);
    if (!plan)
        return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
    std::FILE* out = humanStream(jsonPath == u"-");
    std::fputs(qPrintable(plan->dryRunText()), out);
    if (!jsonPath.isEmpty())
        if (!writeJsonFile(plan->dryRunJson(), jsonPath))
            return ExitFailed;
    return ExitOk;
}

} // namespace

int runReplayCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    parser.addOptions(allOptions());
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli replay: %s\n", qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printHelp(parser, QStringLiteral("replay"));
    if (args.size() < 2)
        return printHelp(parser, QStringLiteral("replay"), true);
    QStringList once = parser.optionNames();
    once.removeAll(QStringLiteral("log"));
    for (const QString& name : once)
        if (once.count(name) > 1)
            return badArgument(QStringLiteral("--") + name, QStringLiteral("given more than once"));
    if (!parser.positionalArguments().isEmpty())
        return badArgument(parser.positionalArguments().constFirst(), QStringLiteral("unexpected argument"));

    ReplaySpec s;
    if (int rc = specFromParser(parser, s))
        return rc;
    ReplayPrepared prepared;
    if (int rc = prepareReplay(s, &prepared))
        return rc;
    if (int rc = ldapTargetFromParser(parser, { false, false }, &s.target))
        return rc;
    const std::shared_ptr<const Workload>& workload = prepared.workload;
    const ReplayPasswords& passwords = prepared.passwords;
    const QString jsonPath = parser.value(QStringLiteral("json"));
    if (s.dryRun)
        return dryRun(s, *workload, passwords, jsonPath);

    std::FILE* out = humanStream(jsonPath == u"-");
    HistorySink history;
    if (int rc = history.configure(parser))
        return rc;
    if (int rc = history.begin(QStringLiteral("replay"), s.toJson()))
        return rc;
    printReplayHeader(out, s, *workload);
    const bool quiet = parser.isSet(QStringLiteral("quiet"));
    ProbeRunner runner;
    const RunRecord rec
        = runWithSignals(runner, Replay::makeReplayJob(s, workload, passwords), [&](const SampleBatch& batch) {
              history.add(batch);
              if (!quiet)
                  for (const auto& smp : batch)
                      printLoadInterval(out, smp);
          });
    printLoadSummary(out, rec);
    printFidelity(out, rec);
    history.finish(out, rec);
    if (!jsonPath.isEmpty() && !writeRecord(rec, jsonPath))
        return ExitFailed;
    return rec.status == u"ok" ? history.baselineExit() : ExitFailed;
}

} // namespace Cli
