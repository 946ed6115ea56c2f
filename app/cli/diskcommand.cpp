#include "app/cli/diskcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/diskhost.h"
#include "app/cli/diskprinter.h"
#include "app/cli/historysink.h"
#include "app/cli/ldapoptions.h"
#include "app/cli/ldapprinter.h"
#include "core/common/units.h"
#include "core/disk/diskengine.h"
#include "core/disk/diskspec.h"
#include "core/disk/requirements.h"
#include "core/experiments/diskunderload.h"
#include "core/run/proberunner.h"

#include <QCommandLineParser>
#include <QJsonArray>

#include <cmath>
#include <cstdio>

namespace Cli {

namespace {

const char* const kDescriptionLead = "Test a disk the way a directory server uses it.\n\n";
// After the profiles' lines, which come from the profile table (DiskSpec::profileHelp).
const char* const kDescription = R"(
Sizes take K/M/G/T (powers of 1024). --duration is a time cap: random and sequential profiles loop over
the file until it is reached; 0 makes one pass. One pass = every block once: a random pass visits every
block of the file exactly once, in a random order (a fresh order each pass).
Data (--data): unique (default for all but dd) makes every 4 KiB of every write, the preparing writes
included, distinct and incompressible, so storage that compresses, dedupes or detects zeros cannot shrink
it; zeros (dd's default) writes zeros, and the record says so. "random" is an old name for unique.
Every test file is unnamed (O_TMPFILE, else created and unlinked at once) and never outlives the process.
MB/s is 10^6 bytes/s; latency is in microseconds.
Verdicts judge the tests the requirement profiles name (dd, seq-write, commit, rand-read qd1): --requirements
and --fail-on-verdict are refused for a run that has none of them. An option that does not apply to the
profile is refused, never ignored; the LDAP options and --lead go with --under-load only.

Steady state (SNIA PTS): a sustained run (one with a duration; in the suite, the sustained write) is cut into
1 s rounds of MB/s (sequential) or IOPS (random, commit); it is steady from the first 5 s window whose rounds all
stay within +-10 % of the window's average with a fitted slope under 10 % of it. summary.steady_state gives
{reached, at_s, window_s, mb_per_s | iops} beside the whole-run figure, which stays the headline. Warnings:
not-steady (no window qualified), cache-answered (the first 20 % of the rounds averaged more than 1.5x the
last 50 %: a write-back cache filled). --until-steady MAX_S runs the sustained part until a window qualifies
or MAX_S seconds pass (instead of --duration).
)";

struct Options
{
    QCommandLineOption dir { QStringLiteral("dir"), QStringLiteral("Directory on the file system to test (required)."),
        QStringLiteral("DIR") };
    QCommandLineOption profile { QStringLiteral("profile"), QStringLiteral("Test profile (default seq-write)."),
        QStringLiteral("NAME") };
    QCommandLineOption size { QStringLiteral("size"), QStringLiteral("Test file size."), QStringLiteral("N") };
    QCommandLineOption block { QStringLiteral("block"), QStringLiteral("Block size."), QStringLiteral("N") };
    QCommandLineOption qd { QStringLiteral("qd"), QStringLiteral("Queue depth (I/Os in flight)."),
        QStringLiteral("N") };
    QCommandLineOption duration { QStringLiteral("duration"),
        QStringLiteral("Time cap in seconds (0 = one pass over the file)."), QStringLiteral("SEC") };
    QCommandLineOption untilSteady { QStringLiteral("until-steady"),
        QStringLiteral("Run the sustained part until it is steady (5 s window) or MAX_S seconds pass; "
                       "replaces --duration."),
        QStringLiteral("MAX_S") };
    QCommandLineOption repeat { QStringLiteral("repeat"),
        QStringLiteral("Repeat N times; the summary is the median "
                       "(default 1)."),
        QStringLiteral("N") };
    QCommandLineOption data { QStringLiteral("data"),
        QStringLiteral("unique (default; every 4 KiB distinct and incompressible) or zeros (dd's default)."),
        QStringLiteral("unique|zeros") };
    QCommandLineOption commitAppend { QStringLiteral("commit-append"),
        QStringLiteral("commit: append to an empty file instead of overwriting a pre-written one.") };
    QCommandLineOption engine { QStringLiteral("engine"),
        QStringLiteral("auto (default: io_uring, threads where refused), io_uring, or threads."),
        QStringLiteral("auto|io_uring|threads") };
    QCommandLineOption buffered { QStringLiteral("buffered"), QStringLiteral("Use buffered I/O instead of O_DIRECT.") };
    QCommandLineOption interval { QStringLiteral("interval"),
        QStringLiteral("Seconds per interval sample "
                       "(default 0.25)."),
        QStringLiteral("SEC") };
    QCommandLineOption requirements { QStringLiteral("requirements"),
        QStringLiteral("Judge against this requirement profile id only (default: all that apply)."),
        QStringLiteral("ID") };
    QCommandLineOption json { QStringLiteral("json"),
        QStringLiteral("Write the RunRecord to FILE ('-' = stdout, and "
                       "nothing else goes to stdout)."),
        QStringLiteral("FILE") };
    QCommandLineOption failOnVerdict { QStringLiteral("fail-on-verdict"),
        QStringLiteral("Exit 3 when a verdict fails.") };
    QCommandLineOption quiet { QStringLiteral("quiet"), QStringLiteral("Print no interval lines, only the summary.") };
};

// Options a profile has no use for: refused, never ignored.
int refuseForProfile(const QCommandLineParser& p, DiskProfile profile)
{
    const QStringList refused = DiskSpec::profileRefuses(profile);
    if (refused.isEmpty())
        return ExitOk;
    return refuseOptions(p, refused, DiskSpec::profileRefusesWhy(profile));
}

// The names the run's tests get in the summary (what the requirement profiles judge).
QStringList testNames(const DiskSpec& resolved)
{
    switch (resolved.profile) {
    case DiskProfile::Directory:
        return { QStringLiteral("rand-read qd1"), QStringLiteral("rand-read qd8"), QStringLiteral("commit"),
            QStringLiteral("seq-write"), QStringLiteral("dd") };
    case DiskProfile::RandRead:
    case DiskProfile::RandWrite:
        return { DiskSpec::profileName(resolved.profile) + QStringLiteral(" qd")
            + QString::number(resolved.queueDepth) };
    default:
        return { DiskSpec::profileName(resolved.profile) };
    }
}

// --requirements names a profile, and --requirements / --fail-on-verdict need a test that some requirement judges.
int checkVerdictOptions(const QCommandLineParser& p, const DiskSpec& spec)
{
    const bool only = p.isSet(QStringLiteral("requirements"));
    if (!only && !p.isSet(QStringLiteral("fail-on-verdict")))
        return ExitOk;
    const QList<RequirementProfile> profiles = Requirements::load();
    if (profiles.isEmpty())
        return ExitOk; // the run's warnings say why; nothing to check against
    const QStringList tests = testNames(spec.resolved());
    QStringList ids, judged;
    bool judges = false;
    for (const auto& rp : profiles) {
        ids << rp.id;
        if (only && rp.id != spec.requirementProfile)
            continue;
        for (const auto& r : rp.requirements) {
            judges = judges || tests.contains(r.test);
            if (!judged.contains(r.test))
                judged << r.test;
        }
    }
    if (only && !ids.contains(spec.requirementProfile))
        return badArgument(QStringLiteral("--requirements"),
            QStringLiteral("'%1' is not a requirement profile (one of %2)")
                .arg(spec.requirementProfile, ids.join(QStringLiteral(", "))));
    if (!judges)
        return badArgument(only ? QStringLiteral("--requirements") : QStringLiteral("--fail-on-verdict"),
            QStringLiteral("no requirement judges this run's test (%1): verdicts are given on %2")
                .arg(tests.join(QStringLiteral(", ")), judged.join(QStringLiteral(", "))));
    return ExitOk;
}

} // namespace

int runDiskCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QString::fromUtf8(kDescriptionLead) + DiskSpec::profileHelp() + QString::fromUtf8(kDescription));
    parser.addHelpOption();
    Options o;
    const QList<QCommandLineOption*> all = { &o.dir, &o.profile, &o.size, &o.block, &o.qd, &o.duration, &o.untilSteady,
        &o.repeat, &o.data, &o.commitAppend, &o.engine, &o.buffered, &o.interval, &o.requirements, &o.json,
        &o.failOnVerdict, &o.quiet };
    for (auto* opt : all)
        parser.addOption(*opt);
    // Disk under load: the seed's "304 -> 297 MB/s with a continuous LDAP thread", measured both ways.
    const QCommandLineOption underLoad { QStringLiteral("under-load"),
        QStringLiteral("Run the test alone, then again while an LDAP load runs (the --uri, --base, --filter, "
                       "--threads ... options of 'dirbench-cli ldap search'); report both and the change.") };
    const QCommandLineOption lead { QStringLiteral("lead"),
        QStringLiteral("With --under-load: seconds of LDAP load before the loaded disk test starts (default 2)."),
        QStringLiteral("S") };
    parser.addOption(underLoad);
    parser.addOptions(diskHostOptions());
    parser.addOptions(historyOptions());
    parser.addOption(lead);
    const QList<QCommandLineOption> ldapOptions = ldapConnectionOptions() + ldapWorkloadOptions();
    for (const auto& opt : ldapOptions)
        parser.addOption(opt);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli disk: %s\n", qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printHelp(parser, QStringLiteral("disk"));
    if (int rc = refuseRepeated(parser))
        return rc;
    if (!parser.positionalArguments().isEmpty())
        return badArgument(parser.positionalArguments().constFirst(), QStringLiteral("unexpected argument"));

    DiskSpec spec;
    const QString profileName = parser.isSet(o.profile) ? parser.value(o.profile) : QStringLiteral("seq-write");
    const auto profile = DiskSpec::profileFromName(profileName);
    if (!profile)
        return badArgument(QStringLiteral("--profile"),
            QStringLiteral("unknown profile '") + profileName + QStringLiteral("' (one of ")
                + DiskSpec::profileNames().join(QStringLiteral(", ")) + u')');
    spec.profile = *profile;
    if (int rc = refuseForProfile(parser, spec.profile))
        return rc;
    if (!parser.isSet(o.dir))
        return badArgument(QStringLiteral("--dir"), QStringLiteral("required: the directory to test in"));
    spec.dir = parser.value(o.dir);

    auto sizeOpt = [&](QCommandLineOption& opt, qint64* out) -> int {
        if (!parser.isSet(opt))
            return ExitOk;
        const auto v = Units::parseSize(parser.value(opt));
        if (!v || *v <= 0)
            return badArgument(QStringLiteral("--") + opt.names().constFirst(),
                QStringLiteral("'") + parser.value(opt) + QStringLiteral("' is not a size (e.g. 4K, 1M, 2G)"));
        *out = *v;
        return ExitOk;
    };
    auto intOpt = [&](QCommandLineOption& opt, int* out) -> int {
        if (!parser.isSet(opt))
            return ExitOk;
        bool ok = false;
        const int v = parser.value(opt).toInt(&ok);
        if (!ok || v <= 0)
            return badArgument(QStringLiteral("--") + opt.names().constFirst(),
                QStringLiteral("'") + parser.value(opt) + QStringLiteral("' is not a positive whole number"));
        *out = v;
        return ExitOk;
    };
    if (int rc = sizeOpt(o.size, &spec.sizeBytes))
        return rc;
    if (int rc = sizeOpt(o.block, &spec.blockBytes))
        return rc;
    if (int rc = intOpt(o.qd, &spec.queueDepth))
        return rc;
    if (int rc = intOpt(o.repeat, &spec.repeat))
        return rc;
    if (parser.isSet(o.duration)) {
        const auto v = Units::parseSeconds(parser.value(o.duration));
        if (!v)
            return badArgument(QStringLiteral("--duration"),
                QStringLiteral("'") + parser.value(o.duration) + QStringLiteral("' is not a number of seconds"));
        spec.durationSec = *v;
    }
    if (parser.isSet(o.untilSteady)) {
        const auto v = Units::parseSeconds(parser.value(o.untilSteady));
        if (!v)
            return badArgument(QStringLiteral("--until-steady"),
                QStringLiteral("'") + parser.value(o.untilSteady) + QStringLiteral("' is not a number of seconds"));
        spec.untilSteadySec = *v;
    }
    if (parser.isSet(o.interval)) {
        const auto v = Units::parseSeconds(parser.value(o.interval));
        if (!v)
            return badArgument(QStringLiteral("--interval"),
                QStringLiteral("'") + parser.value(o.interval) + QStringLiteral("' is not a number of seconds"));
        spec.intervalMs = int(std::lround(*v * 1000.0));
    }
    if (parser.isSet(o.data)) {
        const QString d = parser.value(o.data);
        const auto data = DiskSpec::dataFromName(d);
        if (!data)
            return badArgument(QStringLiteral("--data"), QStringLiteral("must be unique or zeros, not '") + d + u'\'');
        spec.data = *data;
    }
    if (parser.isSet(o.engine)) {
        const QString e = parser.value(o.engine);
        if (e == u"io_uring")
            spec.engine = IoEngineChoice::IoUring;
        else if (e == u"threads")
            spec.engine = IoEngineChoice::Threads;
        else if (e != u"auto")
            return badArgument(
                QStringLiteral("--engine"), QStringLiteral("must be auto, io_uring or threads, not '") + e + u'\'');
    }
    spec.forceBuffered = parser.isSet(o.buffered);
    spec.commitAppend = parser.isSet(o.commitAppend);
    spec.requirementProfile = parser.value(o.requirements);
    std::optional<Agents::RemoteRunSpec> remote;
    if (int rc = remoteDiskFromParser(parser, spec, &remote))
        return rc;
    // On a host, the directory and its free space are checked there, before any I/O.
    if (const ProbeError e = remote ? spec.validateValues() : spec.validate(); e.isError())
        return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
    if (int rc = checkVerdictOptions(parser, spec))
        return rc;
    if (remote && parser.isSet(underLoad))
        return badArgument(QStringLiteral("--host"),
            QStringLiteral("not with --under-load (yet): run the disk test "
                           "on the host alone, and the load separately"));
    std::optional<DiskUnderLoadSpec> loaded;
    if (parser.isSet(underLoad)) {
        DiskUnderLoadSpec u;
        u.disk = spec;
        if (int rc = ldapWorkloadFromParser(
                parser, { QStringLiteral("search"), QStringLiteral("disk --under-load") }, &u.load))
            return rc;
        if (int rc = numberOption(parser, "lead", 0, 600, &u.leadSeconds))
            return rc;
        if (int rc = ldapTargetFromParser(parser, {}, &u.load.target))
            return rc;
        if (const ProbeError e = u.validate(); e.isError())
            return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
        loaded = u;
    } else {
        for (const auto& opt : ldapOptions + QList<QCommandLineOption> { lead })
            if (parser.isSet(opt))
                return badArgument(
                    QStringLiteral("--") + opt.names().constFirst(), QStringLiteral("only with --under-load"));
    }

    HistorySink history;
    if (int rc = history.configure(parser))
        return rc;
    const QString jsonPath = parser.value(o.json);
    const bool jsonStdout = jsonPath == u"-";
    std::FILE* out = humanStream(jsonStdout);
    const bool quiet = parser.isSet(o.quiet);
    const DiskSpec resolved = spec.resolved();
    const QJsonObject begun = loaded ? loaded->toJson() : remote ? remote->recordSpec : spec.toJson();
    if (int rc = history.begin(loaded ? QStringLiteral("disk-under-load") : QStringLiteral("disk"), begun))
        return rc;
    std::fprintf(out, "dirbench disk: %s in %s%s, file %s%s\n", qPrintable(DiskSpec::profileName(spec.profile)),
        qPrintable(spec.dir), remote ? qPrintable(QStringLiteral(" on ") + remote->host.name) : "",
        qPrintable(Units::formatBytes(resolved.sizeBytes)),
        spec.repeat > 1 ? qPrintable(QStringLiteral(", %1 repeats").arg(spec.repeat)) : "");
    std::fflush(out);

    ProbeRunner runner;
    const auto job = loaded ? Experiments::makeDiskUnderLoadJob(*loaded)
        : remote            ? Agents::makeRemoteJob(*remote)
                            : Disk::makeJob(spec);
    const RunRecord rec = runWithSignals(runner, job, [&](const SampleBatch& batch) {
        history.add(batch);
        if (!quiet)
            for (const auto& s : batch) {
                if (s.series.startsWith(QLatin1String("ldap"))) {
                    std::fprintf(out, "%-14s ", "ldap");
                    printLoadInterval(out, s);
                } else {
                    printDiskInterval(out, s);
                }
            }
    });
    if (loaded)
        printDiskUnderLoadSummary(out, rec);
    else
        printDiskSummary(out, rec);
    history.finish(out, rec);
    if (!jsonPath.isEmpty() && !writeRecord(rec, jsonPath))
        return ExitFailed;
    if (rec.status != u"ok")
        return ExitFailed;
    if (int rc = history.baselineExit())
        return rc;
    if (parser.isSet(o.failOnVerdict))
        for (const auto& v : rec.verdicts)
            if (!v.passed)
                return ExitVerdict;
    return ExitOk;
}

} // namespace Cli
