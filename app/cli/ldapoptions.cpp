#include "app/cli/ldapoptions.h"

#include "app/cli/clicommon.h"
#include "app/cli/passwordsource.h"
#include "core/common/units.h"
#include "core/ldap/okcodes.h"

#include <algorithm>
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
        opt("source-address",
            "Bind client sockets to these local addresses, round robin per connection (e.g. 127.0.0.1,127.0.0.2).",
            "A,B"),
    };
}

QList<QCommandLineOption> ldapWorkloadOptions()
{
    return {
        opt("base", "Search base DN (required for searches).", "DN"),
        opt("filter", "Search filter template (required for searches; no default), e.g. (uid=user[0-99999]).", "T"),
        opt("scope", "Search scope: base, one or sub (default sub).", "SCOPE"),
        opt("attrs", "Attributes to return, comma-separated (default all; 1.1 for none).", "A,B"),
        opt("size-limit", "Search size limit (default none).", "N"),
        opt("dn", "Entries to work on (bind, modify, compare): a template.", "PATTERN"),
        opt("mode", "bind: rebind (default) or new-connection.", "MODE"),
        opt("attr", "Attribute for modify and compare.", "NAME"),
        opt("value", "Value template for modify and compare.", "PATTERN"),
        opt("parent", "adddel: the DN under which entries are added and deleted.", "DN"),
        opt("mix", "mixed: weights (whole numbers 1 to 1000000), e.g. search=90,modify=10.", "SPEC"),
        opt("access", "Key distribution: uniform, sequential, zipf:S, hot:P/Q (default uniform).", "DIST"),
        opt("threads", "Client threads (default 2).", "N"),
        opt("connections", "Connections per thread (default 2).", "N"),
        opt("outstanding", "Operations in flight per connection (default 4; a bind is alone on its connection).", "N"),
        opt("rate", "Target operations per second for the whole run (default: as fast as it goes).", "OPS"),
        opt("ok-codes", "Result codes that count as success, e.g. 0,32 (default: 0; compare 5 and 6).", "C,C"),
        opt("coalesce-reads",
            "Batch reads: hold responses in the socket until about half of a connection's are in, or 2 ms "
            "(closed loop only; the wait is in every latency, and the record says so)."),
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

int numberOption(const QCommandLineParser& parser, const char* name, double lo, double hi, double* out)
{
    if (!parser.isSet(QLatin1String(name)))
        return ExitOk;
    bool ok = false;
    const double v = parser.value(QLatin1String(name)).toDouble(&ok);
    if (!ok || v < lo || v > hi || !std::isfinite(v))
        return badArgument(QStringLiteral("--") + QLatin1String(name),
            QStringLiteral("'") + parser.value(QLatin1String(name)) + QStringLiteral("' must be a number from ")
                + Units::formatNumber(lo, lo < 1 ? 2 : 0) + QStringLiteral(" to ") + Units::formatNumber(hi, 0));
    *out = v;
    return ExitOk;
}

int ldapTargetFromParser(const QCommandLineParser& parser, const TargetUse& use, LdapTarget* target)
{
    LdapTarget& t = *target;
    t.uri = parser.value(use.uriOption);
    if (t.uri.isEmpty())
        return badArgument(u"--" + use.uriOption, QStringLiteral("required, e.g. ldap://127.0.0.1:389"));
    t.startTls = parser.isSet(QStringLiteral("starttls"));
    t.bindDn = parser.value(QStringLiteral("bind-dn"));
    t.caFile = parser.value(QStringLiteral("ca-file"));
    t.certFile = parser.value(QStringLiteral("cert"));
    t.keyFile = parser.value(QStringLiteral("key"));
    t.insecure = parser.isSet(QStringLiteral("insecure"));
    if (parser.isSet(QStringLiteral("source-address"))) {
        for (const QString& a : parser.value(QStringLiteral("source-address")).split(u','))
            t.sourceAddresses << a.trimmed();
    }
    if (parser.isSet(QStringLiteral("sasl"))) {
        if (parser.value(QStringLiteral("sasl")).compare(QLatin1String("external"), Qt::CaseInsensitive) != 0)
            return badArgument(QStringLiteral("--sasl"), QStringLiteral("only 'external' is supported"));
        t.auth = LdapTarget::Auth::SaslExternal;
        if (int rc = refuseOptions(parser, { QStringLiteral("bind-dn") },
                QStringLiteral("not with --sasl external: the identity comes from the client certificate or the "
                               "ldapi:// socket")))
            return rc;
    } else if (!t.bindDn.isEmpty()) {
        t.auth = LdapTarget::Auth::Simple;
    }
    double netTimeout = 5, opTimeout = 10;
    if (int rc = numberOption(parser, "network-timeout", 0.01, 3600, &netTimeout))
        return rc;
    if (int rc = numberOption(parser, "op-timeout", 0.01, 3600, &opTimeout))
        return rc;
    t.networkTimeoutMs = int(netTimeout * 1000);
    t.opTimeoutMs = int(opTimeout * 1000);
    if (const ProbeError e = t.validate(); e.isError())
        return badArgument(QStringLiteral("--") + (e.field == u"uri" ? use.uriOption : e.field), e.cliDetail());
    if (!t.isTls() && !use.tlsElsewhere)
        if (int rc = refuseOptions(parser,
                { QStringLiteral("ca-file"), QStringLiteral("cert"), QStringLiteral("key"),
                    QStringLiteral("insecure") },
                QStringLiteral("applies to TLS only, and ") + t.uri
                    + QStringLiteral(" is not TLS: use ldaps:// or --starttls")))
            return rc;
    const bool passwordUsed = use.needPassword || t.auth == LdapTarget::Auth::Simple;
    if (!passwordUsed)
        if (int rc = refuseOptions(parser, { QStringLiteral("password-file") },
                QStringLiteral("nothing uses the password: it goes with --bind-dn (or a bind load)")))
            return rc;
    // Last: the password may be prompted for, once everything else is known to be right.
    QString pwError, pwSource;
    if (!readPassword(parser.value(QStringLiteral("password-file")), passwordUsed, &t.password, &pwError, &pwSource))
        return badArgument(pwSource, pwError);
    return ExitOk;
}

namespace {

// The workload options that only some operations take; the rest apply to every load.
struct OpOption
{
    const char* name;
    QList<LdapOpKind> ops;
    const char* appliesTo;
};

const QList<OpOption>& opOptions()
{
    using K = LdapOpKind;
    static const char* const search = "searches";
    static const char* const pipelined
        = "operations that can be pipelined: a bind is alone on its connection (RFC 4511), one at a time";
    static const QList<OpOption> t {
        { "base", { K::Search }, search },
        { "filter", { K::Search }, search },
        { "scope", { K::Search }, search },
        { "attrs", { K::Search }, search },
        { "size-limit", { K::Search }, search },
        { "dn", { K::Bind, K::Modify, K::Compare }, "bind, modify and compare (the entries they work on)" },
        { "mode", { K::Bind }, "bind" },
        { "attr", { K::Modify, K::Compare }, "modify and compare" },
        { "value", { K::Modify, K::Compare }, "modify and compare" },
        { "parent", { K::AddDelete }, "adddel" },
        { "access", { K::Search, K::Bind, K::Modify, K::Compare },
            "operations drawn from templates (search, bind, modify, compare); adddel has none" },
        { "outstanding", { K::Search, K::Modify, K::Compare, K::AddDelete }, pipelined },
        { "coalesce-reads", { K::Search, K::Modify, K::Compare, K::AddDelete }, pipelined },
    };
    return t;
}

bool takes(const OpOption& o, const QList<LdapOpKind>& ops)
{
    for (LdapOpKind k : ops)
        if (o.ops.contains(k))
            return true;
    return false;
}

QString opsText(const QList<LdapOpKind>& ops)
{
    QStringList names;
    for (LdapOpKind k : ops)
        names << LdapLoadSpec::opName(k);
    return names.join(QStringLiteral(", "));
}

bool bindOnly(const QList<QPair<LdapOpKind, int>>& mix)
{
    return std::all_of(mix.begin(), mix.end(), [](const auto& p) { return p.first == LdapOpKind::Bind; });
}

int okCodesFromParser(const QCommandLineParser& parser, QList<int>* codes)
{
    if (!parser.isSet(QStringLiteral("ok-codes")))
        return ExitOk;
    ProbeError e;
    const auto parsed = OkCodes::parse(parser.value(QStringLiteral("ok-codes")), &e);
    if (!parsed)
        return badArgument(QStringLiteral("--ok-codes"), e.detail);
    *codes = *parsed;
    return ExitOk;
}

int intOptions(const QCommandLineParser& parser, LdapLoadSpec& s)
{
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
        if (int rc = numberOption(parser, io.name, io.lo, io.hi, &v))
            return rc;
        if (v != std::floor(v))
            return badArgument(QStringLiteral("--") + QLatin1String(io.name), QStringLiteral("must be a whole number"));
        *io.target = int(v);
    }
    return ExitOk;
}

int searchFields(const QCommandLineParser& parser, LdapLoadSpec& s)
{
    s.base = parser.value(QStringLiteral("base"));
    if (parser.isSet(QStringLiteral("filter")))
        s.filter = parser.value(QStringLiteral("filter"));
    if (parser.isSet(QStringLiteral("scope"))) {
        const QString sc = parser.value(QStringLiteral("scope"));
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
    if (parser.isSet(QStringLiteral("attrs")))
        s.attrs = parser.value(QStringLiteral("attrs")).split(u',', Qt::SkipEmptyParts);
    return ExitOk;
}

} // namespace

QStringList ldapLoadOptionNames(const QList<LdapOpKind>& ops)
{
    QStringList out;
    for (const auto& o : ldapWorkloadOptions() + ldapTimingOptions()) {
        const QString name = o.names().constFirst();
        if (name == u"mix")
            continue;
        bool ok = true;
        for (const OpOption& oo : opOptions())
            if (name == QLatin1String(oo.name))
                ok = takes(oo, ops);
        if (ok)
            out << name;
    }
    return out;
}

LdapOpKind ldapOpKind(const QString& op)
{
    return op == u"search" ? LdapOpKind::Search
        : op == u"bind"    ? LdapOpKind::Bind
        : op == u"modify"  ? LdapOpKind::Modify
        : op == u"compare" ? LdapOpKind::Compare
                           : LdapOpKind::AddDelete;
}

std::optional<QList<LdapOpKind>> ldapOpsFromParser(const QCommandLineParser& parser, const QString& op)
{
    if (op != u"mixed") {
        if (parser.isSet(QStringLiteral("mix"))) {
            badArgument(QStringLiteral("--mix"), QStringLiteral("only with 'ldap mixed'"));
            return std::nullopt;
        }
        return QList<LdapOpKind> { ldapOpKind(op) };
    }
    if (!parser.isSet(QStringLiteral("mix"))) {
        badArgument(QStringLiteral("--mix"), QStringLiteral("required: the weights, e.g. search=90,modify=10"));
        return std::nullopt;
    }
    ProbeError e;
    const auto mix = LdapLoadSpec::parseMix(parser.value(QStringLiteral("mix")), &e);
    if (!mix) {
        badArgument(QStringLiteral("--mix"), e.cliDetail());
        return std::nullopt;
    }
    QList<LdapOpKind> ops;
    for (const auto& m : *mix)
        ops << m.first;
    return ops;
}

int ldapWorkloadFromParser(const QCommandLineParser& parser, const WorkloadUse& use, LdapLoadSpec* spec)
{
    LdapLoadSpec& s = *spec;
    const auto ops = ldapOpsFromParser(parser, use.op);
    if (!ops)
        return ExitBadArgs;
    if (use.op == u"mixed")
        s.mix = *LdapLoadSpec::parseMix(parser.value(QStringLiteral("mix")), nullptr);
    else
        s.mix = { { ops->first(), 100 } };
    const QString where = use.op == u"mixed" ? QStringLiteral("this mix (") + opsText(*ops) + u')'
        : use.where.isEmpty()                ? QStringLiteral("ldap ") + use.op
                                             : use.where;
    for (const OpOption& o : opOptions())
        if (parser.isSet(QLatin1String(o.name)) && !takes(o, *ops))
            return badArgument(QStringLiteral("--") + QLatin1String(o.name),
                QStringLiteral("does not apply to ") + where + QStringLiteral(": it is for ")
                    + QLatin1String(o.appliesTo));
    const bool search = ops->contains(LdapOpKind::Search);
    if (search && !use.searchTargetSet && parser.value(QStringLiteral("filter")).trimmed().isEmpty())
        return badArgument(QStringLiteral("--filter"),
            QStringLiteral("required for a search load, e.g. --filter '(uid=user[0-99999])' (there is no default: "
                           "a filter that matches everything would return the whole subtree with every search)"));
    if (search)
        if (int rc = searchFields(parser, s))
            return rc;
    s.dnPattern = parser.value(QStringLiteral("dn"));
    s.attr = parser.value(QStringLiteral("attr"));
    s.valuePattern = parser.value(QStringLiteral("value"));
    s.parentDn = parser.value(QStringLiteral("parent"));
    if (parser.isSet(QStringLiteral("mode"))) {
        const QString m = parser.value(QStringLiteral("mode"));
        if (m != u"rebind" && m != u"new-connection")
            return badArgument(
                QStringLiteral("--mode"), QStringLiteral("must be rebind or new-connection, not '") + m + u'\'');
        s.bindNewConnection = m == u"new-connection";
    }
    if (s.bindNewConnection && bindOnly(s.mix))
        if (int rc = refuseOptions(parser, { QStringLiteral("connections") },
                QStringLiteral("not with --mode new-connection: each bind opens a connection of its own (the "
                               "concurrency is --threads)")))
            return rc;
    if (parser.isSet(QStringLiteral("access")))
        s.access = parser.value(QStringLiteral("access"));
    s.readServerCounters = !parser.isSet(QStringLiteral("no-server-counters"));
    if (int rc = intOptions(parser, s))
        return rc;
    if (int rc = numberOption(parser, "rate", 0, 1e7, &s.rate))
        return rc;
    if (int rc = okCodesFromParser(parser, &s.okCodes))
        return rc;
    s.coalesceReads = parser.isSet(QStringLiteral("coalesce-reads"));
    if (s.coalesceReads && s.rate > 0)
        return badArgument(QStringLiteral("--coalesce-reads"),
            QStringLiteral("applies to a closed-loop load only: not with --rate (holding responses back would "
                           "delay an open-loop schedule)"));
    return ExitOk;
}

int ldapTimingFromParser(const QCommandLineParser& parser, LdapLoadSpec* spec)
{
    LdapLoadSpec& s = *spec;
    s.ramp = parser.value(QStringLiteral("ramp"));
    if (parser.isSet(QStringLiteral("ramp"))) {
        ProbeError e;
        const auto ramp = LoadRamp::parse(s.ramp, &e);
        if (!ramp || ramp->what == LoadRamp::What::None)
            return badArgument(QStringLiteral("--ramp"), ramp ? QStringLiteral("empty") : e.cliDetail());
        if (int rc = refuseOptions(parser, { QStringLiteral("duration") },
                QStringLiteral("not with --ramp: the ramp sets the duration (steps × seconds per step)")))
            return rc;
        const bool rate = ramp->what == LoadRamp::What::Rate;
        if (rate)
            if (int rc = refuseOptions(parser, { QStringLiteral("rate"), QStringLiteral("coalesce-reads") },
                    QStringLiteral("not with a rate ramp (--ramp rate:...): the ramp sets the rate, and reads are "
                                   "batched in a closed loop only")))
                return rc;
        if (!rate && bindOnly(s.mix))
            return badArgument(QStringLiteral("--ramp"),
                QStringLiteral("an outstanding ramp does not apply to a bind load: a bind is alone on its connection"));
        if (!rate)
            if (int rc = refuseOptions(parser, { QStringLiteral("outstanding") },
                    QStringLiteral("not with --ramp outstanding:...: the ramp sets it for each step")))
                return rc;
    }
    if (int rc = numberOption(parser, "warmup", 0, 86400, &s.warmupSec))
        return rc;
    if (int rc = numberOption(parser, "duration", 0.1, 7 * 86400, &s.durationSec))
        return rc;
    if (int rc = numberOption(parser, "interval", 0.1, 3600, &s.intervalSec))
        return rc;
    if (int rc = numberOption(parser, "fail-after", 0.5, 86400, &s.failAfterSec))
        return rc;
    double v = 0;
    if (int rc = numberOption(parser, "max-errors", 0, 1e15, &v))
        return rc;
    if (v != std::floor(v))
        return badArgument(QStringLiteral("--max-errors"), QStringLiteral("must be a whole number"));
    s.maxErrors = qint64(v);
    return ExitOk;
}

} // namespace Cli
