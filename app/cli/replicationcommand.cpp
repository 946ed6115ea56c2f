#include "app/cli/replicationcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/historysink.h"
#include "app/cli/ldapoptions.h"
#include "app/cli/replicationload.h"
#include "core/common/units.h"
#include "core/experiments/replication.h"
#include "core/run/proberunner.h"

#include <QJsonArray>

#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(How long until a write is everywhere: replication lag measured as users feel it.

  replication --supplier URI --consumer URI [--consumer URI ...] --marker-dn DN --marker-rate N
              --duration S [--poll-ms MS] [--max-lag-ms P99] [connection options]

A marker, a sequence number in the description of --marker-dn, is written on the supplier N times a second
(the entry is made an organizationalRole when it does not exist and removed at the end, also after a failure
or Ctrl-C; an existing entry gets its description values back). Each consumer is read every --poll-ms
(default 5) by a base-scope search, and marker k counts as seen when a value >= k is first read (a consumer may
skip values). Lag = time seen on the consumer - time the supplier acknowledged the write; one process reads
every server, so one clock measures it. A marker seen before its acknowledgement arrived counts as lag 0
(seen_before_ack). A marker not yet seen makes the consumer "behind for at least" the age of the oldest one,
and is never dropped: after --duration the probe waits up to 15 s for the consumers to catch up. The record
(kind replication) says the method: poll (push through RFC 4533 sync / persistent search is not built yet).

Each interval line shows the writes acknowledged per second and, per consumer, the lag p50/p99/max of the markers
seen in it, how many are behind and for how long. --max-lag-ms gives a verdict per consumer on its p99 lag.
The connection options (--bind-dn, --password-file, --starttls, ...) apply to every server. A consumer that
cannot be read is a warning (consumer-unreachable) and the run goes on; no readable consumer, or a supplier that
acknowledges nothing for 10 s, fails the run (exit 1).

In eDirectory's terms, -625 and -626 during synchronization (ndstrace, ndsrepair) mean replication failing
because NCP timed out, for example on a slow cloud disk: this measures the delay before it comes to that, and
'dirbench-cli disk --profile commit' shows whether the disk is why.
)";

QList<QCommandLineOption> commandOptions()
{
    QList<QCommandLineOption> o;
    for (const QCommandLineOption& c : ldapConnectionOptions())
        if (c.names().constFirst() != u"uri")
            o << c;
    o << QCommandLineOption(QStringLiteral("supplier"), QStringLiteral("The server written to."), QStringLiteral("URI"))
      << QCommandLineOption(QStringLiteral("consumer"),
             QStringLiteral("A server that replicates from it (repeat, or a comma-separated list)."),
             QStringLiteral("URI"))
      << QCommandLineOption(
             QStringLiteral("marker-dn"), QStringLiteral("The marker entry on the supplier."), QStringLiteral("DN"))
      << QCommandLineOption(
             QStringLiteral("marker-rate"), QStringLiteral("Markers per second, 0.1 to 1000."), QStringLiteral("N"))
      << QCommandLineOption(QStringLiteral("duration"), QStringLiteral("Seconds of markers."), QStringLiteral("S"))
      << QCommandLineOption(QStringLiteral("poll-ms"), QStringLiteral("Read each consumer every MS (default 5)."),
             QStringLiteral("MS"))
      << QCommandLineOption(
             QStringLiteral("max-lag-ms"), QStringLiteral("Verdict: p99 lag at most P99 ms."), QStringLiteral("P99"))
      << QCommandLineOption(QStringLiteral("json"), QStringLiteral("Write the RunRecord to FILE ('-' = stdout)."),
             QStringLiteral("FILE"))
      << historyOptions();
    return o;
}

int refuseRepeatedButConsumer(const QCommandLineParser& p)
{
    QStringList seen;
    for (const QString& name : p.optionNames()) {
        if (name != u"consumer" && seen.contains(name))
            return badArgument(QStringLiteral("--") + name, QStringLiteral("given more than once"));
        seen << name;
    }
    return ExitOk;
}

int specFromParser(const QCommandLineParser& p, ReplicationSpec* s)
{
    for (const char* required : { "supplier", "consumer", "marker-dn", "marker-rate" })
        if (!p.isSet(QLatin1String(required)))
            return badArgument(QStringLiteral("--") + QLatin1String(required), QStringLiteral("required"));
    if (!p.isSet(QStringLiteral("duration")) && !p.isSet(QStringLiteral("ramp")))
        return badArgument(QStringLiteral("--duration"), QStringLiteral("required (or a --ramp with --mix)"));
    if (int rc
        = ldapTargetFromParser(p, { replicationLoadNeedsPassword(p), false, QStringLiteral("supplier") }, &s->supplier))
        return rc;
    for (const QString& list : p.values(QStringLiteral("consumer")))
        for (const QString& uri : list.split(u',')) {
            LdapTarget c = s->supplier;
            c.uri = uri.trimmed();
            if (const ProbeError e = c.validate(); e.isError())
                return badArgument(QStringLiteral("--consumer"), e.detail);
            s->consumers << c;
        }
    s->markerDn = p.value(QStringLiteral("marker-dn"));
    double poll = 5;
    if (int rc = numberOption(p, "marker-rate", 0.1, 1000, &s->markerRate))
        return rc;
    if (int rc = numberOption(p, "duration", 1, 86400, &s->durationS))
        return rc;
    if (int rc = numberOption(p, "poll-ms", 1, 60000, &poll))
        return rc;
    if (int rc = numberOption(p, "max-lag-ms", 0.001, 1e9, &s->maxLagMs))
        return rc;
    s->pollMs = int(poll);
    if (int rc = replicationLoadFromParser(p, s))
        return rc;
    if (const ProbeError e = s->validate(); e.isError())
        return badArgument(QStringLiteral("--") + e.field, e.detail);
    return ExitOk;
}

QString lagText(const QJsonValue& v)
{
    if (!v.isObject())
        return QStringLiteral("-");
    const QJsonObject o = v.toObject();
    auto n = [&o](const char* k) { return Units::formatNumber(o.value(QLatin1String(k)).toDouble(), 1); };
    return n("p50") + u'/' + n("p99") + u'/' + n("max");
}

void printInterval(std::FILE* out, const Sample& s)
{
    std::fprintf(out, "%7.1f s  writes %6s/s", s.t,
        qPrintable(Units::formatNumber(s.values.value(QStringLiteral("write_ok_per_s")).toDouble(), 1)));
    const QJsonObject consumers = s.values.value(QStringLiteral("consumers")).toObject();
    for (auto it = consumers.begin(); it != consumers.end(); ++it) {
        const QJsonObject c = it.value().toObject();
        std::fprintf(out, "  %s lag ms p50/p99/max %s behind %lld (%.1f s)", qPrintable(it.key()),
            qPrintable(lagText(c.value(QStringLiteral("lag_ms")))),
            qint64(c.value(QStringLiteral("behind")).toDouble()),
            c.value(QStringLiteral("oldest_unseen_s")).toDouble());
    }
    std::fputc('\n', out);
    std::fflush(out); // a line per interval as it happens, also into a pipe
}

void printSummary(std::FILE* out, const RunRecord& rec)
{
    const QJsonObject& s = rec.summary;
    const QJsonValue markerRate = s.value(s.contains(QStringLiteral("marker_write_ok_per_s"))
            ? QStringLiteral("marker_write_ok_per_s")
            : QStringLiteral("write_ok_per_s")); // beside a load, write_ok_per_s is the load's and the markers'
    std::fprintf(out,
        "\nmarkers written %lld (%s/s on the supplier, the probe's own load), write errors %lld, method %s\n",
        qint64(s.value(QStringLiteral("markers_written")).toDouble()),
        qPrintable(Units::formatNumber(markerRate.toDouble(), 1)),
        qint64(s.value(QStringLiteral("write_errors")).toDouble()),
        qPrintable(s.value(QStringLiteral("method")).toString()));
    const QJsonObject consumers = s.value(QStringLiteral("consumers")).toObject();
    for (auto it = consumers.begin(); it != consumers.end(); ++it) {
        const QJsonObject c = it.value().toObject();
        std::fprintf(out,
            "%s: lag ms p50/p99/max %s, seen %lld, unseen %lld (behind for at least %.1f s), seen before ack %lld\n",
            qPrintable(it.key()), qPrintable(lagText(c.value(QStringLiteral("lag_ms")))),
            qint64(c.value(QStringLiteral("markers_seen")).toDouble()),
            qint64(c.value(QStringLiteral("unseen")).toDouble()),
            c.value(QStringLiteral("behind_for_at_least_s")).toDouble(),
            qint64(c.value(QStringLiteral("seen_before_ack")).toDouble()));
    }
    printReplicationLoadSummary(out, rec);
    for (const QJsonValue v : s.value(QStringLiteral("verdict_sentences")).toArray())
        std::fprintf(out, "%s\n", qPrintable(v.toString()));
    for (const RunWarning& w : rec.warnings)
        std::fprintf(out, "warning (%s): %s\n", qPrintable(w.code), qPrintable(w.message));
    if (rec.status != u"ok")
        std::fprintf(
            out, "run %s%s%s\n", qPrintable(rec.status), rec.failure.isEmpty() ? "" : ": ", qPrintable(rec.failure));
}

} // namespace

int runReplicationCommand(const QStringList& args)
{
    QCommandLineParser p;
    const QString description = QString::fromUtf8(kDescription) + replicationLoadHelp();
    p.setApplicationDescription(description);
    p.addHelpOption();
    const QList<QCommandLineOption> options = commandOptions() + replicationLoadOptions();
    for (const auto& o : options)
        p.addOption(o);
    if (!p.parse(args)) {
        std::fprintf(stderr, "dirbench-cli replication: %s\n", qPrintable(p.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(p))
        return printUsage(QStringLiteral("replication"), description, options);
    if (int rc = refuseRepeatedButConsumer(p))
        return rc;
    if (!p.positionalArguments().isEmpty())
        return badArgument(p.positionalArguments().constFirst(), QStringLiteral("unexpected argument"));
    ReplicationSpec spec;
    if (int rc = specFromParser(p, &spec))
        return rc;
    const QString jsonPath = p.value(QStringLiteral("json"));
    std::FILE* out = humanStream(jsonPath == u"-");
    HistorySink history;
    if (int rc = history.configure(p))
        return rc;
    if (int rc = history.begin(QStringLiteral("replication"), spec.toJson()))
        return rc;
    ProbeRunner runner;
    const RunRecord rec = runWithSignals(runner, Experiments::makeReplicationJob(spec), [&](const SampleBatch& batch) {
        history.add(batch);
        for (const auto& s : batch)
            printInterval(out, s);
    });
    printSummary(out, rec);
    history.finish(out, rec);
    if (!jsonPath.isEmpty() && !writeRecord(rec, jsonPath))
        return ExitFailed;
    return rec.status == u"ok" ? ExitOk : ExitFailed;
}

} // namespace Cli
