#include "core/experiments/replicationmarker.h"

#include "core/ldap/ldapsession.h"

namespace {

constexpr int kNoSuchObject = 32;

} // namespace

ReplicationMarker::ReplicationMarker(const LdapTarget& supplier, const QString& dn)
    : m_target(supplier)
    , m_dn(dn)
{ }

ReplicationMarker::~ReplicationMarker()
{
    restore();
    m_target.password.fill('\0');
}

qint64 ReplicationMarker::highest(const QList<QByteArray>& values)
{
    qint64 best = 0;
    for (const QByteArray& v : values) {
        bool ok = false;
        const qint64 n = v.trimmed().toLongLong(&ok);
        if (ok && n > best)
            best = n;
    }
    return best;
}

ProbeError ReplicationMarker::prepare()
{
    LdapSession s;
    if (ProbeError e = s.open(m_target); e.isError())
        return e;
    QList<LdapSession::Entry> found;
    ProbeError e = s.search(
        m_dn, LdapSession::Base, QStringLiteral("(objectClass=*)"), { QStringLiteral("description") }, &found);
    if (!e.isError() && found.size() == 1) {
        m_saved = found.constFirst().attributes.value(QStringLiteral("description"));
        m_prepared = true;
        return {};
    }
    if (e.isError() && e.nativeCode != kNoSuchObject)
        return e;
    const QString rdn = m_dn.section(u',', 0, 0);
    if (!rdn.startsWith(QLatin1String("cn="), Qt::CaseInsensitive) || rdn.contains(u'+'))
        return ProbeError::invalid(QStringLiteral("marker-dn"),
            QStringLiteral("'%1' does not exist and is not cn=NAME,... (it would be made an organizationalRole)")
                .arg(m_dn));
    ProbeError a = s.add(m_dn,
        { { QStringLiteral("objectClass"), { "top", "organizationalRole" } },
            { QStringLiteral("cn"), { rdn.mid(3).toUtf8() } } });
    if (a.isError())
        return a;
    m_created = m_prepared = true;
    return {};
}

QString ReplicationMarker::restore()
{
    if (!m_prepared)
        return {};
    LdapSession s;
    ProbeError e = s.open(m_target);
    if (!e.isError())
        e = m_created ? s.remove(m_dn) : s.modifyReplace(m_dn, QStringLiteral("description"), m_saved);
    if (e.isError())
        return QStringLiteral("the marker entry %1 could not be %2: %3")
            .arg(m_dn, m_created ? QStringLiteral("removed") : QStringLiteral("restored"), e.message());
    m_prepared = false;
    return {};
}
