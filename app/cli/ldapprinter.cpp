#include "app/cli/ldapprinter.h"

#include "core/common/units.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadresult.h"
#include "core/ldap/loadspec.h"
#include "core/ldap/probesummary.h"
#include "core/store/comparison.h"

#include <QJsonArray>

namespace Cli {

namespace {

QString num(const QJsonValue& v, int decimals = 1)
{
    return v.isDouble() ? Units::formatNumber(v.toDouble(), decimals) : QStringLiteral("-");
}

QString num(const std::optional<double>& v, int decimals = 1)
{
    return v ? Units::formatNumber(*v, decimals) : QStringLiteral("-");
}

// ok/s is the headline (successful operations); ops/s counts every completed one, errors among them.
void printFigureRow(std::FILE* out, const QString& name, const OpFigures& f)
{
    const LatencyFigures& l = f.latencyMs;
    std::fprintf(out, "%-9s %12s %12s %12s %10s %9s %9s %9s %9s %9s %9s\n", qPrintable(name),
        qPrintable(Units::formatNumber(f.okPerS)), qPrintable(Units::formatNumber(f.opsPerS)),
        qPrintable(Units::formatNumber(f.ok, 0)), qPrintable(Units::formatNumber(f.errors, 0)),
        qPrintable(num(l.mean, 3)), qPrintable(num(l.p50, 3)), qPrintable(num(l.p95, 3)), qPrintable(num(l.p99, 3)),
        qPrintable(num(l.p999, 3)), qPrintable(num(l.max, 3)));
}

void printFigureTable(std::FILE* out, const LoadSummary& s, bool coalescedReads)
{
    std::fprintf(out, "\n%-9s %12s %12s %12s %10s %9s %9s %9s %9s %9s %9s%s\n", "", "ok/s", "ops/s", "ok", "errors",
        "mean ms", "p50 ms", "p95 ms", "p99 ms", "p99.9 ms", "max ms", coalescedReads ? "  (coalesced reads)" : "");
    printFigureRow(out, s.byOperation.empty() ? QStringLiteral("all") : QStringLiteral("all ops"), s.all);
    for (const auto& [kind, f] : s.byOperation)
        printFigureRow(out, kind, f);
    if (s.all.okDerived)
        std::fprintf(out, "ok and ok/s %s: the record is older than the count of successes\n",
            qPrintable(Comparison::derivedNote()));
}

void printLoadDetails(std::FILE* out, const LoadSummary& s)
{
    std::fprintf(out, "CPU per operation: load threads %s µs (%s s), whole client %s µs (%s s)\n",
        qPrintable(num(s.loadCpuUsPerOp())), qPrintable(num(s.loadCpuS, 3)), qPrintable(num(s.clientCpuUsPerOp())),
        qPrintable(num(s.clientCpuS, 3)));
    std::fprintf(out, "timeouts %s, reconnects %s, searches with no entry %s",
        qPrintable(Units::formatNumber(s.all.timeouts, 0)), qPrintable(Units::formatNumber(s.reconnects, 0)),
        qPrintable(Units::formatNumber(s.all.noEntry, 0)));
    if (s.missed > 0)
        std::fprintf(out, ", missed %s (scheduled, not sent in time)", qPrintable(Units::formatNumber(s.missed, 0)));
    if (s.bindConnections > 0)
        std::fprintf(out, ", binds on %d connection(s) of their own", s.bindConnections);
    std::fprintf(out, "\n");
    if (s.sendLagMs.p50) // open loop: the latency counts from the schedule, so the client's lateness is in it
        std::fprintf(out, "sent after the scheduled time: p50 %s ms, p99 %s ms, max %s ms\n",
            qPrintable(num(s.sendLagMs.p50, 3)), qPrintable(num(s.sendLagMs.p99, 3)),
            qPrintable(num(s.sendLagMs.max, 3)));
}

void printResultCodes(std::FILE* out, const OpFigures& f)
{
    if (f.resultCodes.empty())
        return;
    std::fprintf(out, "result codes:");
    for (const auto& [code, n] : f.resultCodes)
        std::fprintf(out, "  %d (%s): %s", code,
            qPrintable(LdapSession::resultText(code == 81 ? -1
                    : code == 85                          ? -5
                                                          : code)),
            qPrintable(Units::formatNumber(n, 0)));
    std::fprintf(out, "\n");
}

void printServerCounters(std::FILE* out, const QJsonObject& srv)
{
    if (srv.isEmpty())
        return;
    std::fprintf(out, "server counters over the run:");
    for (auto it = srv.begin(); it != srv.end(); ++it)
        if (it.value().toDouble() != 0)
            std::fprintf(out, "  %s %s", qPrintable(it.key()), qPrintable(num(it.value(), 0)));
    std::fprintf(out, "\n");
}

void printWarnings(std::FILE* out, const RunRecord& rec)
{
    if (rec.warnings.isEmpty())
        return;
    std::fprintf(out, "\nwarnings:\n");
    for (const auto& w : rec.warnings)
        std::fprintf(out, "  [%s] %s\n", qPrintable(w.code), qPrintable(w.message));
}

void printStatus(std::FILE* out, const RunRecord& rec)
{
    if (rec.status != u"ok")
        std::fprintf(out, "\nstatus: %s%s%s\n", qPrintable(rec.status), rec.failure.isEmpty() ? "" : ": ",
            qPrintable(rec.failure));
}

void printProbeTls(std::FILE* out, const ProbeTls& tls)
{
    std::fprintf(out, "\nTLS: %s, %s%s\n", qPrintable(tls.protocol), qPrintable(tls.cipher),
        tls.verified ? "" : " (NOT verified: --insecure)");
    std::fprintf(out, "  subject %s, issuer %s\n", qPrintable(tls.subject), qPrintable(tls.issuer));
    std::fprintf(out, "  key %s %d bits, valid until %s (%s days)\n", qPrintable(tls.keyType), tls.keyBits,
        qPrintable(tls.notAfter), qPrintable(num(tls.daysLeft, 0)));
    if (!tls.sans.isEmpty())
        std::fprintf(out, "  SANs: %s\n", qPrintable(tls.sans.join(QStringLiteral(", "))));
}

} // namespace

void printProbe(std::FILE* out, const RunRecord& rec)
{
    const ProbeSummary p = ProbeSummary::of(rec);
    if (p.server.identified) {
        const ServerIdentity& id = p.server.id;
        std::fprintf(out, "server: %s — %s %s\n", qPrintable(id.kind),
            qPrintable(id.vendor.isEmpty() ? QStringLiteral("(no vendor)") : id.vendor),
            qPrintable(id.version.isEmpty() ? QStringLiteral("(version unknown)") : id.version));
        for (const auto& e : id.evidence)
            std::fprintf(out, "  evidence: %s\n", qPrintable(e));
    }
    const ProbeTimings& t = p.timings;
    std::fprintf(out, "\ntimings (ms):\n");
    const std::pair<const char*, std::optional<double>> steps[] = { { "tcp_connect", t.tcpConnect },
        { "tls_handshake", t.tlsHandshake }, { "bind", t.bind }, { "root_dse", t.rootDse }, { "search", t.search } };
    for (const auto& [k, v] : steps)
        std::fprintf(out, "  %-14s %10s\n", k, qPrintable(num(v, 3)));
    if (p.tls)
        printProbeTls(out, *p.tls);
    if (p.hasRootDse()) {
        std::fprintf(out, "\nroot DSE:\n");
        for (const char* k : { "namingContexts", "supportedLDAPVersion", "supportedSASLMechanisms",
                 "supportedExtension", "supportedControl" }) {
            std::fprintf(out, "  %s:\n", k);
            const QStringList values = p.rootDseValues(QLatin1String(k));
            for (const auto& v : values)
                std::fprintf(out, "    %s\n", qPrintable(v));
        }
    }
    printWarnings(out, rec);
    printStatus(out, rec);
}

void printLoadHeader(std::FILE* out, const LdapLoadSpec& s)
{
    std::fprintf(out, "dirbench %s: %s, %d thread(s) x %d connection(s) x %d outstanding%s, %s s%s%s\n",
        qPrintable(s.kindName()), qPrintable(s.target.uri), s.threads, s.connections, s.outstanding,
        s.rate > 0 ? qPrintable(QStringLiteral(", target ") + Units::formatNumber(s.rate, 0) + QStringLiteral(" ops/s"))
                   : "",
        qPrintable(Units::formatNumber(s.durationSec)),
        s.warmupSec > 0
            ? qPrintable(QStringLiteral(" after ") + Units::formatNumber(s.warmupSec) + QStringLiteral(" s warm-up"))
            : "",
        s.coalesceReads ? "; latencies include the --coalesce-reads hold (coalesced reads)" : "");
    std::fflush(out);
}

void printLoadInterval(std::FILE* out, const Sample& smp, bool coalescedReads)
{
    const LoadInterval v = LoadInterval::fromJson(smp.values);
    const QJsonObject srv = v.server.toObject();
    QString server;
    for (const char* k : { "search_completed_per_s", "bind_completed_per_s", "modify_completed_per_s",
             "compare_completed_per_s", "add_completed_per_s", "all_completed_per_s" })
        if (srv.contains(QLatin1String(k)) && srv.value(QLatin1String(k)).toDouble() > 0) {
            server = QStringLiteral("  server ") + QString::fromLatin1(k).section(u'_', 0, 0) + u' '
                + num(srv.value(QLatin1String(k))) + QStringLiteral("/s");
            break;
        }
    const QString missed = v.missed > 0 ? QStringLiteral("  missed ") + Units::formatNumber(v.missed, 0) : QString();
    std::fprintf(out, "t=%7.2f s %12s ok/s %12s ops/s  errors %s  p50 %9s ms  p99 %9s ms%s%s%s\n", smp.t,
        qPrintable(Units::formatNumber(v.all.okPerS)), qPrintable(Units::formatNumber(v.all.opsPerS)),
        qPrintable(Units::formatNumber(v.all.errors, 0)), qPrintable(num(v.all.latencyMs.p50, 3)),
        qPrintable(num(v.all.latencyMs.p99, 3)), coalescedReads ? " (coalesced reads)" : "", qPrintable(missed),
        qPrintable(server));
    std::fflush(out);
}

void printLoadSummary(std::FILE* out, const RunRecord& rec)
{
    if (!rec.summary.isEmpty()) {
        const LoadSummary s = LoadSummary::fromJson(rec.summary);
        printFigureTable(out, s, Comparison::coalescedReads(rec));
        printLoadDetails(out, s);
        printResultCodes(out, s.all);
        printServerCounters(out, s.server.toObject());
    }
    printWarnings(out, rec);
    printStatus(out, rec);
}

} // namespace Cli
