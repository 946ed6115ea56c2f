#include "core/ldap/serverinventory.h"

#include "core/ldap/ldapsession.h"
#include "core/ldap/monitorreader.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace {

// MDB's page size is the OS page size; 4 KiB on every platform slapd ships for here.
constexpr double kMdbPageBytes = 4096;
constexpr int kCountTimeoutMs = 300000;

const QString kLdbm = QStringLiteral("cn=ldbm database,cn=plugins,cn=config");
// 389-ds 1.3 keeps the database settings in cn=config,cn=ldbm database; 2.x in cn=bdb under it.
const QStringList kLdbmConfigs = { QStringLiteral("cn=bdb,cn=config,cn=ldbm database,cn=plugins,cn=config"),
    QStringLiteral("cn=config,") + kLdbm };

QString normalDn(const QString& dn)
{
    QString out = dn.toLower();
    out.remove(u' ');
    return out;
}

bool number(const QByteArray& text, double* out)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (ok)
        *out = v;
    return ok;
}

class Reader
{
public:
    Reader(LdapSession& s, ServerInventory& inv)
        : m_s(s)
        , m_inv(inv)
    { }

    void set(const QString& key, double v, const QString& where)
    {
        m_inv.values.insert(key, v);
        m_inv.evidence.insert(key, where);
    }

    // One entry (base scope); empty when it cannot be read with this bind.
    LdapSession::Entry entry(const QString& dn, const QStringList& attrs)
    {
        QList<LdapSession::Entry> out;
        if (m_s.search(dn, LdapSession::Base, QStringLiteral("(objectClass=*)"), attrs, &out).isError()
            || out.isEmpty())
            return {};
        return out.first();
    }

    void readOpenLdap();
    void read389();

private:
    void count389Entries(const QString& suffix);
    void sum389DbFiles(const QString& backend);

    LdapSession& m_s;
    ServerInventory& m_inv;
};

void Reader::readOpenLdap()
{
    QList<LdapSession::Entry> dbs;
    const ProbeError e = m_s.search(QStringLiteral("cn=Databases,cn=Monitor"), LdapSession::OneLevel,
        QStringLiteral("(objectClass=*)"),
        { QStringLiteral("namingContexts"), QStringLiteral("olmMDBEntries"), QStringLiteral("olmMDBPagesUsed"),
            QStringLiteral("olmMDBPagesMax") },
        &dbs);
    if (e.isError()) {
        m_inv.notes << QStringLiteral("cn=Databases,cn=Monitor not readable with this bind (%1): entries and database "
                                      "size unknown; bind as the monitor's reader or type them")
                           .arg(e.message());
        return;
    }
    const LdapSession::Entry* db = nullptr;
    for (const auto& d : dbs) {
        if (!d.attributes.contains(QStringLiteral("olmmdbentries")))
            continue;
        if (normalDn(QString::fromUtf8(d.first(QStringLiteral("namingcontexts")))) == normalDn(m_inv.base)) {
            db = &d;
            break;
        }
        if (!db)
            db = &d;
    }
    if (!db) {
        m_inv.notes << QStringLiteral("no back-mdb database in cn=Databases,cn=Monitor (another backend?): entries "
                                      "and database size unknown");
        return;
    }
    const QString where = QStringLiteral(" of ") + db->dn;
    double v = 0;
    if (number(db->first(QStringLiteral("olmmdbentries")), &v))
        set(QStringLiteral("entries"), v, QStringLiteral("olmMDBEntries") + where);
    if (number(db->first(QStringLiteral("olmmdbpagesused")), &v))
        set(QStringLiteral("db_files_bytes"), v * kMdbPageBytes,
            QStringLiteral("olmMDBPagesUsed × 4096 bytes") + where);
    if (number(db->first(QStringLiteral("olmmdbpagesmax")), &v))
        set(QStringLiteral("db_map_bytes"), v * kMdbPageBytes,
            QStringLiteral("olmMDBPagesMax × 4096 bytes (maxsize now)") + where);
}

void Reader::read389()
{
    double v = 0;
    const auto cfg = entry(QStringLiteral("cn=config"), { QStringLiteral("nsslapd-threadnumber") });
    if (number(cfg.first(QStringLiteral("nsslapd-threadnumber")), &v) && v >= 1)
        set(QStringLiteral("threads_open"), v, QStringLiteral("nsslapd-threadnumber of cn=config"));
    else
        m_inv.notes << QStringLiteral("cn=config not readable with this bind: the worker threads now are unknown "
                                      "(bind as cn=Directory Manager)");
    for (const QString& dn : kLdbmConfigs) {
        const auto e = entry(dn, { QStringLiteral("nsslapd-dbcachesize") });
        if (number(e.first(QStringLiteral("nsslapd-dbcachesize")), &v) && v > 0) {
            set(QStringLiteral("db_cache_size_bytes"), v, QStringLiteral("nsslapd-dbcachesize of ") + dn);
            break;
        }
    }
    // The backend that holds the base.
    QList<LdapSession::Entry> backends;
    m_s.search(kLdbm, LdapSession::OneLevel, QStringLiteral("(objectClass=nsBackendInstance)"),
        { QStringLiteral("cn"), QStringLiteral("nsslapd-suffix"), QStringLiteral("nsslapd-cachememsize") }, &backends);
    QString backend;
    for (const auto& b : backends)
        if (normalDn(QString::fromUtf8(b.first(QStringLiteral("nsslapd-suffix")))) == normalDn(m_inv.base))
            backend = QString::fromUtf8(b.first(QStringLiteral("cn")));
    if (backend.isEmpty())
        m_inv.notes << QStringLiteral("no backend with suffix %1 in %2 (not readable with this bind, or the base is "
                                      "not a suffix): the db files are not summed")
                           .arg(m_inv.base, kLdbm);
    count389Entries(m_inv.base);
    if (!backend.isEmpty())
        sum389DbFiles(backend);
}

void Reader::count389Entries(const QString& suffix)
{
    // 389-ds does not publish an entry count: count the entries under the suffix, asking for no attributes.
    QList<LdapSession::Entry> all;
    const ProbeError e = m_s.search(suffix, LdapSession::Subtree, QStringLiteral("(objectClass=*)"),
        { QStringLiteral("1.1") }, &all, 0, kCountTimeoutMs);
    if (e.isError()) {
        m_inv.notes
            << QStringLiteral("counting the entries under %1 failed (%2): type --entries").arg(suffix, e.message());
        return;
    }
    set(QStringLiteral("entries"), double(all.size()),
        QStringLiteral("entries counted under %1 (subtree search, no attributes; a size limit on this bind "
                       "would cut it)")
            .arg(suffix));
}

void Reader::sum389DbFiles(const QString& backend)
{
    QString dir;
    for (const QString& dn : kLdbmConfigs) {
        dir = QString::fromUtf8(
            entry(dn, { QStringLiteral("nsslapd-directory") }).first(QStringLiteral("nsslapd-directory")));
        if (!dir.isEmpty())
            break;
    }
    if (dir.isEmpty()) {
        m_inv.notes << QStringLiteral("nsslapd-directory not readable with this bind: db file sizes unknown");
        return;
    }
    const QDir db(dir + u'/' + backend);
    const QFileInfoList files = db.entryInfoList({ QStringLiteral("*.db"), QStringLiteral("*.db4") }, QDir::Files);
    if (!db.exists() || files.isEmpty()) {
        m_inv.notes << QStringLiteral("the db files in %1 are not readable from here (another host?): type "
                                      "--db-size-mb (Equation 1: the sum of the db files the operations use)")
                           .arg(db.path());
        return;
    }
    double total = 0;
    for (const auto& f : files)
        total += double(f.size());
    set(QStringLiteral("db_files_bytes"), total,
        QStringLiteral("sum of %1 db files in %2 (read on this host)").arg(files.size()).arg(db.path()));
}

} // namespace

QJsonObject ServerInventory::toJson() const
{
    QJsonObject values;
    for (auto it = this->values.begin(); it != this->values.end(); ++it)
        values.insert(it.key(), it.value());
    QJsonObject where;
    for (auto it = evidence.begin(); it != evidence.end(); ++it)
        where.insert(it.key(), it.value());
    return { { QStringLiteral("server"), identity.toJson() }, { QStringLiteral("base"), base },
        { QStringLiteral("values"), values }, { QStringLiteral("evidence"), where },
        { QStringLiteral("notes"), QJsonArray::fromStringList(notes) } };
}

std::optional<ServerInventory> Ldap::readInventory(const LdapTarget& target, const QString& base, ProbeError* error)
{
    LdapSession s;
    if (const ProbeError e = s.open(target); e.isError()) {
        if (error)
            *error = e;
        return std::nullopt;
    }
    QList<LdapSession::Entry> dse;
    if (const ProbeError e = s.search(QString(), LdapSession::Base, QStringLiteral("(objectClass=*)"),
            { QStringLiteral("*"), QStringLiteral("+") }, &dse);
        e.isError()) {
        if (error)
            *error = e;
        return std::nullopt;
    }
    ServerInventory inv;
    const LdapSession::Entry root = dse.value(0);
    inv.identity = ServerIdentity::fromRootDse(root);
    inv.identity.readOpenLdapVersion(s);
    inv.base = base.isEmpty() ? QString::fromUtf8(root.first(QStringLiteral("namingcontexts"))) : base;

    Reader reader(s, inv);
    MonitorReader monitor(inv.identity.kind);
    if (monitor.supported()) {
        ProbeError e;
        const auto m = monitor.read(s, &e);
        for (const char* k : { "entry_cache_size", "entry_cache_count", "entry_cache_max_size", "threads_open" }) {
            const QString key = QLatin1String(k);
            if (m.contains(key))
                reader.set(key, m.value(key), QStringLiteral("cn=monitor (") + key + u')');
        }
        // OpenLDAP: the configured pool (olcThreads) is cn=Max,cn=Threads; "open" is how many run now.
        if (m.contains(QStringLiteral("threads_max")))
            reader.set(QStringLiteral("threads_open"), m.value(QStringLiteral("threads_max")),
                QStringLiteral("cn=Max,cn=Threads,cn=Monitor (olcThreads)"));
        if (m.isEmpty())
            inv.notes << QStringLiteral("the server's monitor is not readable with this bind")
                    + (e.isError() ? QStringLiteral(" (") + e.message() + u')' : QString());
    } else {
        inv.notes << QStringLiteral("DirBench reads no monitor of a %1 server: type the inputs")
                         .arg(inv.identity.vendor.isEmpty() ? inv.identity.kind : inv.identity.vendor);
    }
    if (inv.identity.kind == u"openldap")
        reader.readOpenLdap();
    else if (inv.identity.kind == u"389ds")
        reader.read389();
    if (inv.values.value(QStringLiteral("entry_cache_count"), 0) <= 0 && inv.identity.kind == u"389ds")
        inv.notes << QStringLiteral("the entry cache is empty: the bytes per entry (Equation 2) need a primed cache "
                                    "— run a search load first");
    return inv;
}
