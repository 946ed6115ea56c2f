#include "app/cli/replicationload.h"

#include "app/cli/clicommon.h"
#include "app/cli/ldapoptions.h"
#include "core/common/units.h"
#include "core/experiments/replicationload.h"
#include "core/experiments/replicationsummary.h"
#include "core/ldap/loadresult.h"

#include <QJsonArray>

#include <algorithm>

namespace Cli {

namespace {

const char* const kHelp = R"(
Beside a write load: --mix runs an LDAP load on the supplier at the same time, with the options of 'ldap mixed'
(--dn, --attr, --value, --parent, --threads, --connections, --outstanding, --rate, --ramp, --warmup, ...) and
their meaning; it must write (a modify or an adddel: --mix modify=1, --mix modify=9,adddel=1). Its warm-up comes
first; then the probe and the load measure together, on one clock and one set of intervals (--interval, default
1 s; --duration, or the ramp's steps, a whole number of them). Each interval line shows the writes acknowledged
per second, the load's and the markers' (the record: load_write_ok_per_s + marker_write_ok_per_s =
write_ok_per_s), and summary.load has the load's own summary (ok/s, errors by code, by operation). Entries an
adddel added are removed at the end, also after a failure or Ctrl-C.
With --ramp (e.g. rate:100,200,400,800@10), lag is read per step and consumer: p50, p99 and its slope through
the step (ms per s); the knee is the first step whose p99 lag exceeds 10 x the first step's (taken as at least
--poll-ms) and still grows through it (a positive slope, or markers never seen), and the summary names its
write rate (knee_write_rate).
)";

QStringList names(const QList<QCommandLineOption>& options)
{
    QStringList out;
    for (const QCommandLineOption& o : options)
        out << o.names().constFirst();
    return out;
}

// Without --mix only the probe's own timing options may be given.
int refuseWithoutMix(const QCommandLineParser& parser)
{
    for (const QString& name : names(replicationLoadOptions()))
        if (name != u"interval" && name != u"fail-after" && parser.isSet(name))
            return badArgument(QStringLiteral("--") + name,
                QStringLiteral("only with --mix: it is an option of the write load beside the probe"));
    return ExitOk;
}

int writeMix(const QCommandLineParser& parser)
{
    const auto ops = ldapOpsFromParser(parser, QStringLiteral("mixed"));
    if (!ops)
        return ExitBadArgs;
    if (!ops->contains(LdapOpKind::Modify) && !ops->contains(LdapOpKind::AddDelete))
        return badArgument(QStringLiteral("--mix"),
            QStringLiteral("the load beside the probe must write: give a modify or an adddel (e.g. modify=1, or "
                           "search=90,modify=10), not only reads or binds"));
    return ExitOk;
}

QString number(const std::optional<double>& v, int decimals = 1)
{
    return v ? Units::formatNumber(*v, decimals) : QStringLiteral("-");
}

void printSteps(std::FILE* out, const QList<ReplicationFigures::RampStep>& steps)
{
    std::fprintf(out, "step  target/s  writes/s  consumer: lag p50/p99 ms, slope ms/s\n");
    for (const ReplicationFigures::RampStep& st : steps) {
        for (const ReplicationFigures::RampConsumer& c : st.consumers) {
            std::fprintf(out, "%4d  %8s  %8s  %s: %s/%s, %s%s%s\n", st.step, qPrintable(number(st.targetRate, 0)),
                qPrintable(number(st.writeRate)), qPrintable(c.uri), qPrintable(number(c.p50Ms)),
                qPrintable(number(c.p99Ms)), qPrintable(number(c.slopeMsPerS)),
                c.unseen > 0 ? qPrintable(QStringLiteral(", %1 never seen").arg(c.unseen)) : "",
                c.knee ? "  <- knee" : "");
        }
    }
}

} // namespace

QList<QCommandLineOption> replicationLoadOptions()
{
    QList<QCommandLineOption> out;
    for (const QCommandLineOption& o : ldapWorkloadOptions() + ldapTimingOptions()) {
        const QString name = o.names().constFirst();
        if (name == u"mix")
            out << QCommandLineOption(name,
                QStringLiteral("A write load on the supplier beside the probe: weights, e.g. modify=1 or "
                               "modify=9,adddel=1 (a modify or an adddel is required)."),
                QStringLiteral("SPEC"));
        else if (name == u"interval")
            out << QCommandLineOption(
                name, QStringLiteral("Seconds per interval line (default 1)."), QStringLiteral("S"));
        else if (name == u"fail-after")
            out << QCommandLineOption(name,
                QStringLiteral("Fail when the supplier acknowledged no write for S seconds (default 10)."),
                QStringLiteral("S"));
        else if (name != u"duration")
            out << o;
    }
    return out;
}

QString replicationLoadHelp()
{
    return QString::fromUtf8(kHelp);
}

bool replicationLoadNeedsPassword(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("mix")))
        return false;
    const auto mix = LdapLoadSpec::parseMix(parser.value(QStringLiteral("mix")), nullptr);
    return mix && std::any_of(mix->begin(), mix->end(), [](const auto& m) { return m.first == LdapOpKind::Bind; });
}

int replicationLoadFromParser(const QCommandLineParser& parser, ReplicationSpec* spec)
{
    if (int rc = numberOption(parser, "interval", 0.1, 3600, &spec->intervalS))
        return rc;
    if (int rc = numberOption(parser, "fail-after", 0.5, 86400, &spec->failAfterS))
        return rc;
    if (!parser.isSet(QStringLiteral("mix")))
        return refuseWithoutMix(parser);
    if (int rc = writeMix(parser))
        return rc;
    LdapLoadSpec load;
    if (int rc
        = ldapWorkloadFromParser(parser, { QStringLiteral("mixed"), QStringLiteral("replication"), false }, &load))
        return rc;
    if (int rc = ldapTimingFromParser(parser, &load))
        return rc;
    if (!parser.isSet(QStringLiteral("ramp")))
        load.durationSec = spec->durationS;
    ReplicationLoad::attach(*spec, load);
    return ExitOk;
}

void printReplicationLoadSummary(std::FILE* out, const RunRecord& rec)
{
    const ReplicationFigures::Summary s = ReplicationFigures::Summary::of(rec);
    if (!s.load)
        return;
    const LoadSummary& l = *s.load;
    std::fprintf(out, "write load on the supplier: %s ok/s, %s writes/s (with the markers %s/s), %s errors%s%s\n",
        qPrintable(Units::formatNumber(l.all.okPerS, 1)), qPrintable(number(s.loadWriteOkPerS)),
        qPrintable(number(s.writeOkPerS)), qPrintable(Units::formatNumber(l.all.errors, 0)),
        l.all.errors > 0 ? qPrintable(QStringLiteral(" (") + l.all.topErrors() + u')') : "",
        l.cleanupRemoved ? qPrintable(QStringLiteral(", %1 added entries removed").arg(*l.cleanupRemoved)) : "");
    if (!s.ramped)
        return;
    printSteps(out, s.steps);
    if (s.kneeWriteRate)
        std::fprintf(out,
            "knee: step %d at %s writes/s (target %s/s), %s: p99 lag above 10 x the first step's and "
            "growing\n",
            s.kneeStep, qPrintable(number(s.kneeWriteRate)), qPrintable(number(s.kneeTargetRate, 0)),
            qPrintable(s.kneeConsumer));
    else
        std::fprintf(out, "no knee: no step's p99 lag exceeded 10 x the first step's while growing\n");
}

} // namespace Cli
