#include "core/experiments/replicationvendorread.h"

#include "core/experiments/replicationcsn.h"
#include "core/experiments/replicationmarker.h"
#include "core/experiments/replicationwatch.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/serveridentity.h"

#include <algorithm>

namespace ReplicationVendor {

namespace {

const QString kMappingTree = QStringLiteral("cn=mapping tree,cn=config");
const QString kRuvFilter
    = QStringLiteral("(&(nsuniqueid=ffffffff-ffffffff-ffffffff-ffffffff)(objectClass=nstombstone))");

QString filterValue(const QString& v)
{
    QString out;
    for (const QChar c : v) {
        if (c == u'*' || c == u'(' || c == u')' || c == u'\\' || c == u'\0')
            out += QStringLiteral("\\%1").arg(int(c.unicode()), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

QString text(const LdapSession::Entry& e, const char* attr)
{
    return QString::fromUtf8(e.first(QLatin1String(attr)));
}

// Good enough for the names servers write: case and spaces after commas do not count.
QString plainDn(const QString& dn)
{
    return dn.toLower().remove(u' ');
}

bool holds(const QString& dn, const QString& suffix)
{
    const QString d = plainDn(dn);
    const QString s = plainDn(suffix);
    return !s.isEmpty() && (d == s || d.endsWith(u',' + s));
}

// OpenLDAP: contextCSN of the suffix, one value per SID.
ProbeError readContextCsn(LdapSession& s, const QString& suffix, ServerState* out)
{
    QList<LdapSession::Entry> found;
    if (ProbeError e = s.search(suffix, LdapSession::Base, QStringLiteral("(objectClass=*)"),
            { QStringLiteral("contextCSN") }, &found, 0, kReadTimeoutMs);
        e.isError())
        return e;
    out->csnReadNs = ReplicationWatch::nowNs();
    for (const QByteArray& v : found.value(0).attributes.value(QStringLiteral("contextcsn"))) {
        const QString csn = QString::fromUtf8(v);
        const QString sid = ReplicationCsn::openLdapSid(csn);
        if (!sid.isEmpty())
            out->csn.insert(sid, csn);
    }
    return {};
}

// OpenLDAP 2.5+: the syncrepl consumer entries of the suffix's database in cn=Monitor.
void readSyncreplMonitor(LdapSession& s, const QString& suffix, ServerState* out)
{
    static const QList<QPair<const char*, const char*>> fields { { "olmSRProviderURIList", "provider_uris" },
        { "olmSRConnection", "connection" }, { "olmSRSyncPhase", "phase" }, { "olmSRNextConnect", "next_connect" },
        { "olmSRLastConnect", "last_connect" }, { "olmSRLastContact", "last_contact" },
        { "olmSRLastCookieRcvd", "last_cookie_received" }, { "olmSRLastCookieSent", "last_cookie_sent" } };
    QStringList attrs;
    for (const auto& f : fields)
        attrs << QLatin1String(f.first);
    QList<LdapSession::Entry> dbs, consumers;
    ProbeError e = s.search(QStringLiteral("cn=Databases,cn=Monitor"), LdapSession::OneLevel,
        QStringLiteral("(namingContexts=%1)").arg(filterValue(suffix)), { QStringLiteral("1.1") }, &dbs, 0,
        kReadTimeoutMs);
    if (!e.isError() && !dbs.isEmpty())
        e = s.search(dbs.constFirst().dn, LdapSession::OneLevel, QStringLiteral("(objectClass=olmSyncReplInstance)"),
            attrs, &consumers, 0, kReadTimeoutMs);
    if (e.isError() || dbs.isEmpty()) {
        out->monitorError = e.isError() ? e.message() : QStringLiteral("no database of %1 in cn=Monitor").arg(suffix);
        return;
    }
    QJsonObject m;
    for (const LdapSession::Entry& c : consumers) {
        QJsonObject o;
        for (const auto& f : fields)
            o.insert(QLatin1String(f.second), text(c, f.first).isEmpty() ? QJsonValue() : text(c, f.first));
        m.insert(c.dn.section(u',', 0, 0), o);
    }
    out->monitor = m;
}

void takeRuv(const QList<QByteArray>& values, ServerState* out)
{
    for (const ReplicationCsn::RuvElement& r : ReplicationCsn::parseRuv(values)) {
        out->ruv.append(QJsonObject { { QStringLiteral("rid"), r.rid }, { QStringLiteral("url"), r.url },
            { QStringLiteral("min_csn"), r.minCsn.isEmpty() ? QJsonValue() : r.minCsn },
            { QStringLiteral("max_csn"), r.maxCsn.isEmpty() ? QJsonValue() : r.maxCsn } });
        if (!r.maxCsn.isEmpty())
            out->csn.insert(r.rid, r.maxCsn);
    }
}

// 389-ds: the RUV and the agreements' max CSNs, from memory through cn=replica (asked for by name, the server adds
// them: repl5_replica_config.c), else from the RUV tombstone (written about every 30 s).
ProbeError readRuv(LdapSession& s, const QString& suffix, ServerState* out, QList<ReplicationCsn::AgmtMaxCsn>* agmt)
{
    const QStringList attrs { QStringLiteral("nsds50ruv"), QStringLiteral("nsds5AgmtMaxCSN") };
    QList<LdapSession::Entry> replica, tomb;
    if (ProbeError e = s.search(kMappingTree, LdapSession::Subtree,
            QStringLiteral("(&(objectClass=nsds5Replica)(nsDS5ReplicaRoot=%1))").arg(filterValue(suffix)),
            attrs + QStringList { QStringLiteral("nsDS5ReplicaId") }, &replica, 0, kReadTimeoutMs);
        e.nativeCode < 0)
        return e; // the connection, not the rights (those leave the tombstone to try)
    out->csnReadNs = ReplicationWatch::nowNs();
    out->ownId = text(replica.value(0), "nsds5replicaid");
    LdapSession::Entry ruv = replica.value(0);
    if (ruv.attributes.value(QStringLiteral("nsds50ruv")).isEmpty()) {
        if (ProbeError e = s.search(suffix, LdapSession::Subtree, kRuvFilter, attrs, &tomb, 0, kReadTimeoutMs);
            e.isError())
            return e;
        out->csnReadNs = ReplicationWatch::nowNs();
        ruv = tomb.value(0);
    }
    takeRuv(ruv.attributes.value(QStringLiteral("nsds50ruv")), out);
    *agmt = ReplicationCsn::parseAgmtMaxCsn(ruv.attributes.value(QStringLiteral("nsds5agmtmaxcsn")));
    return {};
}

void readConflicts(LdapSession& s, const QString& suffix, ServerState* out)
{
    QList<LdapSession::Entry> found;
    // Conflict entries are ldapSubEntry since 1.4: a filter that names the class finds them.
    if (!s.search(suffix, LdapSession::Subtree,
              QStringLiteral("(&(nsds5ReplConflict=*)(|(objectClass=ldapSubEntry)(objectClass=*)))"),
              { QStringLiteral("1.1") }, &found, 0, kReadTimeoutMs)
             .isError())
        out->conflicts = found.size();
}

// The consumer's copy of the marker entry: its highest marker number, 0 while it is not there; unread on an error.
// Returns the error when it is the connection's (a frozen server), not the server's answer.
ProbeError readMarker(LdapSession& s, const QString& dn, qint64* out)
{
    constexpr int kNoSuchObject = 32;
    QList<LdapSession::Entry> found;
    ProbeError e = s.search(dn, LdapSession::Base, QStringLiteral("(objectClass=*)"), { QStringLiteral("description") },
        &found, 0, kReadTimeoutMs);
    if (!e.isError())
        *out = found.isEmpty()
            ? 0
            : ReplicationMarker::highest(found.constFirst().attributes.value(QStringLiteral("description")));
    else if (e.nativeCode == kNoSuchObject)
        *out = 0;
    return e.nativeCode < 0 ? e : ProbeError {};
}

Agreement agreementFrom(const LdapSession::Entry& e)
{
    Agreement a;
    a.dn = e.dn;
    a.host = text(e, "nsds5replicahost");
    a.port = text(e, "nsds5replicaport").toInt();
    a.uri = ReplicationCsn::agreementUri(a.host, a.port, text(e, "nsds5replicatransportinfo"), &a.startTls);
    a.status = ReplicationCsn::parseStatusJson(e.first(QStringLiteral("nsds5replicalastupdatestatusjson")));
    a.statusText = text(e, "nsds5replicalastupdatestatus");
    const QString sent = text(e, "nsds5replicachangessentsincestartup");
    if (!sent.isEmpty())
        a.changesSent = ReplicationCsn::parseChangesSent(sent, &a.changesSentTotal);
    const QList<ReplicationCsn::AgmtMaxCsn> own
        = ReplicationCsn::parseAgmtMaxCsn(e.attributes.value(QStringLiteral("nsds5agmtmaxcsn")));
    a.maxCsn = own.isEmpty() ? QString() : own.constFirst().maxCsn;
    a.updateInProgress = text(e, "nsds5replicaupdateinprogress");
    return a;
}

QJsonValue orNull(const QString& s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

} // namespace

QJsonObject Agreement::toJson() const
{
    const QJsonValue state = status.value(QStringLiteral("state"));
    return { { QStringLiteral("dn"), dn }, { QStringLiteral("uri"), uri },
        { QStringLiteral("state"), state.isString() ? state : QJsonValue() },
        { QStringLiteral("message"),
            status.value(QStringLiteral("message")).isString() ? status.value(QStringLiteral("message"))
                                                               : orNull(statusText) },
        { QStringLiteral("status_json"), status.isEmpty() ? QJsonValue() : QJsonValue(status) },
        { QStringLiteral("last_update_status"), orNull(statusText) },
        { QStringLiteral("changes_sent_since_startup"),
            changesSentTotal >= 0 ? QJsonValue(changesSentTotal) : QJsonValue() },
        { QStringLiteral("changes_sent"), changesSent.isEmpty() ? QJsonValue() : QJsonValue(changesSent) },
        { QStringLiteral("max_csn"), orNull(maxCsn) },
        { QStringLiteral("update_in_progress"), orNull(updateInProgress) } };
}

LdapTarget shortTimeouts(LdapTarget t)
{
    t.networkTimeoutMs = std::min(t.networkTimeoutMs, kReadTimeoutMs);
    t.opTimeoutMs = std::min(t.opTimeoutMs, kReadTimeoutMs);
    return t;
}

ProbeError identify(LdapSession& s, const QString& dn, Identity* out)
{
    QList<LdapSession::Entry> dse;
    if (ProbeError e = s.search(QString(), LdapSession::Base, QStringLiteral("(objectClass=*)"),
            { QStringLiteral("*"), QStringLiteral("+") }, &dse, 0, kReadTimeoutMs);
        e.isError())
        return e;
    out->kind = ServerIdentity::fromRootDse(dse.value(0)).kind;
    out->markerDn = dn;
    out->suffix.clear();
    for (const QByteArray& v : dse.value(0).attributes.value(QStringLiteral("namingcontexts"))) {
        const QString nc = QString::fromUtf8(v);
        if (holds(dn, nc) && nc.size() > out->suffix.size())
            out->suffix = nc;
    }
    if (out->suffix.isEmpty())
        out->suffix = QString::fromUtf8(dse.value(0).first(QStringLiteral("namingcontexts")));
    return {};
}

QList<Agreement> readAgreements(LdapSession& s, const QString& suffix, ProbeError* error)
{
    QList<LdapSession::Entry> found;
    *error = s.search(kMappingTree, LdapSession::Subtree, QStringLiteral("(objectClass=nsds5ReplicationAgreement)"),
        { QStringLiteral("nsDS5ReplicaHost"), QStringLiteral("nsDS5ReplicaPort"),
            QStringLiteral("nsDS5ReplicaTransportInfo"), QStringLiteral("nsDS5ReplicaRoot"),
            QStringLiteral("nsds5replicaLastUpdateStatus"), QStringLiteral("nsds5replicaLastUpdateStatusJSON"),
            QStringLiteral("nsds5replicaChangesSentSinceStartup"), QStringLiteral("nsds5replicaUpdateInProgress"),
            QStringLiteral("nsds5AgmtMaxCSN") },
        &found, 0, kReadTimeoutMs);
    QList<Agreement> out;
    for (const LdapSession::Entry& e : found)
        if (plainDn(text(e, "nsds5replicaroot")) == plainDn(suffix))
            out.append(agreementFrom(e));
    return out;
}

ProbeError read(LdapSession& s, const Identity& id, Role role, ServerState* out)
{
    out->id = id;
    if (id.kind != u"openldap" && id.kind != u"389ds")
        return {};
    const bool consumer = role == Role::Consumer;
    if (consumer)
        if (ProbeError e = readMarker(s, id.markerDn, &out->markerHeldBefore); e.isError())
            return e;
    if (id.kind == u"openldap") {
        if (ProbeError e = readContextCsn(s, id.suffix, out); e.isError())
            return e;
        if (consumer) {
            readMarker(s, id.markerDn, &out->markerHeld);
            readSyncreplMonitor(s, id.suffix, out);
        }
        return {};
    }
    QList<ReplicationCsn::AgmtMaxCsn> maxCsns;
    if (ProbeError e = readRuv(s, id.suffix, out, &maxCsns); e.isError())
        return e;
    if (consumer) {
        readMarker(s, id.markerDn, &out->markerHeld);
        readConflicts(s, id.suffix, out);
        return {};
    }
    ProbeError e;
    out->agreements = readAgreements(s, id.suffix, &e);
    for (Agreement& a : out->agreements)
        for (const ReplicationCsn::AgmtMaxCsn& m : maxCsns)
            if (a.maxCsn.isEmpty() && m.port == a.port && m.host.compare(a.host, Qt::CaseInsensitive) == 0)
                a.maxCsn = m.maxCsn;
    return e;
}

ProbeError discover(const LdapTarget& supplier, const QString& markerDn, const QList<LdapTarget>& named,
    const LdapTarget& like, QList<LdapTarget>* found)
{
    LdapSession s;
    if (ProbeError e = s.open(shortTimeouts(supplier)); e.isError())
        return e;
    Identity id;
    if (ProbeError e = identify(s, markerDn, &id); e.isError())
        return e;
    if (id.kind != u"389ds")
        return {};
    ProbeError e;
    const QList<Agreement> agreements = readAgreements(s, id.suffix, &e);
    if (e.isError())
        return e;
    QStringList known;
    for (const LdapTarget& t : named)
        known << ReplicationCsn::normalisedUri(t.uri);
    known << ReplicationCsn::normalisedUri(supplier.uri);
    for (const Agreement& a : agreements) {
        if (known.contains(ReplicationCsn::normalisedUri(a.uri)))
            continue;
        known << ReplicationCsn::normalisedUri(a.uri);
        LdapTarget t = like;
        t.uri = a.uri;
        t.startTls = a.startTls;
        found->append(t);
    }
    return {};
}

} // namespace ReplicationVendor
