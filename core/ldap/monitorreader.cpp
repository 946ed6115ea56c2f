#include "core/ldap/monitorreader.h"

#include "core/ldap/ldapsession.h"

#include <QSet>

#include <cmath>

namespace {

bool toNumber(const QByteArray& v, double* out)
{
    bool ok = false;
    const double d = v.trimmed().toDouble(&ok);
    if (ok)
        *out = d;
    return ok;
}

const QSet<QString>& counterKeys()
{
    static const QSet<QString> keys = [] {
        QSet<QString> k;
        for (const char* op : { "bind", "unbind", "search", "compare", "modify", "modrdn", "add", "delete", "abandon",
                 "extended", "all" }) {
            k.insert(QLatin1String(op) + QStringLiteral("_initiated"));
            k.insert(QLatin1String(op) + QStringLiteral("_completed"));
        }
        for (const char* c : { "connections_total", "entries_sent", "bytes_sent", "entry_cache_hits",
                 "entry_cache_tries", "dn_cache_hits", "dn_cache_tries", "db_cache_hits", "db_cache_tries", "errors",
                 "simple_binds", "max_threads_per_conn_hits" })
            k.insert(QLatin1String(c));
        return k;
    }();
    return keys;
}

} // namespace

MonitorReader::MonitorReader(QString kind)
    : m_kind(std::move(kind))
{ }

bool MonitorReader::supported() const
{
    return m_kind == u"openldap" || m_kind == u"389ds";
}

bool MonitorReader::isCounter(const QString& key)
{
    return counterKeys().contains(key);
}

QMap<QString, double> MonitorReader::read(LdapSession& session, ProbeError* error)
{
    if (m_kind == u"openldap")
        return readOpenLdap(session, error);
    if (m_kind == u"389ds")
        return read389(session, error);
    return {};
}

QString MonitorReader::openLdapVersion(LdapSession& session)
{
    QList<LdapSession::Entry> out;
    if (session
            .search(QStringLiteral("cn=Monitor"), LdapSession::Base, QStringLiteral("(objectClass=*)"),
                { QStringLiteral("monitoredInfo") }, &out, 0, 2000)
            .isError()
        || out.isEmpty())
        return {};
    return QString::fromUtf8(out.first().first(QStringLiteral("monitoredinfo")));
}

QMap<QString, double> MonitorReader::readOpenLdap(LdapSession& s, ProbeError* error)
{
    QMap<QString, double> m;
    QList<LdapSession::Entry> out;
    const ProbeError e = s.search(QStringLiteral("cn=Monitor"), LdapSession::Subtree,
        QStringLiteral("(!(objectClass=monitorConnection))"),
        { QStringLiteral("monitorOpInitiated"), QStringLiteral("monitorOpCompleted"), QStringLiteral("monitorCounter"),
            QStringLiteral("monitoredInfo") },
        &out, 0, 2000);
    if (e.isError()) {
        if (error)
            *error = e;
        return m;
    }
    for (const auto& entry : out) {
        const QString dn = entry.dn.toLower();
        const QString rdn = dn.section(u',', 0, 0).mid(3); // "cn=Search" -> "search"
        double v = 0;
        if (dn.endsWith(QLatin1String(",cn=operations,cn=monitor")) || dn == u"cn=operations,cn=monitor") {
            const QString op = dn == u"cn=operations,cn=monitor" ? QStringLiteral("all") : rdn;
            if (toNumber(entry.first(QStringLiteral("monitoropinitiated")), &v))
                m.insert(op + QStringLiteral("_initiated"), v);
            if (toNumber(entry.first(QStringLiteral("monitoropcompleted")), &v))
                m.insert(op + QStringLiteral("_completed"), v);
        } else if (dn == u"cn=current,cn=connections,cn=monitor") {
            if (toNumber(entry.first(QStringLiteral("monitorcounter")), &v))
                m.insert(QStringLiteral("connections_current"), v);
        } else if (dn == u"cn=total,cn=connections,cn=monitor") {
            if (toNumber(entry.first(QStringLiteral("monitorcounter")), &v))
                m.insert(QStringLiteral("connections_total"), v);
        } else if (dn.endsWith(QLatin1String(",cn=threads,cn=monitor"))) {
            if ((rdn == u"active" || rdn == u"open" || rdn == u"pending" || rdn == u"max")
                && toNumber(entry.first(QStringLiteral("monitoredinfo")), &v))
                m.insert(QStringLiteral("threads_") + rdn, v);
        } else if (dn.endsWith(QLatin1String(",cn=waiters,cn=monitor"))) {
            if (toNumber(entry.first(QStringLiteral("monitorcounter")), &v))
                m.insert(rdn + QStringLiteral("_waiters"), v);
        } else if (dn == u"cn=entries,cn=statistics,cn=monitor") {
            if (toNumber(entry.first(QStringLiteral("monitorcounter")), &v))
                m.insert(QStringLiteral("entries_sent"), v);
        } else if (dn == u"cn=bytes,cn=statistics,cn=monitor") {
            if (toNumber(entry.first(QStringLiteral("monitorcounter")), &v))
                m.insert(QStringLiteral("bytes_sent"), v);
        }
    }
    return m;
}

QMap<QString, double> MonitorReader::read389(LdapSession& s, ProbeError* error)
{
    QMap<QString, double> m;
    auto readEntry = [&](const QString& dn, const QList<QPair<const char*, const char*>>& map,
                         QMap<QString, double>* into = nullptr) -> bool {
        if (!into)
            into = &m;
        QList<LdapSession::Entry> out;
        QStringList attrs;
        for (const auto& p : map)
            attrs << QLatin1String(p.first);
        if (dn == u"cn=monitor")
            attrs << QStringLiteral("backendmonitordn");
        const ProbeError e = s.search(dn, LdapSession::Base, QStringLiteral("(objectClass=*)"), attrs, &out, 0, 2000);
        if (e.isError() || out.isEmpty()) {
            if (error && e.isError())
                *error = e;
            return false;
        }
        for (const auto& p : map) {
            double v = 0;
            if (toNumber(out.first().first(QLatin1String(p.first)), &v))
                into->insert(QLatin1String(p.second), v);
        }
        if (dn == u"cn=monitor")
            m_backendMonitorDn = QString::fromUtf8(out.first().first(QStringLiteral("backendmonitordn")));
        return true;
    };
    if (!readEntry(QStringLiteral("cn=monitor"),
            { { "opsinitiated", "all_initiated" }, { "opscompleted", "all_completed" },
                { "currentconnections", "connections_current" }, { "totalconnections", "connections_total" },
                { "threads", "threads_open" }, { "readwaiters", "read_waiters" }, { "entriessent", "entries_sent" },
                { "bytessent", "bytes_sent" }, { "maxthreadsperconnhits", "max_threads_per_conn_hits" } }))
        return m;
    // The backend's cache counters are read just before and just after the operation counts, and their mean is
    // kept: each read is a round trip that a loaded server answers late, and lookups per search (the cache tries
    // over the searches, curves) compares counts of two entries; read once, after them, a run's last read could be
    // 5 % off. (The mean is rounded: counters stay whole numbers.)
    const QList<QPair<const char*, const char*>> backend { { "entrycachehits", "entry_cache_hits" },
        { "entrycachetries", "entry_cache_tries" }, { "currententrycachesize", "entry_cache_size" },
        { "currententrycachecount", "entry_cache_count" }, { "maxentrycachesize", "entry_cache_max_size" },
        { "dncachehits", "dn_cache_hits" }, { "dncachetries", "dn_cache_tries" } };
    QMap<QString, double> early;
    const bool haveBackend = !m_backendMonitorDn.isEmpty() && readEntry(m_backendMonitorDn, backend, &early);
    readEntry(QStringLiteral("cn=snmp,cn=monitor"),
        { { "searchops", "search_completed" }, { "compareops", "compare_completed" },
            { "addentryops", "add_completed" }, { "removeentryops", "delete_completed" },
            { "modifyentryops", "modify_completed" }, { "simpleauthbinds", "simple_binds" }, { "errors", "errors" } });
    if (haveBackend) {
        QMap<QString, double> late;
        if (!readEntry(m_backendMonitorDn, backend, &late))
            late = early;
        for (auto it = late.cbegin(); it != late.cend(); ++it)
            m.insert(it.key(),
                isCounter(it.key()) && early.contains(it.key()) ? std::round((early.value(it.key()) + it.value()) / 2)
                                                                : it.value());
    }
    readEntry(QStringLiteral("cn=monitor,cn=ldbm database,cn=plugins,cn=config"),
        { { "dbcachehits", "db_cache_hits" }, { "dbcachetries", "db_cache_tries" } });
    return m;
}

QJsonObject MonitorReader::intervalJson(
    const QMap<QString, double>& before, const QMap<QString, double>& after, double seconds)
{
    QJsonObject o;
    for (auto it = after.begin(); it != after.end(); ++it) {
        if (!isCounter(it.key())) {
            o.insert(it.key(), it.value());
            continue;
        }
        if (!before.contains(it.key()) || seconds <= 0)
            continue;
        const double delta = it.value() - before.value(it.key());
        o.insert(it.key() + QStringLiteral("_per_s"), std::round(delta / seconds * 10.0) / 10.0);
    }
    auto ratio = [&](const char* hits, const char* tries, const char* out) {
        const QString h = QLatin1String(hits), t = QLatin1String(tries);
        if (!after.contains(h) || !after.contains(t) || !before.contains(h) || !before.contains(t))
            return;
        const double dt = after.value(t) - before.value(t);
        o.insert(QLatin1String(out), dt > 0 ? QJsonValue((after.value(h) - before.value(h)) / dt) : QJsonValue());
    };
    ratio("entry_cache_hits", "entry_cache_tries", "entry_cache_hit_ratio");
    ratio("dn_cache_hits", "dn_cache_tries", "dn_cache_hit_ratio");
    ratio("db_cache_hits", "db_cache_tries", "db_cache_hit_ratio");
    return o;
}
