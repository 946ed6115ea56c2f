#include "app/cli/workloadcommand.h"

#include "app/cli/clicommon.h"
#include "core/agents/remoteanalyze.h"
#include "core/run/runcontext.h"
#include "core/workload/keysummary.h"
#include "core/workload/logreader.h"
#include "core/workload/workloadanalyze.h"
#include "core/workload/workloadfile.h"
#include "core/workload/workloadsummary.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>
#include <unistd.h>

namespace Cli {

namespace {

QString description()
{
    return QStringLiteral(R"(Turn access logs into a workload: the operation mix per second, filter templates (values
replaced by numbered slots, AND/OR parts in a canonical order) with their count, share, result codes, entries,
notes=U share, server times (etime/wtime/optime percentiles) and key skew (Zipf alpha, hot set or uniform),
connection churn and operations in flight.

  workload analyze --log FILE... [--format auto|389|openldap|accesslog-ldif] [--json OUT] [--save W.dbwl]
                   [--keep-values] [--from T] [--to T] [--client IP] [--operations LIST] [--progress]

Logs: 389-ds access logs (1.3 to 3.x), OpenLDAP 2.4 to 2.6 `stats` lines (logfile or slapd -d 256, 2.4's hex
seconds, syslog RFC 3164 or RFC 5424, or bare from journalctl -o cat), slapo-accesslog entries as LDIF. A log in
which no operation is recognised fails (exit 1); more than 10 % of operation lines not understood is a warning. Gzip'd files are read as they are; rotated files of one log are read in the order
of their first line's time; '-' reads standard input. Several files: --log A --log B, or --log A B C.
A log on the server's machine: HOST:/path (an ssh destination, as for `disk --host`; a wildcard such as
HOST:/var/log/dirsrv/slapd-x/access* is matched there). It is read and parsed on that host by its
dirbench-cli; only the analysis (and the workload --save asks for, pseudonymised unless --keep-values) comes back.
Memory is bounded whatever the log's size (--save excepted: it holds the workload it writes). Key statistics:
%1; the first 200 templates have them, later ones are summed.
--save writes the workload for `replay`: anonymised (consistent pseudonyms from a keyed hash with a fresh key,
for slot values, DNs, client addresses and write values) unless --keep-values. Times: ISO 8601
(2026-12-01T10:00:00Z; no zone = UTC) or seconds since the epoch. The analysis is not a run: it is not saved in
the history.
)")
        .arg(KeySummary::boundsText());
}

std::optional<uint64_t> parseTime(const QString& text)
{
    bool ok = false;
    const double secs = text.toDouble(&ok);
    if (ok && secs > 0 && secs < 1e11)
        return uint64_t(secs * 1e9);
    // ISO 8601; the fraction of a second is read here to the nanosecond (QDateTime stops at milliseconds).
    QString s = text;
    uint64_t fracNs = 0;
    const qsizetype dot = s.indexOf(u'.');
    if (dot > 0) {
        qsizetype end = dot + 1;
        uint64_t scale = 100000000;
        while (end < s.size() && s.at(end).isDigit()) {
            fracNs += uint64_t(s.at(end).digitValue()) * scale;
            scale /= 10;
            ++end;
        }
        if (end == dot + 1)
            return std::nullopt;
        s.remove(dot, end - dot);
    }
    QDateTime t = QDateTime::fromString(s, Qt::ISODate);
    if (!t.isValid())
        return std::nullopt;
    if (t.timeSpec() == Qt::LocalTime)
        t.setTimeSpec(Qt::UTC);
    const qint64 secsSinceEpoch = t.toSecsSinceEpoch();
    return secsSinceEpoch > 0 ? std::optional<uint64_t>(uint64_t(secsSinceEpoch) * 1000000000ull + fracNs)
                              : std::nullopt;
}

// A file to write: its directory must exist.
bool writablePath(const QString& path)
{
    if (path == u"-")
        return true;
    const QFileInfo fi(path);
    return !fi.isDir() && QFileInfo(fi.absolutePath()).isDir() && QFileInfo(fi.absolutePath()).isWritable();
}

int parseOptions(const QCommandLineParser& parser, AnalyzeOptions* o)
{
    o->logs = parser.values(QStringLiteral("log")) + parser.positionalArguments().mid(1);
    if (o->logs.isEmpty())
        return badArgument(
            QStringLiteral("--log"), QStringLiteral("required: the access log(s) to read ('-' = stdin)"));
    QString mixed;
    const bool onHost = !Agents::logsHost(o->logs, &mixed).isEmpty();
    if (!mixed.isEmpty())
        return badArgument(QStringLiteral("--log"), mixed);
    if (!onHost)
        for (const char* only : { "ssh-option", "agent-command" })
            if (parser.isSet(QLatin1String(only)))
                return badArgument(
                    QStringLiteral("--") + QLatin1String(only), QStringLiteral("only with HOST:/path logs"));
    QStringList seen;
    for (const QString& log : std::as_const(o->logs)) {
        const QString canonical = log == u"-" ? log : QFileInfo(log).absoluteFilePath();
        if (seen.contains(canonical))
            return badArgument(QStringLiteral("--log"), QStringLiteral("'%1' given more than once").arg(log));
        seen << canonical;
    }
    const QString unreadable = onHost ? QString() : LogReader::checkReadable(o->logs); // a host's: checked there
    if (!unreadable.isEmpty())
        return badArgument(QStringLiteral("--log"), unreadable);
    const auto format = logFormatFromOption(parser.value(QStringLiteral("format")));
    if (!format)
        return badArgument(QStringLiteral("--format"),
            QStringLiteral("'%1' is not auto, 389, openldap or accesslog-ldif")
                .arg(parser.value(QStringLiteral("format"))));
    o->format = *format;
    for (const char* name : { "from", "to" }) {
        const QString n = QLatin1String(name);
        if (!parser.isSet(n))
            continue;
        const auto t = parseTime(parser.value(n));
        if (!t)
            return badArgument(u"--" + n,
                QStringLiteral("'%1' is not a time (ISO 8601 such as 2026-12-01T10:00:00Z, or epoch seconds)")
                    .arg(parser.value(n)));
        (n == u"from" ? o->filter.fromNs : o->filter.toNs) = t;
    }
    if (o->filter.fromNs && o->filter.toNs && *o->filter.toNs < *o->filter.fromNs)
        return badArgument(QStringLiteral("--to"), QStringLiteral("is before --from"));
    if (parser.isSet(QStringLiteral("client"))) {
        const QString c = parser.value(QStringLiteral("client")).trimmed();
        if (c.isEmpty() || c.contains(u' '))
            return badArgument(QStringLiteral("--client"), QStringLiteral("'%1' is not an address").arg(c));
        o->filter.client = c.toStdString();
    }
    if (parser.isSet(QStringLiteral("operations"))) {
        const QStringList kinds = parser.value(QStringLiteral("operations")).split(u',', Qt::SkipEmptyParts);
        if (kinds.isEmpty())
            return badArgument(QStringLiteral("--operations"), QStringLiteral("empty: give e.g. search,bind"));
        for (const QString& k : kinds) {
            const auto kind = workloadOpKind(k.trimmed());
            if (!kind)
                return badArgument(QStringLiteral("--operations"),
                    QStringLiteral("'%1' is not one of bind, search, compare, modify, add, delete, modrdn, extended, "
                                   "abandon, unbind")
                        .arg(k));
            o->filter.kinds |= 1u << unsigned(*kind);
        }
    }
    for (const char* name : { "json", "save" }) {
        const QString n = QLatin1String(name);
        if (parser.isSet(n)
            && (parser.value(n).isEmpty() || !writablePath(parser.value(n))
                || (n == u"save" && parser.value(n) == u"-")))
            return badArgument(u"--" + n, QStringLiteral("cannot write '%1'").arg(parser.value(n)));
    }
    if (parser.isSet(QStringLiteral("keep-values")) && !parser.isSet(QStringLiteral("save")))
        return badArgument(QStringLiteral("--keep-values"), QStringLiteral("only with --save"));
    o->buildWorkload = parser.isSet(QStringLiteral("save"));
    o->keepValues = parser.isSet(QStringLiteral("keep-values"));
    return -1;
}

QString workloadEtimeText(const WorkloadTemplateRow& t)
{
    if (!t.hasEtime)
        return QStringLiteral("-");
    return QStringLiteral("%1/%2").arg(t.etimeP50Ms.value_or(0), 0, 'f', 3).arg(t.etimeP99Ms.value_or(0), 0, 'f', 3);
}

void printWorkloadTemplates(const WorkloadSummary& w, std::FILE* out)
{
    std::fprintf(out, "  %10s %6s %-8s %19s %6s %-16s %s\n", "count", "share", "kind", "etime p50/p99 ms", "notesU",
        "skew", "template");
    for (qsizetype i = 0; i < w.templates.size() && i < 15; ++i) {
        const WorkloadTemplateRow& t = w.templates.at(i);
        QString text = t.text;
        if (text.size() > 70)
            text = text.left(67) + QStringLiteral("...");
        std::fprintf(out, "  %10lld %5.1f%% %-8s %19s %5.1f%% %-16s %s\n", qlonglong(t.count), 100 * t.share,
            qPrintable(t.kind), qPrintable(workloadEtimeText(t)), 100 * t.unindexedShare.value_or(0),
            qPrintable(t.skew.shortText()), qPrintable(text));
    }
    if (w.templates.size() > 15)
        std::fprintf(out, "  ... %lld more templates (--json for all)\n", qlonglong(w.templates.size() - 15));
}

void printSummary(const QJsonObject& a, const AnalyzeResult& r, std::FILE* out)
{
    const WorkloadSummary w = WorkloadSummary::fromJson(a);
    std::fprintf(out, "workload: %s, %lld file(s), %s .. %s (%.1f s)\n", qPrintable(w.format), qlonglong(w.files),
        qPrintable(w.first), qPrintable(w.last), w.durationS);
    QStringList mix;
    for (const auto& [kind, count] : w.operations)
        mix << QStringLiteral("%1 %2").arg(kind).arg(qint64(count));
    std::fprintf(out, "operations: %lld (%s), connections %lld\n", qlonglong(w.operationsTotal),
        qPrintable(mix.join(QStringLiteral(", "))), qlonglong(w.connections));
    printWorkloadTemplates(w, out);
    for (const QString& g : w.gaps)
        std::fprintf(out, "gap: %s\n", qPrintable(g));
    const double mb = double(r.bytes) / 1e6;
    std::fprintf(out, "read %.1f MB in %.2f s (%.0f MB/s)\n", mb, r.seconds, r.seconds > 0 ? mb / r.seconds : 0.0);
    std::fflush(out);
}

std::function<void(uint64_t, uint64_t)> progressPrinter(bool on)
{
    if (!on)
        return {};
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    auto last = std::make_shared<qint64>(-1000);
    return [clock, last](uint64_t done, uint64_t total) {
        const qint64 now = clock->elapsed();
        if (now - *last < 250 && (total == 0 || done < total))
            return;
        *last = now;
        const double mb = double(done) / 1e6, rate = now > 0 ? mb / (double(now) / 1000.0) : 0;
        if (total)
            std::fprintf(stderr, "\rworkload: %.0f of %.0f MB (%.0f %%), %.0f MB/s ", mb, double(total) / 1e6,
                100.0 * double(done) / double(total), rate);
        else
            std::fprintf(stderr, "\rworkload: %.0f MB, %.0f MB/s ", mb, rate);
        std::fflush(stderr);
    };
}

int analyze(const QCommandLineParser& parser)
{
    AnalyzeOptions o;
    if (int rc = parseOptions(parser, &o); rc >= 0)
        return rc;
    QString mixed;
    const QString host = Agents::logsHost(o.logs, &mixed);
    const bool progress = host.isEmpty() && (parser.isSet(QStringLiteral("progress")) || ::isatty(STDERR_FILENO));
    AnalyzeResult r;
    if (host.isEmpty()) {
        r = WorkloadAnalyze::run(o, progressPrinter(progress));
    } else {
        Agents::RemoteRunSpec target;
        target.host = Agents::AgentHost::named(host);
        target.sshOptions = parser.values(QStringLiteral("ssh-option"));
        if (parser.isSet(QStringLiteral("agent-command")))
            target.agentCommand = parser.value(QStringLiteral("agent-command"));
        RunContext ctx;
        r = Agents::analyzeOnHost(target, o, ctx);
    }
    if (progress)
        std::fputs("\n", stderr);
    if (!r.error.isEmpty()) {
        if (!r.errorField.isEmpty())
            return badArgument(r.errorField, r.error);
        std::fprintf(stderr, "dirbench-cli workload: %s\n", qPrintable(r.error));
        return ExitFailed;
    }
    for (const QString& w : std::as_const(r.warnings))
        std::fprintf(stderr, "dirbench-cli workload: warning: %s\n", qPrintable(w));
    const QString json = parser.value(QStringLiteral("json"));
    const QByteArray doc = QJsonDocument(r.analysis).toJson(QJsonDocument::Indented);
    if (json == u"-") {
        std::fwrite(doc.constData(), 1, size_t(doc.size()), stdout);
        std::fflush(stdout);
    } else if (!json.isEmpty()) {
        QFile f(json);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(doc) != doc.size()) {
            std::fprintf(stderr, "dirbench-cli workload: %s: %s\n", qPrintable(json), qPrintable(f.errorString()));
            return ExitFailed;
        }
    }
    printSummary(r.analysis, r, humanStream(json == u"-"));
    if (r.workload) {
        QString error;
        if (!WorkloadFile::write(*r.workload, parser.value(QStringLiteral("save")), &error)) {
            std::fprintf(stderr, "dirbench-cli workload: %s\n", qPrintable(error));
            return ExitFailed;
        }
        std::fprintf(humanStream(json == u"-"), "saved %llu operations on %zu connections to %s (%s)\n",
            static_cast<unsigned long long>(r.workload->operationCount()), r.workload->connections.size(),
            qPrintable(parser.value(QStringLiteral("save"))), r.workload->anonymised ? "anonymised" : "values kept");
    }
    return ExitOk;
}

} // namespace

int runWorkloadCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(description());
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("analyze"));
    parser.addOptions({
        { QStringLiteral("log"), QStringLiteral("An access log to read ('-' = standard input); repeatable."),
            QStringLiteral("FILE") },
        { QStringLiteral("format"), QStringLiteral("auto (default), 389, openldap or accesslog-ldif."),
            QStringLiteral("F"), QStringLiteral("auto") },
        { QStringLiteral("json"), QStringLiteral("Write the dirbench.workload/1 analysis to OUT ('-' = stdout)."),
            QStringLiteral("OUT") },
        { QStringLiteral("save"), QStringLiteral("Write the workload for replay to W.dbwl (0600)."),
            QStringLiteral("W.dbwl") },
        { QStringLiteral("keep-values"), QStringLiteral("--save the logged values instead of pseudonyms.") },
        { QStringLiteral("from"), QStringLiteral("Only operations requested at or after T."), QStringLiteral("T") },
        { QStringLiteral("to"), QStringLiteral("Only operations requested at or before T."), QStringLiteral("T") },
        { QStringLiteral("client"), QStringLiteral("Only connections from this address."), QStringLiteral("IP") },
        { QStringLiteral("operations"), QStringLiteral("Only these kinds: search,bind,modify,..."),
            QStringLiteral("LIST") },
        { QStringLiteral("progress"), QStringLiteral("Progress on stderr even when it is not a terminal.") },
        { QStringLiteral("ssh-option"),
            QStringLiteral("With HOST:/path logs: one ssh argument (repeatable), e.g. -Jbastion."),
            QStringLiteral("OPT") },
        { QStringLiteral("agent-command"),
            QStringLiteral("With HOST:/path logs: the program to run there (default dirbench-cli)."),
            QStringLiteral("CMD") },
    });
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli workload: %s\n", qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printHelp(parser, QStringLiteral("workload analyze"));
    const QStringList pos = parser.positionalArguments();
    if (pos.isEmpty() || pos.first() != u"analyze")
        return badArgument(QStringLiteral("action"),
            pos.isEmpty() ? QStringLiteral("required: analyze")
                          : QStringLiteral("'%1' is not analyze").arg(pos.first()));
    for (const QString& name : parser.optionNames())
        if (name != u"log" && parser.optionNames().count(name) > 1)
            return badArgument(u"--" + name, QStringLiteral("given more than once"));
    return analyze(parser);
}

} // namespace Cli
