#include "app/cli/ldapcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/ldapprinter.h"
#include "app/cli/passwordsource.h"
#include "core/common/units.h"
#include "core/ldap/loadgenerator.h"
#include "core/ldap/probe.h"
#include "core/run/proberunner.h"

#include <QCommandLineParser>

#include <cmath>
#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(Probe an LDAP server, or put load on it.

Operations:
  probe     connect, TLS, bind, root DSE and one search, each timed; TLS facts; server recognised
  search    searches: --base, --filter (a template), --scope, --attrs
  bind      binds as --dn PATTERN (all share the password of --password-file);
            --mode rebind (on persistent connections, default) or new-connection (connect+bind+unbind)
  modify    replaces --attr of --dn PATTERN with --value PATTERN
  compare   compares --attr of --dn PATTERN with --value PATTERN
  adddel    adds and deletes inetOrgPerson entries under --parent (removed at the end, also on cancel)
  mixed     a mix by weight: --mix search=90,modify=10 (plus the options of each operation)

Templates (filter, dn, value): [A-B] an inclusive integer range, zero-padded when A has leading zeros
([00000-99999]); \[ a literal bracket; [file:PATH] the lines of a file. Keys are drawn by --access:
uniform (default), sequential, zipf:S (e.g. zipf:1.0), hot:P/Q (P % of operations to Q % of the keys).
Filters are accepted with or without outer parentheses.

Concurrency: --threads x --connections (per thread) x --outstanding (per connection), asynchronous.
--rate sets a total target for the run (open loop: latency counts from the scheduled time, so queueing
shows). --ramp rate:1000,2000,4000@10 or outstanding:1,2,4,8@5 steps through values (seconds per step);
it sets the duration. --duration excludes --warmup. A run fails when no operation succeeded for
--fail-after seconds; a reconnect within that window lets it go on, and is counted.

Passwords are never taken on the command line: --password-file FILE, the environment variable
DIRBENCH_PASSWORD, or a prompt. They are never written to any file, log or record.

Defaults: --scope sub, --filter (objectClass=*), --access uniform, --threads 2, --connections 2,
--outstanding 4, --duration 10, --warmup 0, --interval 1, --fail-after 10, --max-errors 0 (no limit),
--network-timeout 5, --op-timeout 10.
)";

QCommandLineOption opt(const char* name, const char* help, const char* value = nullptr)
{
    return value ? QCommandLineOption(QLatin1String(name), QString::fromUtf8(help), QLatin1String(value))
                 : QCommandLineOption(QLatin1String(name), QString::fromUtf8(help));
}

} // namespace

int runLdapCommand(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString op = args.size() > 1 ? args.at(1) : QString();
    const QStringList ops = { QStringLiteral("probe"), QStringLiteral("search"), QStringLiteral("bind"),
        QStringLiteral("modify"), QStringLiteral("compare"), QStringLiteral("adddel"), QStringLiteral("mixed") };
    QCommandLineParser p;
    p.setApplicationDescription(QString::fromUtf8(kDescription));
    p.addHelpOption();
    const QList<QCommandLineOption> options = {
        opt("uri", "Server: ldap://host[:port], ldaps://host[:port] or ldapi://%2Fpath (required).", "URI"),
        opt("starttls", "Upgrade ldap:// with StartTLS (the certificate is checked)."),
        opt("bind-dn", "Bind as this DN (simple bind); anonymous without it.", "DN"),
        opt("password-file", "Read the password from the first line of FILE.", "FILE"),
        opt("ca-file", "Trust these CA certificates (PEM) instead of the system's.", "FILE"),
        opt("cert", "Client certificate (PEM), with --key.", "FILE"),
        opt("key", "Client key (PEM), with --cert.", "FILE"),
        opt("sasl", "SASL mechanism: external (over ldapi:// or with a client certificate).", "MECH"),
        opt("insecure", "Do not check the server's certificate (trust anyway; the record says so)."),
        opt("network-timeout", "Seconds to wait for a connection (default 5).", "S"),
        opt("op-timeout", "Seconds to wait for each operation (default 10); late ones are abandoned.", "S"),
        opt("base", "Search base DN.", "DN"),
        opt("filter", "Search filter template (default (objectClass=*)).", "T"),
        opt("scope", "Search scope: base, one or sub (default sub).", "SCOPE"),
        opt("attrs", "Attributes to return, comma-separated (default all; 1.1 for none).", "A,B"),
        opt("size-limit", "Search size limit (default none).", "N"),
        opt("dn", "Entries to work on (bind, modify, compare): a template.", "PATTERN"),
        opt("mode", "bind: rebind (default) or new-connection.", "MODE"),
        opt("attr", "Attribute for modify and compare.", "NAME"),
        opt("value", "Value template for modify and compare.", "PATTERN"),
        opt("parent", "adddel: the DN under which entries are added and deleted.", "DN"),
        opt("mix", "mixed: weights, e.g. search=90,modify=10.", "SPEC"),
        opt("access", "Key distribution: uniform, sequential, zipf:S, hot:P/Q (default uniform).", "DIST"),
        opt("threads", "Client threads (default 2).", "N"),
        opt("connections", "Connections per thread (default 2).", "N"),
        opt("outstanding", "Operations in flight per connection (default 4).", "N"),
        opt("rate", "Target operations per second for the whole run (default: as fast as it goes).", "OPS"),
        opt("ramp", "Step ramp: rate:V1,V2,...@S or outstanding:V1,V2,...@S.", "SPEC"),
        opt("warmup", "Seconds of load before measuring (default 0).", "S"),
        opt("duration", "Seconds measured (default 10).", "S"),
        opt("interval", "Seconds per interval line (default 1).", "S"),
        opt("fail-after", "Fail when no operation succeeded for S seconds (default 10).", "S"),
        opt("max-errors", "Stop (failed) after N errors (default 0: never).", "N"),
        opt("no-server-counters", "Do not read the server's counters (cn=monitor)."),
        opt("json", "Write the RunRecord to FILE ('-' = stdout, and nothing else goes to stdout).", "FILE"),
        opt("quiet", "Print no interval lines, only the summary."),
    };
    for (const auto& o : options)
        p.addOption(o);
    if (op.isEmpty() || op == u"--help" || op == u"-h") {
        std::fputs(
            qPrintable(p.helpText().replace(QStringLiteral("[options]"), QStringLiteral("ldap OPERATION [options]"))),
            op.isEmpty() ? stderr : stdout);
        return op.isEmpty() ? ExitBadArgs : ExitOk;
    }
    if (!ops.contains(op))
        return badArgument(QStringLiteral("ldap"),
            QStringLiteral("unknown operation '") + op + QStringLiteral("' (one of ") + ops.join(QStringLiteral(", "))
                + u')');
    args.removeAt(1);
    if (!p.parse(args)) {
        std::fprintf(stderr, "dirbench-cli ldap %s: %s\n", qPrintable(op), qPrintable(p.errorText()));
        return ExitBadArgs;
    }
    if (p.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(p.helpText().replace(
                       QStringLiteral("[options]"), QStringLiteral("ldap ") + op + QStringLiteral(" [options]"))),
            stdout);
        return ExitOk;
    }
    if (!p.positionalArguments().isEmpty())
        return badArgument(p.positionalArguments().first(),
            QStringLiteral("unexpected argument (passwords are never taken on the command line: use --password-file)"));

    auto num = [&](const char* name, double lo, double hi, double* out) -> int {
        if (!p.isSet(QLatin1String(name)))
            return ExitOk;
        bool ok = false;
        const double v = p.value(QLatin1String(name)).toDouble(&ok);
        if (!ok || v < lo || v > hi)
            return badArgument(QStringLiteral("--") + QLatin1String(name),
                QStringLiteral("'") + p.value(QLatin1String(name)) + QStringLiteral("' must be a number from ")
                    + Units::formatNumber(lo, 0) + QStringLiteral(" to ") + Units::formatNumber(hi, 0));
        *out = v;
        return ExitOk;
    };

    LdapTarget t;
    t.uri = p.value(QStringLiteral("uri"));
    if (t.uri.isEmpty())
        return badArgument(QStringLiteral("--uri"), QStringLiteral("required, e.g. ldap://127.0.0.1:389"));
    t.startTls = p.isSet(QStringLiteral("starttls"));
    t.bindDn = p.value(QStringLiteral("bind-dn"));
    t.caFile = p.value(QStringLiteral("ca-file"));
    t.certFile = p.value(QStringLiteral("cert"));
    t.keyFile = p.value(QStringLiteral("key"));
    t.insecure = p.isSet(QStringLiteral("insecure"));
    if (p.isSet(QStringLiteral("sasl"))) {
        if (p.value(QStringLiteral("sasl")).compare(QLatin1String("external"), Qt::CaseInsensitive) != 0)
            return badArgument(QStringLiteral("--sasl"), QStringLiteral("only 'external' is supported"));
        t.auth = LdapTarget::Auth::SaslExternal;
    } else if (!t.bindDn.isEmpty()) {
        t.auth = LdapTarget::Auth::Simple;
    }
    double netTimeout = 5, opTimeout = 10;
    if (int rc = num("network-timeout", 0.01, 3600, &netTimeout))
        return rc;
    if (int rc = num("op-timeout", 0.01, 3600, &opTimeout))
        return rc;
    t.networkTimeoutMs = int(netTimeout * 1000);
    t.opTimeoutMs = int(opTimeout * 1000);
    const bool needPassword = t.auth == LdapTarget::Auth::Simple || op == u"bind"
        || (op == u"mixed" && p.value(QStringLiteral("mix")).contains(QLatin1String("bind")));
    QString pwError, pwSource;
    if (!readPassword(p.value(QStringLiteral("password-file")), needPassword, &t.password, &pwError, &pwSource))
        return badArgument(pwSource, pwError);
    if (const ProbeError e = t.validate(); e.isError())
        return badArgument(QStringLiteral("--") + e.field, e.detail);

    const QString jsonPath = p.value(QStringLiteral("json"));
    std::FILE* out = humanStream(jsonPath == u"-");
    const bool quiet = p.isSet(QStringLiteral("quiet"));
    ProbeRunner runner;
    RunRecord rec;

    if (op == u"probe") {
        ProbeSpec spec;
        spec.target = t;
        spec.searchBase = p.value(QStringLiteral("base"));
        if (p.isSet(QStringLiteral("filter")))
            spec.filter = p.value(QStringLiteral("filter"));
        rec = runWithSignals(runner, Ldap::makeProbeJob(spec), [](const SampleBatch&) {});
        printProbe(out, rec);
    } else {
        LdapLoadSpec s;
        s.target = t;
        if (op == u"mixed") {
            ProbeError e;
            const auto mix = LdapLoadSpec::parseMix(p.value(QStringLiteral("mix")), &e);
            if (!mix)
                return badArgument(QStringLiteral("--mix"), e.detail);
            s.mix = *mix;
        } else {
            const LdapOpKind kind = op == u"search" ? LdapOpKind::Search
                : op == u"bind"                     ? LdapOpKind::Bind
                : op == u"modify"                   ? LdapOpKind::Modify
                : op == u"compare"                  ? LdapOpKind::Compare
                                                    : LdapOpKind::AddDelete;
            s.mix = { { kind, 100 } };
            if (p.isSet(QStringLiteral("mix")))
                return badArgument(QStringLiteral("--mix"), QStringLiteral("only with 'ldap mixed'"));
        }
        s.base = p.value(QStringLiteral("base"));
        if (p.isSet(QStringLiteral("filter")))
            s.filter = p.value(QStringLiteral("filter"));
        if (p.isSet(QStringLiteral("scope"))) {
            const QString sc = p.value(QStringLiteral("scope"));
            if (sc == u"base")
                s.scope = LdapSession::Base;
            else if (sc == u"one")
                s.scope = LdapSession::OneLevel;
            else if (sc == u"sub")
                s.scope = LdapSession::Subtree;
            else
                return badArgument(
                    QStringLiteral("--scope"), QStringLiteral("must be base, one or sub, not '") + sc + u'\'');
        }
        if (p.isSet(QStringLiteral("attrs")))
            s.attrs = p.value(QStringLiteral("attrs")).split(u',', Qt::SkipEmptyParts);
        s.dnPattern = p.value(QStringLiteral("dn"));
        s.attr = p.value(QStringLiteral("attr"));
        s.valuePattern = p.value(QStringLiteral("value"));
        s.parentDn = p.value(QStringLiteral("parent"));
        if (p.isSet(QStringLiteral("mode"))) {
            const QString m = p.value(QStringLiteral("mode"));
            if (m != u"rebind" && m != u"new-connection")
                return badArgument(
                    QStringLiteral("--mode"), QStringLiteral("must be rebind or new-connection, not '") + m + u'\'');
            s.bindNewConnection = m == u"new-connection";
        }
        if (p.isSet(QStringLiteral("access")))
            s.access = p.value(QStringLiteral("access"));
        s.ramp = p.value(QStringLiteral("ramp"));
        s.readServerCounters = !p.isSet(QStringLiteral("no-server-counters"));
        double v = 0;
        struct IntOpt
        {
            const char* name;
            int* target;
            double lo, hi;
        };
        for (const IntOpt& io :
            { IntOpt { "threads", &s.threads, 1, 256 }, IntOpt { "connections", &s.connections, 1, 1024 },
                IntOpt { "outstanding", &s.outstanding, 1, 1024 }, IntOpt { "size-limit", &s.sizeLimit, 0, 1e9 } }) {
            v = *io.target;
            if (int rc = num(io.name, io.lo, io.hi, &v))
                return rc;
            if (v != std::floor(v))
                return badArgument(
                    QStringLiteral("--") + QLatin1String(io.name), QStringLiteral("must be a whole number"));
            *io.target = int(v);
        }
        if (int rc = num("rate", 0, 1e7, &s.rate))
            return rc;
        if (int rc = num("warmup", 0, 86400, &s.warmupSec))
            return rc;
        if (int rc = num("duration", 0.1, 7 * 86400, &s.durationSec))
            return rc;
        if (int rc = num("interval", 0.1, 3600, &s.intervalSec))
            return rc;
        if (int rc = num("fail-after", 0.5, 86400, &s.failAfterSec))
            return rc;
        v = 0;
        if (int rc = num("max-errors", 0, 1e15, &v))
            return rc;
        s.maxErrors = qint64(v);
        ProbeError e;
        if (!CompiledLoad::compile(s, &e))
            return badArgument(QStringLiteral("--") + e.field, e.detail);
        printLoadHeader(out, s);
        rec = runWithSignals(runner, Ldap::makeLoadJob(s), [&](const SampleBatch& batch) {
            if (!quiet)
                for (const auto& smp : batch)
                    printLoadInterval(out, smp);
        });
        printLoadSummary(out, rec);
    }
    if (!jsonPath.isEmpty() && !writeRecord(rec, jsonPath))
        return ExitFailed;
    return rec.status == u"ok" ? ExitOk : ExitFailed;
}

} // namespace Cli
