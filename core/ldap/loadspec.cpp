#include "core/ldap/loadspec.h"

#include "core/ldap/accessdistribution.h"
#include "core/ldap/filtertemplate.h"
#include "core/ldap/ldapsession.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace {

ProbeError bad(const char* field, const QString& why)
{
    return ProbeError::invalid(QLatin1String(field), why);
}

} // namespace

std::optional<LoadRamp> LoadRamp::parse(const QString& text, ProbeError* error)
{
    LoadRamp r;
    const QString t = text.trimmed();
    if (t.isEmpty())
        return r;
    auto fail = [&](const QString& why) -> std::optional<LoadRamp> {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("ramp"),
                why + QStringLiteral(" (expected e.g. rate:1000,2000,4000@10 or outstanding:1,2,4,8@5)"));
        return std::nullopt;
    };
    const int colon = int(t.indexOf(u':'));
    const int at = int(t.lastIndexOf(u'@'));
    if (colon <= 0 || at < colon)
        return fail(QStringLiteral("'") + t + QStringLiteral("' is not a ramp"));
    const QString what = t.left(colon);
    if (what == u"rate")
        r.what = What::Rate;
    else if (what == u"outstanding")
        r.what = What::Outstanding;
    else
        return fail(QStringLiteral("unknown ramp '") + what + u'\'');
    bool ok = false;
    r.stepSeconds = t.mid(at + 1).toDouble(&ok);
    if (!ok || r.stepSeconds <= 0 || r.stepSeconds > 86400)
        return fail(
            QStringLiteral("step length '") + t.mid(at + 1) + QStringLiteral("' is not a number of seconds > 0"));
    for (const QString& v : t.mid(colon + 1, at - colon - 1).split(u',')) {
        const double x = v.trimmed().toDouble(&ok);
        if (!ok || x <= 0)
            return fail(QStringLiteral("step value '") + v.trimmed() + QStringLiteral("' is not a number > 0"));
        if (r.what == What::Outstanding && (x != std::floor(x) || x > 1024))
            return fail(QStringLiteral("outstanding must be a whole number up to 1024, not ") + v.trimmed());
        r.values << x;
    }
    if (r.values.size() > 1000)
        return fail(QStringLiteral("at most 1000 steps"));
    return r;
}

QJsonObject LoadRamp::toJson() const
{
    if (what == What::None)
        return {};
    QJsonArray v;
    for (double x : values)
        v.append(x);
    return QJsonObject { { QStringLiteral("what"),
                             what == What::Rate ? QStringLiteral("rate") : QStringLiteral("outstanding") },
        { QStringLiteral("values"), v }, { QStringLiteral("step_s"), stepSeconds } };
}

QString LdapLoadSpec::opName(LdapOpKind op)
{
    switch (op) {
    case LdapOpKind::Search:
        return QStringLiteral("search");
    case LdapOpKind::Bind:
        return QStringLiteral("bind");
    case LdapOpKind::Modify:
        return QStringLiteral("modify");
    case LdapOpKind::AddDelete:
        return QStringLiteral("adddel");
    case LdapOpKind::Compare:
        return QStringLiteral("compare");
    }
    return {};
}

QString LdapLoadSpec::kindName() const
{
    if (mix.size() == 1)
        return QStringLiteral("ldap-") + opName(mix.first().first);
    return QStringLiteral("ldap-mixed");
}

std::optional<QList<QPair<LdapOpKind, int>>> LdapLoadSpec::parseMix(const QString& text, ProbeError* error)
{
    QList<QPair<LdapOpKind, int>> out;
    auto fail = [error](const QString& why) -> std::optional<QList<QPair<LdapOpKind, int>>> {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("mix"), why);
        return std::nullopt;
    };
    for (const QString& part : text.split(u',', Qt::SkipEmptyParts)) {
        const QString name = part.section(u'=', 0, 0).trimmed();
        const QString weight = part.section(u'=', 1).trimmed();
        const bool digits = !weight.isEmpty() // no sign, no spaces inside, no "0x", no decimals
            && std::all_of(weight.begin(), weight.end(), [](QChar c) { return c >= u'0' && c <= u'9'; });
        bool ok = false;
        const qint64 w = digits ? weight.toLongLong(&ok) : 0;
        std::optional<LdapOpKind> op;
        for (auto k :
            { LdapOpKind::Search, LdapOpKind::Bind, LdapOpKind::Modify, LdapOpKind::AddDelete, LdapOpKind::Compare })
            if (opName(k) == name)
                op = k;
        if (!op || !ok || w <= 0 || w > kMaxMixWeight || !part.contains(u'='))
            return fail(QStringLiteral("'") + part.trimmed()
                + QStringLiteral("' is not OP=WEIGHT (OP: search, bind, modify, adddel, compare; WEIGHT a whole "
                                 "number from 1 to 1000000)"));
        for (const auto& p : std::as_const(out))
            if (p.first == *op)
                return fail(name + QStringLiteral(" is given twice"));
        out.append({ *op, int(w) });
    }
    if (out.isEmpty()) {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("mix"), QStringLiteral("empty; e.g. search=90,modify=10"));
        return std::nullopt;
    }
    return out;
}

QJsonObject LdapLoadSpec::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("target"), target.toJson());
    QJsonObject m;
    for (const auto& p : mix)
        m.insert(opName(p.first), p.second);
    o.insert(QStringLiteral("mix"), m);
    if (mix.size() > 1 || mix.first().first == LdapOpKind::Search) {
        o.insert(QStringLiteral("base"), base);
        o.insert(QStringLiteral("scope"),
            scope == LdapSession::Base           ? QStringLiteral("base")
                : scope == LdapSession::OneLevel ? QStringLiteral("one")
                                                 : QStringLiteral("sub"));
        o.insert(QStringLiteral("filter"), filter);
        o.insert(QStringLiteral("attrs"), QJsonArray::fromStringList(attrs));
        o.insert(QStringLiteral("size_limit"), sizeLimit);
    }
    if (!dnPattern.isEmpty())
        o.insert(QStringLiteral("dn"), dnPattern);
    if (!attr.isEmpty())
        o.insert(QStringLiteral("attr"), attr);
    if (!valuePattern.isEmpty())
        o.insert(QStringLiteral("value"), valuePattern);
    if (!parentDn.isEmpty())
        o.insert(QStringLiteral("parent"), parentDn);
    for (const auto& p : mix)
        if (p.first == LdapOpKind::Bind)
            o.insert(QStringLiteral("bind_mode"),
                bindNewConnection ? QStringLiteral("new-connection") : QStringLiteral("rebind"));
    o.insert(QStringLiteral("access"), access);
    o.insert(QStringLiteral("threads"), threads);
    // connect + bind + unbind per operation: one operation per thread at a time, on a connection of its own
    const bool perOpConnection = bindNewConnection && mix.size() == 1 && mix.first().first == LdapOpKind::Bind;
    o.insert(QStringLiteral("connections"), perOpConnection ? QJsonValue(QJsonValue::Null) : QJsonValue(connections));
    o.insert(QStringLiteral("outstanding"), perOpConnection ? QJsonValue(QJsonValue::Null) : QJsonValue(outstanding));
    o.insert(QStringLiteral("rate"), rate > 0 ? QJsonValue(rate) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("ramp"), ramp.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(ramp));
    o.insert(QStringLiteral("warmup_s"), warmupSec);
    o.insert(QStringLiteral("duration_s"), durationSec);
    o.insert(QStringLiteral("interval_s"), intervalSec);
    o.insert(QStringLiteral("fail_after_s"), failAfterSec);
    o.insert(
        QStringLiteral("max_errors"), maxErrors > 0 ? QJsonValue(double(maxErrors)) : QJsonValue(QJsonValue::Null));
    if (!okCodes.isEmpty()) {
        QJsonArray codes;
        for (int c : okCodes)
            codes.append(c);
        o.insert(QStringLiteral("ok_codes"), codes);
    } else {
        o.insert(QStringLiteral("ok_codes"), QJsonValue::Null);
    }
    o.insert(QStringLiteral("coalesce_reads"), coalesceReads);
    if (intervalHistograms)
        o.insert(QStringLiteral("interval_histograms"), true);
    if (startAtEpochNs > 0)
        o.insert(QStringLiteral("start_at_epoch_ns"), double(startAtEpochNs));
    return o;
}

std::optional<CompiledLoad> CompiledLoad::compile(const LdapLoadSpec& s, ProbeError* error)
{
    auto fail = [&](const ProbeError& e) -> std::optional<CompiledLoad> {
        if (error)
            *error = e;
        return std::nullopt;
    };
    CompiledLoad c;
    c.spec = s;
    if (const ProbeError e = s.target.validate(); e.isError())
        return fail(e);
    if (s.mix.isEmpty())
        return fail(bad("mix", QStringLiteral("no operation")));
    if (s.threads < 1 || s.threads > 256)
        return fail(bad("threads", QStringLiteral("must be between 1 and 256")));
    if (s.connections < 1 || s.connections > 1024)
        return fail(bad("connections", QStringLiteral("must be between 1 and 1024")));
    if (s.outstanding < 1 || s.outstanding > 1024)
        return fail(bad("outstanding", QStringLiteral("must be between 1 and 1024")));
    if (s.rate < 0 || s.rate > 10000000)
        return fail(bad("rate", QStringLiteral("must be between 0 (unlimited) and 10,000,000 ops/s")));
    if (s.ramp.trimmed().isEmpty() && (s.durationSec <= 0 || s.durationSec > 7 * 86400))
        return fail(bad("duration", QStringLiteral("must be more than 0 and at most a week")));
    if (s.warmupSec < 0 || s.warmupSec > 86400)
        return fail(bad("warmup", QStringLiteral("must be between 0 and 86400 seconds")));
    if (s.intervalSec < 0.1 || s.intervalSec > 3600)
        return fail(bad("interval", QStringLiteral("must be between 0.1 and 3600 seconds")));
    if (s.failAfterSec < 0.5 || s.failAfterSec > 86400)
        return fail(bad("fail-after", QStringLiteral("must be between 0.5 and 86400 seconds")));
    if (s.maxErrors < 0)
        return fail(bad("max-errors", QStringLiteral("must be 0 (no limit) or more")));
    if (s.sizeLimit < 0)
        return fail(bad("size-limit", QStringLiteral("must be 0 (none) or more")));

    ProbeError e;
    const auto access = AccessDistribution::parse(s.access, &e);
    if (!access)
        return fail(e);
    const auto ramp = LoadRamp::parse(s.ramp, &e);
    if (!ramp)
        return fail(e);
    c.ramp = *ramp;
    if (c.ramp.what == LoadRamp::What::Rate && s.rate > 0)
        return fail(bad("ramp", QStringLiteral("a rate ramp sets the rate: leave --rate out")));
    for (int code : s.okCodes)
        if (code < 0 || code > LdapLoadSpec::kMaxResultCode)
            return fail(bad("ok-codes",
                QStringLiteral("%1 is not an LDAP result code (0 to %2)").arg(code).arg(LdapLoadSpec::kMaxResultCode)));
    if (s.coalesceReads) {
        if (s.rate > 0 || c.ramp.what == LoadRamp::What::Rate)
            return fail(bad("coalesce-reads",
                QStringLiteral("applies to a closed-loop load only: not with a rate (--rate or a rate ramp)")));
        if (std::all_of(s.mix.begin(), s.mix.end(), [](const auto& p) { return p.first == LdapOpKind::Bind; }))
            return fail(bad("coalesce-reads",
                QStringLiteral("a bind load has one operation in flight per connection: there is nothing to batch")));
    }

    for (const auto& p : s.mix) {
        const QString op = LdapLoadSpec::opName(p.first);
        switch (p.first) {
        case LdapOpKind::Search:
            if (s.base.trimmed().isEmpty())
                return fail(bad("base", QStringLiteral("a search needs a base DN")));
            break;
        case LdapOpKind::Bind:
            if (s.dnPattern.isEmpty())
                return fail(bad("dn", QStringLiteral("bind needs --dn, the entries to bind as (a pattern)")));
            if (s.target.password.isEmpty())
                return fail(bad("password-file", QStringLiteral("bind needs the password the entries share")));
            break;
        case LdapOpKind::Modify:
        case LdapOpKind::Compare:
            if (s.dnPattern.isEmpty())
                return fail(bad("dn", op + QStringLiteral(" needs --dn, the entries to work on (a pattern)")));
            if (s.attr.trimmed().isEmpty())
                return fail(bad("attr", op + QStringLiteral(" needs --attr")));
            if (s.valuePattern.isEmpty())
                return fail(bad("value", op + QStringLiteral(" needs --value (a pattern)")));
            break;
        case LdapOpKind::AddDelete:
            if (s.parentDn.trimmed().isEmpty())
                return fail(
                    bad("parent", QStringLiteral("adddel needs --parent, the DN under which it adds and deletes")));
            if (!LdapSession::isDn(s.parentDn.trimmed()))
                return fail(bad("parent", u'\'' + s.parentDn + QStringLiteral("' is not a DN")));
            break;
        }
    }
    if (s.bindNewConnection && !(s.mix.size() == 1 && s.mix.first().first == LdapOpKind::Bind))
        return fail(bad("mode", QStringLiteral("new-connection applies to a bind load alone, not to a mix")));
    if (c.has(LdapOpKind::Search)) {
        if (s.filter.trimmed().isEmpty())
            return fail(bad("filter",
                QStringLiteral("required for a search load, e.g. (uid=user[0-99999]): without one every search "
                               "would return the whole subtree")));
        auto f = FilterTemplate::parse(s.filter, &e);
        if (!f)
            return fail(e);
        c.filter = std::move(*f);
        c.filter.setDistribution(*access);
        if (s.base.contains(u'['))
            return fail(bad("base", QStringLiteral("the base DN is fixed; put patterns in --filter")));
        if (!LdapSession::isDn(s.base))
            return fail(bad("base", u'\'' + s.base + QStringLiteral("' is not a DN")));
        c.base = s.base.toUtf8();
        for (const QString& a : s.attrs)
            c.attrs << a.trimmed().toUtf8();
    }
    if (!s.dnPattern.isEmpty()) {
        auto d = ValuePattern::parse(s.dnPattern, QStringLiteral("dn"), &e);
        if (!d)
            return fail(e);
        c.dn = std::move(*d);
        c.dn.setDistribution(*access);
        const std::vector<uint64_t> first(size_t(c.dn.rangeCount()), 0);
        if (const QByteArray one = c.dn.renderKeys(first); !LdapSession::isDn(QString::fromUtf8(one)))
            return fail(bad("dn",
                QStringLiteral("renders as '") + QString::fromUtf8(one) + QStringLiteral("', which is not a DN")));
    }
    if (!s.valuePattern.isEmpty()) {
        auto v = ValuePattern::parse(s.valuePattern, QStringLiteral("value"), &e);
        if (!v)
            return fail(e);
        c.value = std::move(*v);
        c.value.setDistribution(*access);
    }
    // An attribute description: a name or an OID, then ;options (RFC 4512).
    static const QRegularExpression attrSyntax(
        QStringLiteral("^([A-Za-z][A-Za-z0-9-]*|[0-9]+(\\.[0-9]+)+)(;[A-Za-z0-9-]+)*$"));
    if (!s.attr.trimmed().isEmpty() && !attrSyntax.match(s.attr.trimmed()).hasMatch())
        return fail(bad("attr", u'\'' + s.attr + QStringLiteral("' is not an attribute name")));
    c.attr = s.attr.trimmed().toUtf8();
    c.parent = s.parentDn.trimmed().toUtf8();
    return c;
}

bool CompiledLoad::has(LdapOpKind op) const
{
    for (const auto& p : spec.mix)
        if (p.first == op)
            return true;
    return false;
}

double CompiledLoad::totalSeconds() const
{
    if (ramp.what != LoadRamp::What::None)
        return ramp.stepSeconds * double(ramp.values.size());
    return spec.durationSec;
}
