#include "app/cli/curvecommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/historysink.h"
#include "app/cli/ldapoptions.h"
#include "app/cli/ldapprinter.h"
#include "core/common/units.h"
#include "core/experiments/curve.h"
#include "core/experiments/curvesummary.h"
#include "core/run/proberunner.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>

#include <cmath>
#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(Measure the entry-cache coverage vs ok/s curve: one search load per point.

  curve --uri URI --base DN --filter T --mode cache-sweep|working-set [--points 0,10,25,50,75,100] ...

--mode cache-sweep (389 Directory Server, bound as cn=Directory Manager or an admin allowed to change
  cn=config): turns entry cache autosize off and sets nsslapd-cachememsize of the backend that holds --base
  to each point's share of the entries (the cached size of an entry is measured first). Before each point
  one subtree search of --base fills the cache, then the load warms up and is measured; the hit ratio comes
  from the interval deltas of entrycachehits/entrycachetries per search. The settings are put back at the
  end, also after a failure or Ctrl-C. Without --restart the curve is taken online in one server process
  (the record warns: 389-ds resized online ran 20-35 % slower than a fresh process). --restart restarts
  the server before each point; it needs a 389-ds sandbox started by DirBench (dirbench-cli sandbox start
  --server 389ds), found from --uri or given with --sandbox-dir; its smallest point is 1 %.
--mode working-set (any server, any bind; the server is not changed): the cache holds --cache-entries N
  entries (on 389-ds it can be read from the monitor instead); for coverage c the filter's [A-B] range is
  cut to its first N/c keys, so the cache holds c of what the load touches. For OpenLDAP back-mdb, which
  has no entry cache, give the number of entries the page cache holds; without it a tenth of the range is
  assumed (warning cache-entries-assumed); hit_ratio is null there.

--points are percent of the entries: the keys of the filter's one [A-B] range, or --entries N.
The record (kind "curve") has summary.points[] with coverage and hit_ratio (fractions), ok_per_s (successful
searches per second), ops_per_s (completed), errors, and the service-time model 1/X = h*t_hit + (1-h)*t_miss
fitted to their ok/s (summary.t_hit_us, t_miss_us, fit); intervals have one series per point.

Defaults: --points 0,10,25,50,75,100, --seconds-per-point 10, --warmup 5 (per point), --scope sub,
--access uniform, --threads 2, --connections 2, --outstanding 4, --interval 1, --fail-after 10.
)";

QCommandLineOption opt(const char* name, const char* help, const char* value = nullptr)
{
    return value ? QCommandLineOption(QLatin1String(name), QString::fromUtf8(help), QLatin1String(value))
                 : QCommandLineOption(QLatin1String(name), QString::fromUtf8(help));
}

// The search options of `ldap search` that a curve uses (ldapWorkloadOptions() also has its own --mode).
int searchFromParser(const QCommandLineParser& parser, LdapLoadSpec* s)
{
    s->mix = { { LdapOpKind::Search, 100 } };
    s->base = parser.value(QStringLiteral("base"));
    s->filter = parser.value(QStringLiteral("filter"));
    if (s->base.isEmpty())
        return badArgument(QStringLiteral("--base"), QStringLiteral("required: the search base DN"));
    if (s->filter.isEmpty())
        return badArgument(
            QStringLiteral("--filter"), QStringLiteral("required: a template with one range, e.g. uid=user[0-99999]"));
    if (parser.isSet(QStringLiteral("scope"))) {
        const QString sc = parser.value(QStringLiteral("scope"));
        if (sc != u"base" && sc != u"one" && sc != u"sub")
            return badArgument(
                QStringLiteral("--scope"), QStringLiteral("must be base, one or sub, not '") + sc + u'\'');
        s->scope = sc == u"base" ? LdapSession::Base : sc == u"one" ? LdapSession::OneLevel : LdapSession::Subtree;
    }
    if (parser.isSet(QStringLiteral("attrs")))
        s->attrs = parser.value(QStringLiteral("attrs")).split(u',', Qt::SkipEmptyParts);
    if (parser.isSet(QStringLiteral("access")))
        s->access = parser.value(QStringLiteral("access"));
    for (const auto& [name, target, hi] :
        { std::tuple { "threads", &s->threads, 256.0 }, std::tuple { "connections", &s->connections, 1024.0 },
            std::tuple { "outstanding", &s->outstanding, 1024.0 } }) {
        double v = *target;
        if (int rc = numberOption(parser, name, 1, hi, &v))
            return rc;
        if (v != std::floor(v))
            return badArgument(QStringLiteral("--") + QLatin1String(name), QStringLiteral("must be a whole number"));
        *target = int(v);
    }
    s->durationSec = 10;
    s->warmupSec = 5;
    if (int rc = numberOption(parser, "seconds-per-point", 0.5, 3600, &s->durationSec))
        return rc;
    if (int rc = numberOption(parser, "warmup", 0, 3600, &s->warmupSec))
        return rc;
    if (int rc = numberOption(parser, "interval", 0.1, 3600, &s->intervalSec))
        return rc;
    return numberOption(parser, "fail-after", 0.5, 86400, &s->failAfterSec);
}

QString number(const std::optional<double>& v, int decimals)
{
    return v ? Units::formatNumber(*v, decimals) : QStringLiteral("-");
}

QString percentOf(const std::optional<double>& v)
{
    return v ? Units::formatNumber(*v * 100.0, 1) : QStringLiteral("-");
}

void printCurve(std::FILE* out, const RunRecord& rec)
{
    const CurveRecord::Summary s = CurveRecord::Summary::of(rec);
    const bool workingSet = s.mode == u"working-set";
    if (!s.points.isEmpty())
        std::fprintf(out, "\n%-22s %10s %10s %12s %12s %8s %13s\n", "point", "coverage %", "hit %", "ok/s", "ops/s",
            "errors", workingSet ? "working set" : "cache entries");
    for (const CurveRecord::PointFigures& p : s.points)
        std::fprintf(out, "%-22s %10s %10s %12s %12s %8s %13s\n", qPrintable(p.series),
            qPrintable(percentOf(p.coverage)), qPrintable(percentOf(p.hitRatio)), qPrintable(number(p.okPerS, 1)),
            qPrintable(number(p.opsPerS, 1)), qPrintable(number(p.errors, 0)), qPrintable(number(p.cached, 0)));
    if (const QString fit = s.fitText(); !fit.isEmpty())
        std::fprintf(out, "fit: %s; fitted to %s (%s)\n", qPrintable(fit), s.completed() ? "completed ops/s" : "ok/s",
            qPrintable(s.fitMethod));
    for (const auto& w : rec.warnings)
        std::fprintf(out, "warning (%s): %s\n", qPrintable(w.code), qPrintable(w.message));
    if (rec.status != u"ok")
        std::fprintf(
            out, "%s%s%s\n", qPrintable(rec.status), rec.failure.isEmpty() ? "" : ": ", qPrintable(rec.failure));
    std::fflush(out);
}

} // namespace

int runCurveCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    QList<QCommandLineOption> options = ldapConnectionOptions();
    options << opt("mode", "cache-sweep or working-set (required).", "MODE")
            << opt("points", "Coverage points, percent of the entries (default 0,10,25,50,75,100).", "P,P,...")
            << opt("seconds-per-point", "Seconds measured per point (default 10).", "S")
            << opt("warmup", "Seconds of load before each point is measured (default 5).", "S")
            << opt("restart", "cache-sweep: restart the server before each point (a DirBench 389-ds sandbox).")
            << opt("sandbox-dir", "The 389-ds sandbox to restart (default: the one serving --uri).", "DIR")
            << opt("entries", "The entries coverage is a share of (default: the keys of the filter's range).", "N")
            << opt("cache-entries", "working-set: entries the server's cache holds.", "N")
            << opt("base", "Search base DN (required).", "DN")
            << opt("filter", "Search filter template with one [A-B] range (required).", "T")
            << opt("scope", "Search scope: base, one or sub (default sub).", "SCOPE")
            << opt("attrs", "Attributes to return, comma-separated (default all; 1.1 for none).", "A,B")
            << opt("access", "Key distribution: uniform, sequential, zipf:S, hot:P/Q (default uniform).", "DIST")
            << opt("threads", "Client threads (default 2).", "N")
            << opt("connections", "Connections per thread (default 2).", "N")
            << opt("outstanding", "Operations in flight per connection (default 4).", "N")
            << opt("interval", "Seconds per interval (default 1).", "S")
            << opt("fail-after", "A point fails when no operation succeeded for S seconds (default 10).", "S")
            << opt("json", "Write the RunRecord to FILE ('-' = stdout, and nothing else goes to stdout).", "FILE")
            << opt("quiet", "Print no interval lines, only the points.") << historyOptions();
    for (const auto& o : options)
        parser.addOption(o);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli curve: %s\n", qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printHelp(parser, QStringLiteral("curve"));
    if (int rc = refuseRepeated(parser))
        return rc;
    if (!parser.positionalArguments().isEmpty())
        return badArgument(parser.positionalArguments().constFirst(),
            QStringLiteral("unexpected argument (passwords are never taken on the command line: use --password-file)"));

    CurveSpec spec;
    ProbeError e;
    if (!parser.isSet(QStringLiteral("mode")))
        return badArgument(QStringLiteral("--mode"), QStringLiteral("required: cache-sweep or working-set"));
    const auto mode = CurveSpec::parseMode(parser.value(QStringLiteral("mode")), &e);
    if (!mode)
        return badArgument(QStringLiteral("--mode"), e.cliDetail());
    spec.mode = *mode;
    if (parser.isSet(QStringLiteral("points"))) {
        const auto pts = CurveSpec::parsePoints(parser.value(QStringLiteral("points")), &e);
        if (!pts)
            return badArgument(QStringLiteral("--points"), e.cliDetail());
        spec.points = *pts;
    }
    spec.restart = parser.isSet(QStringLiteral("restart"));
    spec.sandboxDir = parser.value(QStringLiteral("sandbox-dir"));
    if (!spec.sandboxDir.isEmpty() && !QFileInfo(spec.sandboxDir).isDir())
        return badArgument(
            QStringLiteral("--sandbox-dir"), QStringLiteral("'%1' is not a directory").arg(spec.sandboxDir));
    for (const auto& [name, target] :
        { std::pair { "entries", &spec.entries }, std::pair { "cache-entries", &spec.cacheEntries } }) {
        double v = 0;
        if (int rc = numberOption(parser, name, 1, 1e12, &v))
            return rc;
        if (v != std::floor(v))
            return badArgument(QStringLiteral("--") + QLatin1String(name), QStringLiteral("must be a whole number"));
        *target = qint64(v);
    }
    if (int rc = searchFromParser(parser, &spec.load))
        return rc;
    if (int rc = ldapTargetFromParser(parser, {}, &spec.load.target))
        return rc;
    if (const ProbeError v = spec.validate(); v.isError())
        return badArgument(QStringLiteral("--") + v.field, v.cliDetail());

    HistorySink history;
    if (int rc = history.configure(parser))
        return rc;
    if (int rc = history.begin(QStringLiteral("curve"), spec.toJson()))
        return rc;
    const QString jsonPath = parser.value(QStringLiteral("json"));
    std::FILE* out = humanStream(jsonPath == u"-");
    const bool quiet = parser.isSet(QStringLiteral("quiet"));
    std::fprintf(out, "curve (%s) against %s: %lld points of %s s (+%s s warm-up), %lld entries\n",
        qPrintable(CurveSpec::modeName(spec.mode)), qPrintable(spec.load.target.uri), qint64(spec.points.size()),
        qPrintable(Units::formatNumber(spec.load.durationSec)), qPrintable(Units::formatNumber(spec.load.warmupSec)),
        spec.keyCount());
    std::fflush(out);
    ProbeRunner runner;
    QString lastSeries;
    const RunRecord rec = runWithSignals(runner, Experiments::makeCurveJob(spec), [&](const SampleBatch& batch) {
        history.add(batch);
        if (quiet)
            return;
        for (const auto& smp : batch) {
            if (smp.series != lastSeries)
                std::fprintf(out, "%s\n", qPrintable(smp.series));
            lastSeries = smp.series;
            printLoadInterval(out, smp, spec.load.coalesceReads);
        }
    });
    printCurve(out, rec);
    history.finish(out, rec);
    if (!jsonPath.isEmpty() && !writeRecord(rec, jsonPath))
        return ExitFailed;
    return rec.status == u"ok" ? history.baselineExit() : ExitFailed;
}

} // namespace Cli
