#include "app/cli/ldapprinter.h"

#include "core/common/units.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadspec.h"

#include <QJsonArray>

namespace Cli {

namespace {

QString num(const QJsonValue& v, int decimals = 1)
{
    return v.isDouble() ? Units::formatNumber(v.toDouble(), decimals) : QStringLiteral("-");
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

} // namespace

void printProbe(std::FILE* out, const RunRecord& rec)
{
    const QJsonObject srv = rec.server.toObject();
    if (!srv.isEmpty()) {
        std::fprintf(out, "server: %s — %s %s\n", qPrintable(srv.value(QStringLiteral("kind")).toString()),
            qPrintable(srv.value(QStringLiteral("vendor")).toString(QStringLiteral("(no vendor)"))),
            qPrintable(srv.value(QStringLiteral("version")).toString(QStringLiteral("(version unknown)"))));
        for (const auto& e : srv.value(QStringLiteral("evidence")).toArray())
            std::fprintf(out, "  evidence: %s\n", qPrintable(e.toString()));
    }
    const QJsonObject t = rec.summary.value(QStringLiteral("timings_ms")).toObject();
    std::fprintf(out, "\ntimings (ms):\n");
    for (const char* k : { "tcp_connect", "tls_handshake", "bind", "root_dse", "search" })
        std::fprintf(out, "  %-14s %10s\n", k, qPrintable(num(t.value(QLatin1String(k)), 3)));
    const QJsonObject tls = rec.summary.value(QStringLiteral("tls")).toObject();
    if (!tls.isEmpty()) {
        std::fprintf(out, "\nTLS: %s, %s%s\n", qPrintable(tls.value(QStringLiteral("protocol")).toString()),
            qPrintable(tls.value(QStringLiteral("cipher")).toString()),
            tls.value(QStringLiteral("verified")).toBool() ? "" : " (NOT verified: --insecure)");
        std::fprintf(out, "  subject %s, issuer %s\n", qPrintable(tls.value(QStringLiteral("subject")).toString()),
            qPrintable(tls.value(QStringLiteral("issuer")).toString()));
        std::fprintf(out, "  key %s %d bits, valid until %s (%s days)\n",
            qPrintable(tls.value(QStringLiteral("key_type")).toString()), tls.value(QStringLiteral("key_bits")).toInt(),
            qPrintable(tls.value(QStringLiteral("not_after")).toString()),
            qPrintable(num(tls.value(QStringLiteral("days_left")), 0)));
        QStringList sans;
        for (const auto& s : tls.value(QStringLiteral("sans")).toArray())
            sans << s.toString();
        if (!sans.isEmpty())
            std::fprintf(out, "  SANs: %s\n", qPrintable(sans.join(QStringLiteral(", "))));
    }
    const QJsonObject dse = rec.summary.value(QStringLiteral("root_dse")).toObject();
    if (!dse.isEmpty()) {
        std::fprintf(out, "\nroot DSE:\n");
        for (const char* k : { "namingContexts", "supportedLDAPVersion", "supportedSASLMechanisms",
                 "supportedExtension", "supportedControl" }) {
            const QJsonArray a = dse.value(QLatin1String(k)).toArray();
            std::fprintf(out, "  %s:\n", k);
            for (const auto& v : a)
                std::fprintf(out, "    %s\n", qPrintable(v.toString()));
        }
    }
    printWarnings(out, rec);
    printStatus(out, rec);
}

void printLoadHeader(std::FILE* out, const LdapLoadSpec& s)
{
    std::fprintf(out, "dirbench %s: %s, %d thread(s) x %d connection(s) x %d outstanding%s, %s s%s\n",
        qPrintable(s.kindName()), qPrintable(s.target.uri), s.threads, s.connections, s.outstanding,
        s.rate > 0 ? qPrintable(QStringLiteral(", target ") + Units::formatNumber(s.rate, 0) + QStringLiteral(" ops/s"))
                   : "",
        qPrintable(Units::formatNumber(s.durationSec)),
        s.warmupSec > 0
            ? qPrintable(QStringLiteral(" after ") + Units::formatNumber(s.warmupSec) + QStringLiteral(" s warm-up"))
            : "");
    std::fflush(out);
}

void printLoadInterval(std::FILE* out, const Sample& smp)
{
    const QJsonObject& v = smp.values;
    const QJsonObject lat = v.value(QStringLiteral("latency_ms")).toObject();
    const QJsonObject srv = v.value(QStringLiteral("server")).toObject();
    QString server;
    for (const char* k : { "search_completed_per_s", "bind_completed_per_s", "modify_completed_per_s",
             "compare_completed_per_s", "add_completed_per_s", "all_completed_per_s" })
        if (srv.contains(QLatin1String(k)) && srv.value(QLatin1String(k)).toDouble() > 0) {
            server = QStringLiteral("  server ") + QString::fromLatin1(k).section(u'_', 0, 0) + u' '
                + num(srv.value(QLatin1String(k))) + QStringLiteral("/s");
            break;
        }
    std::fprintf(out, "t=%7.2f s %12s ops/s  p50 %9s ms  p99 %9s ms  errors %s%s\n", smp.t,
        qPrintable(num(v.value(QStringLiteral("ops_per_s")))), qPrintable(num(lat.value(QStringLiteral("p50")), 3)),
        qPrintable(num(lat.value(QStringLiteral("p99")), 3)), qPrintable(num(v.value(QStringLiteral("errors")), 0)),
        qPrintable(server));
    std::fflush(out);
}

void printLoadSummary(std::FILE* out, const RunRecord& rec)
{
    const QJsonObject& s = rec.summary;
    if (s.contains(QStringLiteral("ops_per_s"))) {
        const QJsonObject lat = s.value(QStringLiteral("latency_ms")).toObject();
        std::fprintf(out, "\n%12s %12s %10s %10s %10s %10s %10s %10s %10s\n", "ops", "ops/s", "errors", "mean ms",
            "p50 ms", "p95 ms", "p99 ms", "p99.9 ms", "max ms");
        std::fprintf(out, "%12s %12s %10s %10s %10s %10s %10s %10s %10s\n",
            qPrintable(num(s.value(QStringLiteral("ops")), 0)), qPrintable(num(s.value(QStringLiteral("ops_per_s")))),
            qPrintable(num(s.value(QStringLiteral("errors")), 0)),
            qPrintable(num(lat.value(QStringLiteral("mean")), 3)), qPrintable(num(lat.value(QStringLiteral("p50")), 3)),
            qPrintable(num(lat.value(QStringLiteral("p95")), 3)), qPrintable(num(lat.value(QStringLiteral("p99")), 3)),
            qPrintable(num(lat.value(QStringLiteral("p999")), 3)),
            qPrintable(num(lat.value(QStringLiteral("max")), 3)));
        std::fprintf(out, "client CPU: %s µs per operation; timeouts %s, reconnects %s, searches with no entry %s\n",
            qPrintable(num(s.value(QStringLiteral("client_cpu_us_per_op")))),
            qPrintable(num(s.value(QStringLiteral("timeouts")), 0)),
            qPrintable(num(s.value(QStringLiteral("reconnects")), 0)),
            qPrintable(num(s.value(QStringLiteral("no_entry")), 0)));
    }
    const QJsonObject codes = s.value(QStringLiteral("result_codes")).toObject();
    if (!codes.isEmpty()) {
        std::fprintf(out, "result codes:");
        for (auto it = codes.begin(); it != codes.end(); ++it)
            std::fprintf(out, "  %s (%s): %s", qPrintable(it.key()),
                qPrintable(LdapSession::resultText(it.key().toInt() == 81 ? -1
                        : it.key().toInt() == 85                          ? -5
                                                                          : it.key().toInt())),
                qPrintable(num(it.value(), 0)));
        std::fprintf(out, "\n");
    }
    const QJsonObject srv = s.value(QStringLiteral("server")).toObject();
    if (!srv.isEmpty()) {
        std::fprintf(out, "server counters over the run:");
        for (auto it = srv.begin(); it != srv.end(); ++it)
            if (it.value().toDouble() != 0)
                std::fprintf(out, "  %s %s", qPrintable(it.key()), qPrintable(num(it.value(), 0)));
        std::fprintf(out, "\n");
    }
    printWarnings(out, rec);
    printStatus(out, rec);
}

} // namespace Cli
