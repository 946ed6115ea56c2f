#include "app/cli/replicationcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/historysink.h"
#include "app/cli/ldapoptions.h"
#include "app/cli/passwordsource.h"
#include "app/cli/replicationload.h"
#include "core/common/units.h"
#include "core/experiments/replication.h"
#include "core/experiments/replicationlag.h"
#include "core/experiments/replicationsummary.h"
#include "core/experiments/replicationvendorread.h"
#include "core/run/proberunner.h"

#include <QJsonArray>

#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(How long until a write is everywhere: replication lag measured as users feel it.

  replication --supplier URI [--consumer URI ...] --marker-dn DN --marker-rate N --duration S
              [--watch auto|push|poll] [--poll-ms MS] [--max-lag-ms P99] [connection options]
              [--consumer-bind-dn DN --consumer-password-file FILE]

A marker, a sequence number in the description of --marker-dn, is written on the supplier N times a second
(the entry is made an organizationalRole when it does not exist and removed at the end, also after a failure
or Ctrl-C; an existing entry gets its description values back). The writer runs open loop: marker k is sent at
its time with up to 8 writes unanswered; one that cannot be sent before the next is due is missed (counted per
interval and in the summary, markers_missed), so a slow supplier still gets markers when lag is worst. Each consumer is watched for it: pushed where
the consumer offers it (a base-scope RFC 4533 sync search in refreshAndPersist mode, OpenLDAP with syncprov; else
a persistent search, 389-ds), else read every --poll-ms (default 5) by a base-scope search; marker k counts as
seen when a value >= k is first seen (a consumer may skip values). --watch auto (the default) chooses per
consumer from its root DSE's supportedControl, push fails the run (exit 1) where a consumer offers neither,
poll always reads. Lag = time seen on the consumer - time the supplier acknowledged the write (lag_ms: what a
client reading after its write succeeded sees; the headline and the verdict); the record also keeps it from the
write's send (lag_from_send_ms: an upper bound that includes the supplier's own queueing). One process reads
every server, so one clock measures both. A marker seen before its acknowledgement arrived counts as lag 0 from
the ack (seen_before_ack). A marker not yet seen makes the consumer "behind for at least" the age of the oldest
one, and is never dropped: after --duration the probe waits up to 15 s for the consumers to catch up, and a
marker still unseen then is censored: its lag is at least (end of the watch - its ack), it counts in every
percentile at that bound, and a percentile that falls on or after such a marker is printed "> X" (p99_at_least
in the record) and fails --max-lag-ms. The record (kind replication) says the method per consumer (sync,
psearch or poll) and for the run (or mixed).

Each interval line shows the writes acknowledged per second and, per consumer, the lag p50/p99/max of the markers
seen in it, how many are behind and for how long. --max-lag-ms gives a verdict per consumer on its p99 lag over
every marker written, unseen ones included; a consumer that could not be read for longer than 10 s (the failure
window; longest_unreadable_s) fails it too.
The connection options (--bind-dn, --password-file, --starttls, ...) apply to every server;
--consumer-bind-dn with --consumer-password-file (both or neither) binds to the consumers as another DN. On
389-ds, consumers the supplier's replication agreements point at and --consumer does not name are discovered
(cn=mapping tree,cn=config; the record lists them); elsewhere --consumer is required. A consumer that cannot be
read is a warning (consumer-unreachable) and the run goes on; no readable consumer, or a supplier that
acknowledges nothing for 10 s, fails the run (exit 1). A writer that sends fewer than 90 % of the markers
--marker-rate asks for (a slow supplier or client) is a warning (marker-rate-not-reached); the verdict line then
states the rate written.

What the servers say, read once per interval beside the markers (read only, 1 s timeouts): OpenLDAP's
contextCSN per server ID on the supplier and each consumer (1 us) and the consumer's cn=Monitor syncrepl entries
(olmSR*, 2.5+); 389-ds's RUV (nsds50ruv, 1 s), the agreement's nsds5AgmtMaxCSN, state (green/amber/red) and
message (nsds5replicaLastUpdateStatusJSON), nsds5replicaChangesSentSinceStartup, and the consumer's conflict
entries (nsds5ReplConflict). The vendor's lag (supplier CSN time - consumer CSN time, the figure dsconf and
contextCSN checks show) is printed beside the measured one (from the consumer's copies of the marker entry, read
right before and after its CSNs: measured_from marker-entry; the watcher's view only where that read fails). The
record's measured_lag_range_ms is what the markers allow whatever the delays (a marker's CSN lies between its
write's send and its ack); when the figure is more than the CSN's resolution plus two marker periods outside
that range, the record flags vendor_disagrees and warns (vendor-lag-disagrees).

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
      << QCommandLineOption(QStringLiteral("consumer-bind-dn"),
             QStringLiteral("Bind to the consumers as this DN (with --consumer-password-file)."), QStringLiteral("DN"))
      << QCommandLineOption(QStringLiteral("consumer-password-file"),
             QStringLiteral("The consumers' password: the first line of FILE (with --consumer-bind-dn)."),
             QStringLiteral("FILE"))
      << QCommandLineOption(
             QStringLiteral("marker-dn"), QStringLiteral("The marker entry on the supplier."), QStringLiteral("DN"))
      << QCommandLineOption(
             QStringLiteral("marker-rate"), QStringLiteral("Markers per second, 0.1 to 1000."), QStringLiteral("N"))
      << QCommandLineOption(QStringLiteral("duration"), QStringLiteral("Seconds of markers."), QStringLiteral("S"))
      << QCommandLineOption(QStringLiteral("watch"),
             QStringLiteral("auto (push where a consumer offers it, else poll; default), push or poll."),
             QStringLiteral("HOW"))
      << QCommandLineOption(QStringLiteral("poll-ms"), QStringLiteral("Read a polled consumer every MS (default 5)."),
             QStringLiteral("MS"))
      << QCommandLineOption(
             QStringLiteral("max-lag-ms"), QStringLiteral("Verdict: p99 lag at most P99 ms."), QStringLiteral("P99"))
      << QCommandLineOption(QStringLiteral("json"), QStringLiteral("Write the RunRecord to FILE ('-' = stdout)."),
             QStringLiteral("FILE"))
      << historyOptions();
    return o;
}

int refuseRepeatedButConsumer(const QCommandLineParser& parser)
{
    QStringList seen;
    for (const QString& name : parser.optionNames()) {
        if (name != u"consumer" && seen.contains(name))
            return badArgument(QStringLiteral("--") + name, QStringLiteral("given more than once"));
        seen << name;
    }
    return ExitOk;
}

// Issue 13: --consumer-bind-dn and --consumer-password-file, both or neither, bind to the consumers as another DN;
// without them the consumers connect as the supplier does.
int consumerTemplateFromParser(const QCommandLineParser& parser, const LdapTarget& supplier, LdapTarget* out)
{
    *out = supplier;
    const bool dn = parser.isSet(QStringLiteral("consumer-bind-dn"));
    if (dn != parser.isSet(QStringLiteral("consumer-password-file")))
        return dn ? badArgument(QStringLiteral("--consumer-password-file"),
                   QStringLiteral("required with --consumer-bind-dn (both or neither)"))
                  : badArgument(QStringLiteral("--consumer-bind-dn"),
                      QStringLiteral("required with --consumer-password-file (both or neither)"));
    if (!dn)
        return ExitOk;
    out->auth = LdapTarget::Auth::Simple;
    out->bindDn = parser.value(QStringLiteral("consumer-bind-dn"));
    if (out->bindDn.trimmed().isEmpty())
        return badArgument(QStringLiteral("--consumer-bind-dn"), QStringLiteral("empty"));
    if (const ProbeError e = out->validate(); e.isError())
        return badArgument(
            e.field == u"bind-dn" ? QStringLiteral("--consumer-bind-dn") : u"--" + e.field, e.cliDetail());
    const QString file = parser.value(QStringLiteral("consumer-password-file"));
    if (file.isEmpty())
        return badArgument(QStringLiteral("--consumer-password-file"), QStringLiteral("empty"));
    QString error, source;
    if (!readPassword(file, true, &out->password, &error, &source))
        return badArgument(QStringLiteral("--consumer-password-file"), error);
    return ExitOk;
}

// Without --consumer the supplier's agreements must name one (389-ds). Asked before the run, so that a supplier
// with none is a refusal naming --consumer.
int requireConsumers(const ReplicationSpec& s)
{
    if (!s.consumers.isEmpty())
        return ExitOk;
    QList<LdapTarget> found;
    if (const ProbeError e = ReplicationVendor::discover(s.supplier, s.markerDn, {}, s.consumerTemplate, &found);
        e.isError()) {
        std::fprintf(stderr, "dirbench-cli replication: the supplier cannot be read to find its consumers: %s\n",
            qPrintable(e.message()));
        return ExitFailed;
    }
    if (found.isEmpty())
        return badArgument(QStringLiteral("--consumer"),
            QStringLiteral("required: the supplier's replication agreements (389-ds, cn=mapping tree,cn=config) "
                           "name no consumer"));
    return ExitOk;
}

int specFromParser(const QCommandLineParser& parser, ReplicationSpec* s)
{
    for (const char* required : { "supplier", "marker-dn", "marker-rate" })
        if (!parser.isSet(QLatin1String(required)))
            return badArgument(QStringLiteral("--") + QLatin1String(required), QStringLiteral("required"));
    if (!parser.isSet(QStringLiteral("duration")) && !parser.isSet(QStringLiteral("ramp")))
        return badArgument(QStringLiteral("--duration"), QStringLiteral("required (or a --ramp with --mix)"));
    if (int rc = ldapTargetFromParser(
            parser, { replicationLoadNeedsPassword(parser), false, QStringLiteral("supplier") }, &s->supplier))
        return rc;
    if (int rc = consumerTemplateFromParser(parser, s->supplier, &s->consumerTemplate))
        return rc;
    for (const QString& list : parser.values(QStringLiteral("consumer")))
        for (const QString& uri : list.split(u',')) {
            LdapTarget c = s->consumerTemplate;
            c.uri = uri.trimmed();
            if (const ProbeError e = c.validate(); e.isError())
                return badArgument(QStringLiteral("--consumer"), e.cliDetail());
            s->consumers << c;
        }
    s->markerDn = parser.value(QStringLiteral("marker-dn"));
    double poll = 5;
    if (int rc = numberOption(parser, "marker-rate", 0.1, 1000, &s->markerRate))
        return rc;
    if (int rc = numberOption(parser, "duration", 1, 86400, &s->durationS))
        return rc;
    if (int rc = numberOption(parser, "poll-ms", 1, 60000, &poll))
        return rc;
    if (int rc = numberOption(parser, "max-lag-ms", 0.001, 1e9, &s->maxLagMs))
        return rc;
    s->pollMs = int(poll);
    if (parser.isSet(QStringLiteral("watch")))
        s->watch = parser.value(QStringLiteral("watch"));
    if (int rc = replicationLoadFromParser(parser, s))
        return rc;
    if (const ProbeError e = s->validate(); e.isError())
        return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
    return ExitOk;
}

void printInterval(std::FILE* out, const Sample& s)
{
    const ReplicationFigures::Interval iv = ReplicationFigures::Interval::fromJson(s.values);
    std::fprintf(out, "%7.1f s  writes %6s/s", s.t, qPrintable(Units::formatNumber(iv.writeOkPerS, 1)));
    if (const auto missed = qint64(iv.markersMissed); missed > 0)
        std::fprintf(out, " (%lld missed)", missed);
    for (const ReplicationFigures::ConsumerFigures& c : iv.consumers) {
        std::fprintf(out, "  %s lag ms p50/p99/max %s behind %lld (%.1f s)", qPrintable(c.uri),
            qPrintable(ReplicationFigures::lagTriple(c.lagFigures)), qint64(c.behind), c.oldestUnseenS);
        std::fputs(qPrintable(c.vendorLag), out);
    }
    std::fputc('\n', out);
    std::fflush(out); // a line per interval as it happens, also into a pipe
}

void printConsumers(std::FILE* out, const ReplicationFigures::Summary& s)
{
    for (const ReplicationFigures::ConsumerFigures& c : s.consumers) {
        std::fprintf(out,
            "%s: lag ms p50/p99/max %s (from the send %s), seen %lld, unseen %lld (behind for at least %.1f s), seen "
            "before ack %lld\n",
            qPrintable(c.uri), qPrintable(ReplicationFigures::lagTriple(c.lagFigures)),
            qPrintable(ReplicationFigures::lagTriple(c.lagFromSendFigures)), qint64(c.markersSeen.value_or(0)),
            qint64(c.unseen.value_or(0)), c.behindForAtLeastS.value_or(0), qint64(c.seenBeforeAck.value_or(0)));
        if (!c.vendor.isEmpty())
            std::fprintf(out, "  the server says: %s\n", qPrintable(c.vendor));
    }
}

void printSummary(std::FILE* out, const RunRecord& rec)
{
    const ReplicationFigures::Summary s = ReplicationFigures::Summary::of(rec);
    std::fprintf(out,
        "\nmarkers written %lld (%s/s on the supplier, the probe's own load), write errors %lld, missed %lld, "
        "method %s\n",
        qint64(s.markersWritten.value_or(0)), qPrintable(Units::formatNumber(s.markerRate(), 1)),
        qint64(s.writeErrors.value_or(0)), qint64(s.markersMissed.value_or(0)), qPrintable(s.method));
    printConsumers(out, s);
    if (!s.discoveredConsumers.isEmpty())
        std::fprintf(
            out, "discovered from the supplier's agreements: %s\n", qPrintable(s.discoveredConsumers.join(u' ')));
    printReplicationLoadSummary(out, rec);
    if (const QString headline = ReplicationFigures::headline(rec); !headline.isEmpty())
        std::fprintf(out, "headline: %s\n", qPrintable(headline));
    for (const QString& sentence : ReplicationFigures::verdictSentences(rec))
        std::fprintf(out, "%s\n", qPrintable(sentence));
    for (const RunWarning& w : rec.warnings)
        std::fprintf(out, "warning (%s): %s\n", qPrintable(w.code), qPrintable(w.message));
    if (rec.status != u"ok")
        std::fprintf(
            out, "run %s%s%s\n", qPrintable(rec.status), rec.failure.isEmpty() ? "" : ": ", qPrintable(rec.failure));
}

} // namespace

int runReplicationCommand(const QStringList& args)
{
    QCommandLineParser parser;
    const QString description = QString::fromUtf8(kDescription) + replicationLoadHelp();
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    const QList<QCommandLineOption> options = commandOptions() + replicationLoadOptions();
    for (const auto& o : options)
        parser.addOption(o);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli replication: %s\n", qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printUsage(QStringLiteral("replication"), description, options);
    if (int rc = refuseRepeatedButConsumer(parser))
        return rc;
    if (!parser.positionalArguments().isEmpty())
        return badArgument(parser.positionalArguments().constFirst(), QStringLiteral("unexpected argument"));
    ReplicationSpec spec;
    if (int rc = specFromParser(parser, &spec))
        return rc;
    const QString jsonPath = parser.value(QStringLiteral("json"));
    std::FILE* out = humanStream(jsonPath == u"-");
    HistorySink history;
    if (int rc = history.configure(parser))
        return rc;
    if (int rc = requireConsumers(spec))
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
