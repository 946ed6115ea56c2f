#include "core/ldap/lockoutcheck.h"

#include "core/common/runrecord.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/serveridentity.h"
#include "core/ldap/valuepattern.h"

#include <optional>
#include <vector>

namespace Ldap {

namespace {

constexpr int kTimeoutMs = 2000;
constexpr int kMaxPolicies = 50;
const QByteArray kPpolicyControl = QByteArrayLiteral("1.3.6.1.4.1.42.2.27.8.5.1");
const QString kLockout = QStringLiteral("lockout");
const QStringList kPolicyAttrs
    = { QStringLiteral("pwdLockout"), QStringLiteral("pwdMaxFailure"), QStringLiteral("pwdLockoutDuration") };
const QStringList kAttrs389 = { QStringLiteral("passwordLockout"), QStringLiteral("passwordMaxFailure"),
    QStringLiteral("passwordLockoutDuration"), QStringLiteral("passwordUnlock") };

using Entry = LdapSession::Entry;

std::optional<QList<Entry>> find(LdapSession& s, const QString& base, LdapSession::Scope scope, const QString& filter,
    const QStringList& attrs, int sizeLimit = 0)
{
    QList<Entry> out;
    if (s.search(base, scope, filter, attrs, &out, sizeLimit, kTimeoutMs).isError())
        return std::nullopt;
    return out;
}

// One entry read; nullopt when it does not exist or this bind may not read it.
std::optional<Entry> readEntry(LdapSession& s, const QString& dn, const QStringList& attrs)
{
    const auto out = find(s, dn, LdapSession::Base, QStringLiteral("(objectClass=*)"), attrs);
    if (!out || out->isEmpty())
        return std::nullopt;
    return out->first();
}

QString text(const Entry& e, const QString& attr)
{
    return QString::fromUtf8(e.first(attr)).trimmed();
}

// The first DN the load binds as: every range at its first key.
QString sampleDn(const ValuePattern& dns)
{
    if (dns.text().isEmpty())
        return {};
    const std::vector<uint64_t> keys(size_t(dns.rangeCount()), 0);
    return QString::fromUtf8(dns.renderKeys(keys));
}

// Lower case, no spaces around ',' '=' '+': enough to compare a DN with a suffix as people write them.
QString roughDn(const QString& dn)
{
    QString out;
    const QString lower = dn.toLower();
    for (const QChar c : lower) {
        if (c == u' ' && (out.endsWith(u',') || out.endsWith(u'=') || out.endsWith(u'+')))
            continue;
        if ((c == u',' || c == u'=' || c == u'+') && out.endsWith(u' '))
            out.chop(1);
        out += c;
    }
    return out.trimmed();
}

bool isUnder(const QString& dn, const QString& suffix)
{
    const QString d = roughDn(dn), s = roughDn(suffix);
    return s.isEmpty() || d == s || d.endsWith(u',' + s);
}

// "locks an account after 3 failed binds for 300 s: ..." (duration 0: until an administrator unlocks it).
QString locksMessage(const QString& what, qint64 maxFailure, qint64 durationSec)
{
    const QString how = durationSec > 0 ? QStringLiteral("for %1 s").arg(durationSec)
                                        : QStringLiteral("until an administrator unlocks it");
    return what
        + QStringLiteral(" locks an account after %1 failed binds %2: a wrong password in this run can lock the "
                         "entries it binds as")
              .arg(maxFailure)
              .arg(how);
}

// ---- OpenLDAP's ppolicy (and any server with the draft's pwdPolicy entries) ----

struct Candidate
{
    QString dn;
    QString source; // "pwdPolicySubentry of uid=user0,...", "olcPPolicyDefault of olcOverlay={0}ppolicy,..."
};

// Adds the warning for a policy entry that was read; true if it locks accounts.
bool warnIfLocks(const Entry& policy, const QString& source, RunRecord& rec)
{
    const bool lockout = text(policy, QStringLiteral("pwdlockout")).compare(u"TRUE", Qt::CaseInsensitive) == 0;
    const qint64 maxFailure = text(policy, QStringLiteral("pwdmaxfailure")).toLongLong();
    if (!lockout || maxFailure <= 0) // pwdMaxFailure absent or 0: no lockout (slapo-ppolicy(5))
        return false;
    const QString what = QStringLiteral("a password policy (") + policy.dn
        + (source.isEmpty() ? QString() : QStringLiteral(", ") + source) + u')';
    rec.addWarning(
        kLockout, locksMessage(what, maxFailure, text(policy, QStringLiteral("pwdlockoutduration")).toLongLong()));
    return true;
}

void warnUnreadable(const QString& what, RunRecord& rec)
{
    rec.addWarning(kLockout,
        QStringLiteral("the server has the password policy overlay (ppolicy) loaded, but ") + what
            + QStringLiteral(" could not be read with this bind: failed binds in this run may lock the entries it "
                             "binds as"));
}

// The ppolicy overlays in cn=config that apply to `sample` (all of them when sample is empty); nullopt when
// cn=config is not readable. A candidate with an empty dn: an overlay without a default policy.
std::optional<QList<Candidate>> overlayDefaults(LdapSession& s, const QString& sample)
{
    const auto overlays = find(s, QStringLiteral("cn=config"), LdapSession::Subtree,
        QStringLiteral("(objectClass=olcPPolicyConfig)"), { QStringLiteral("olcPPolicyDefault") });
    if (!overlays)
        return std::nullopt;
    QList<Candidate> out;
    for (const Entry& o : *overlays) {
        const QString database = o.dn.mid(o.dn.indexOf(u',') + 1); // olcDatabase={1}mdb,cn=config
        const auto db = readEntry(s, database, { QStringLiteral("olcSuffix") });
        bool applies = sample.isEmpty() || !db || db->attributes.value(QStringLiteral("olcsuffix")).isEmpty();
        if (db)
            for (const QByteArray& suffix : db->attributes.value(QStringLiteral("olcsuffix")))
                applies = applies || isUnder(sample, QString::fromUtf8(suffix));
        if (applies)
            out << Candidate { text(o, QStringLiteral("olcppolicydefault")),
                QStringLiteral("olcPPolicyDefault of ") + o.dn };
    }
    return out;
}

// cn=config and the entry's own policy unreadable: any pwdPolicy entry that locks, under the naming contexts.
void searchPolicies(LdapSession& s, const QList<QByteArray>& contexts, RunRecord& rec)
{
    int seen = 0;
    for (const QByteArray& nc : contexts) {
        const auto found = find(s, QString::fromUtf8(nc), LdapSession::Subtree,
            QStringLiteral("(objectClass=pwdPolicy)"), kPolicyAttrs, kMaxPolicies);
        for (const Entry& p : found.value_or(QList<Entry>())) {
            ++seen;
            if (warnIfLocks(p, QStringLiteral("found by a search: which entries it applies to is unknown"), rec))
                return;
        }
    }
    if (seen == 0)
        warnUnreadable(QStringLiteral("no password policy entry"), rec);
}

void checkPpolicy(LdapSession& s, const QString& sample, RunRecord& rec)
{
    const auto dse = readEntry(s, QString(), { QStringLiteral("supportedControl"), QStringLiteral("namingContexts") });
    if (!dse || !dse->attributes.value(QStringLiteral("supportedcontrol")).contains(kPpolicyControl))
        return; // slapd lists the control whenever the ppolicy module is loaded: without it no policy applies
    QList<Candidate> candidates; // in the order they apply: the entry's own policy, then the overlay's default
    if (!sample.isEmpty())
        if (const auto e = readEntry(s, sample, { QStringLiteral("pwdPolicySubentry") }))
            if (const QString own = text(*e, QStringLiteral("pwdpolicysubentry")); !own.isEmpty())
                candidates << Candidate { own, QStringLiteral("pwdPolicySubentry of ") + sample };
    const auto overlays = overlayDefaults(s, sample);
    if (overlays && overlays->isEmpty())
        return; // cn=config says: no ppolicy overlay on the database of these entries
    if (overlays)
        for (const Candidate& c : *overlays)
            if (!c.dn.isEmpty())
                candidates << c;
    if (candidates.isEmpty()) {
        if (!overlays)
            searchPolicies(s, dse->attributes.value(QStringLiteral("namingcontexts")), rec);
        return; // else: an overlay without a default, and the entry has no policy of its own
    }
    const Candidate& c = candidates.first();
    if (const auto policy = readEntry(s, c.dn, kPolicyAttrs))
        warnIfLocks(*policy, c.source, rec);
    else
        warnUnreadable(QStringLiteral("the policy ") + c.dn + QStringLiteral(" (") + c.source + u')', rec);
}

// ---- 389-ds ----

struct Lockout389
{
    bool on = false; // 389-ds's defaults
    qint64 maxFailure = 3;
    qint64 durationSec = 3600;
    bool unlock = true; // off: locked until an administrator resets the password
};

void apply389(const Entry& e, Lockout389* l)
{
    auto has = [&e](const char* a) { return e.attributes.contains(QLatin1String(a)); };
    if (has("passwordlockout"))
        l->on = text(e, QStringLiteral("passwordlockout")).toLower() == u"on";
    if (has("passwordmaxfailure"))
        l->maxFailure = text(e, QStringLiteral("passwordmaxfailure")).toLongLong();
    if (has("passwordlockoutduration"))
        l->durationSec = text(e, QStringLiteral("passwordlockoutduration")).toLongLong();
    if (has("passwordunlock"))
        l->unlock = text(e, QStringLiteral("passwordunlock")).toLower() != u"off";
}

// The sample's fine-grained policy entry, read; nullopt without one (or when it cannot be read).
std::optional<Entry> finePolicy389(LdapSession& s, const QString& sample)
{
    if (sample.isEmpty())
        return std::nullopt;
    const auto e = readEntry(s, sample, { QStringLiteral("pwdpolicysubentry") });
    const QString dn = e ? text(*e, QStringLiteral("pwdpolicysubentry")) : QString();
    return dn.isEmpty() ? std::nullopt : readEntry(s, dn, kAttrs389);
}

void check389(LdapSession& s, const QString& sample, RunRecord& rec)
{
    const auto cfg = readEntry(s, QStringLiteral("cn=config"),
        kAttrs389
            + QStringList { QStringLiteral("nsslapd-enable-upgrade-hash"), QStringLiteral("nsslapd-pwpolicy-local") });
    Lockout389 l;
    QString where = QStringLiteral("passwordLockout: on in cn=config");
    if (cfg)
        apply389(*cfg, &l);
    const bool local = !cfg || text(*cfg, QStringLiteral("nsslapd-pwpolicy-local")).toLower() == u"on";
    const auto fine = local ? finePolicy389(s, sample) : std::nullopt;
    if (fine) {
        apply389(*fine, &l); // a fine-grained policy starts from the global one
        where = QStringLiteral("the fine-grained policy ") + fine->dn + QStringLiteral(" of ") + sample;
    }
    if ((cfg || fine) && l.on && l.maxFailure > 0)
        rec.addWarning(kLockout,
            locksMessage(QStringLiteral("the server's password policy (") + where + u')', l.maxFailure,
                l.unlock ? l.durationSec : 0));
    if (!cfg) {
        rec.addWarning(QStringLiteral("upgrade-hash"),
            QStringLiteral("389-ds may rewrite stored password hashes on bind (nsslapd-enable-upgrade-hash) and may "
                           "lock accounts out; cn=config was not readable to check"));
    } else if (text(*cfg, QStringLiteral("nsslapd-enable-upgrade-hash")).toLower() != u"off") {
        rec.addWarning(QStringLiteral("upgrade-hash"),
            QStringLiteral("389-ds rewrites a stored password hash on bind when its scheme is outdated "
                           "(nsslapd-enable-upgrade-hash): this bind load may modify the entries it binds as"));
    }
}

} // namespace

void addBindSafetyWarnings(LdapSession& s, const ServerIdentity& id, const ValuePattern& bindDns, RunRecord& rec)
{
    const QString sample = sampleDn(bindDns);
    if (id.kind == u"389ds")
        check389(s, sample, rec);
    else
        checkPpolicy(s, sample, rec);
}

} // namespace Ldap
