#include "app/cli/ldapoptions.h"

#include "app/cli/clicommon.h"
#include "app/cli/passwordsource.h"
#include "core/common/units.h"

#include <cmath>

namespace Cli {

namespace {

QCommandLineOption opt(const char* name, const char* help, const char* value = nullptr)
{
    return value ? QCommandLineOption(QLatin1String(name), QString::fromUtf8(help), QLatin1String(value))
                 : QCommandLineOption(QLatin1String(name), QString::fromUtf8(help));
}

} // namespace

QList<QCommandLineOption> ldapConnectionOptions()
{
    return {
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
    };
}

QList<QCommandLineOption> ldapWorkloadOptions()
{
    return {
        opt("base", "Search base DN.", "DN"),
        opt("filter", "Search filter template (required for searches), e.g. (uid=user[0-99999]).", "T"),
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
        opt("no-server-counters", "Do not read the server's counters (cn=monitor)."),
    };
}

QList<QCommandLineOption> ldapTimingOptions()
{
    return {
        opt("ramp", "Step ramp: rate:V1,V2,...@S or outstanding:V1,V2,...@S.", "SPEC"),
        opt("warmup", "Seconds of load before measuring (default 0).", "S"),
        opt("duration", "Seconds measured (default 10).", "S"),
        opt("interval", "Seconds per interval line (default 1).", "S"),
        opt("fail-after", "Fail when no operation succeeded for S seconds (default 10).", "S"),
        opt("max-errors", "Stop (failed) after N errors (default 0: never).", "N"),
    };
}

int numberOption(const QCommandLineParser& p, const char* name, double lo, double hi, double* out)
{
    if (!p.isSet(QLatin1String(name)))
        return ExitOk;
    bool ok = false;
    const double v = p.value(QLatin1String(name)).toDouble(&ok);
    if (!ok || v < lo || v > hi || !std::isfinite(v))
        return badArgument(QStringLiteral("--") + QLatin1String(name),
            QStringLiteral("'") + p.value(QLatin1String(name)) + QStringLiteral("' must be a number from ")
                + Units::formatNumber(lo, lo < 1 ? 2 : 0) + QStringLiteral(" to ") + Units::formatNumber(hi, 0));
    *out = v;
    return ExitOk;
}

int ldapTargetFromParser(const QCommandLineParser& p, bool needPassword, LdapTarget* target)
{
    LdapTarget& t = *target;
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
    if (int rc = numberOption(p, "network-timeout", 0.01, 3600, &netTimeout))
        return rc;
    if (int rc = numberOption(p, "op-timeout", 0.01, 3600, &opTimeout))
        return rc;
    t.networkTimeoutMs = int(netTimeout * 1000);
    t.opTimeoutMs = int(opTimeout * 1000);
    QString pwError, pwSource;
    if (!readPassword(p.value(QStringLiteral("password-file")), needPassword || t.auth == LdapTarget::Auth::Simple,
            &t.password, &pwError, &pwSource))
        return badArgument(pwSource, pwError);
    if (const ProbeError e = t.validate(); e.isError())
        return badArgument(QStringLiteral("--") + e.field, e.detail);
    return ExitOk;
}

int ldapWorkloadFromParser(const QCommandLineParser& p, const QString& op, LdapLoadSpec* spec)
{
    LdapLoadSpec& s = *spec;
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
    s.readServerCounters = !p.isSet(QStringLiteral("no-server-counters"));
    struct IntOpt
    {
        const char* name;
        int* target;
        double lo, hi;
    };
    for (const IntOpt& io :
        { IntOpt { "threads", &s.threads, 1, 256 }, IntOpt { "connections", &s.connections, 1, 1024 },
            IntOpt { "outstanding", &s.outstanding, 1, 1024 }, IntOpt { "size-limit", &s.sizeLimit, 0, 1e9 } }) {
        double v = *io.target;
        if (int rc = numberOption(p, io.name, io.lo, io.hi, &v))
            return rc;
        if (v != std::floor(v))
            return badArgument(QStringLiteral("--") + QLatin1String(io.name), QStringLiteral("must be a whole number"));
        *io.target = int(v);
    }
    return numberOption(p, "rate", 0, 1e7, &s.rate);
}

int ldapTimingFromParser(const QCommandLineParser& p, LdapLoadSpec* spec)
{
    LdapLoadSpec& s = *spec;
    s.ramp = p.value(QStringLiteral("ramp"));
    if (int rc = numberOption(p, "warmup", 0, 86400, &s.warmupSec))
        return rc;
    if (int rc = numberOption(p, "duration", 0.1, 7 * 86400, &s.durationSec))
        return rc;
    if (int rc = numberOption(p, "interval", 0.1, 3600, &s.intervalSec))
        return rc;
    if (int rc = numberOption(p, "fail-after", 0.5, 86400, &s.failAfterSec))
        return rc;
    double v = 0;
    if (int rc = numberOption(p, "max-errors", 0, 1e15, &v))
        return rc;
    if (v != std::floor(v))
        return badArgument(QStringLiteral("--max-errors"), QStringLiteral("must be a whole number"));
    s.maxErrors = qint64(v);
    return ExitOk;
}

} // namespace Cli
