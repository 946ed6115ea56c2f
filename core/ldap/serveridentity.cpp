#include "core/ldap/serveridentity.h"

#include "core/ldap/monitorreader.h"

#include <QHash>
#include <QJsonArray>

namespace {

QString attr(const LdapSession::Entry& e, const char* name)
{
    return QString::fromUtf8(e.first(QLatin1String(name)));
}

QStringList values(const LdapSession::Entry& e, const char* name)
{
    QStringList out;
    for (const auto& v : e.attributes.value(QLatin1String(name)))
        out << QString::fromUtf8(v);
    return out;
}

QJsonValue orNull(const QString& s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

} // namespace

QJsonObject ServerIdentity::toJson() const
{
    return QJsonObject { { QStringLiteral("vendor"), orNull(vendor) }, { QStringLiteral("version"), orNull(version) },
        { QStringLiteral("kind"), kind }, { QStringLiteral("evidence"), QJsonArray::fromStringList(evidence) } };
}

ServerIdentity ServerIdentity::fromRootDse(const LdapSession::Entry& dse)
{
    ServerIdentity id;
    const QString vendorName = attr(dse, "vendorname");
    const QString vendorVersion = attr(dse, "vendorversion");
    const QStringList ocs = values(dse, "objectclass") + values(dse, "structuralobjectclass");
    const QStringList caps = values(dse, "supportedcapabilities");
    if (!vendorName.isEmpty())
        id.evidence << QStringLiteral("vendorName: ") + vendorName;
    if (!vendorVersion.isEmpty())
        id.evidence << QStringLiteral("vendorVersion: ") + vendorVersion;

    auto has
        = [](const QString& s, const char* needle) { return s.contains(QLatin1String(needle), Qt::CaseInsensitive); };
    if (has(vendorVersion, "389-Directory") || has(vendorName, "389 Project") || has(vendorName, "Red Hat")
        || has(vendorVersion, "Red Hat-Directory") || has(vendorVersion, "HP-UX") || has(vendorName, "Hewlett")
        || has(vendorVersion, "Netscape-Directory") || has(vendorVersion, "Fedora-Directory")) {
        id.kind = QStringLiteral("389ds");
        id.vendor = vendorName;
        id.version = vendorVersion;
    } else if (has(vendorVersion, "eDirectory") || has(vendorName, "Novell") || has(vendorName, "NetIQ")
        || has(vendorName, "Micro Focus") || has(vendorName, "Open Text")) {
        id.kind = QStringLiteral("edirectory");
        id.vendor = vendorName;
        id.version = vendorVersion;
    } else if (ocs.contains(QStringLiteral("OpenLDAProotDSE"), Qt::CaseInsensitive)) {
        id.kind = QStringLiteral("openldap");
        id.vendor = QStringLiteral("OpenLDAP");
        id.evidence << QStringLiteral("objectClass: OpenLDAProotDSE (OpenLDAP publishes no vendorName; its version is "
                                      "in cn=Monitor)");
    } else if (caps.contains(QStringLiteral("1.2.840.113556.1.4.800"))
        || !attr(dse, "domaincontrollerfunctionality").isEmpty() || !attr(dse, "forestfunctionality").isEmpty()) {
        id.kind = QStringLiteral("ad");
        id.vendor = QStringLiteral("Microsoft");
        id.evidence << QStringLiteral("supportedCapabilities/forestFunctionality: Active Directory");
        const QString dcLevel = attr(dse, "domaincontrollerfunctionality");
        if (!dcLevel.isEmpty())
            id.version = QStringLiteral("domainControllerFunctionality ") + dcLevel;
    } else {
        id.vendor = vendorName;
        id.version = vendorVersion;
        if (id.evidence.isEmpty())
            id.evidence << QStringLiteral("no vendorName, no known object class or capability");
    }
    return id;
}

QString oidName(const QString& oid)
{
    static const QHash<QString, QString> names = {
        { QStringLiteral("1.2.840.113556.1.4.319"), QStringLiteral("paged results") },
        { QStringLiteral("2.16.840.1.113730.3.4.2"), QStringLiteral("ManageDsaIT") },
        { QStringLiteral("2.16.840.1.113730.3.4.18"), QStringLiteral("proxied authorization v2") },
        { QStringLiteral("2.16.840.1.113730.3.4.9"), QStringLiteral("virtual list view") },
        { QStringLiteral("1.2.840.113556.1.4.473"), QStringLiteral("server-side sort") },
        { QStringLiteral("1.3.6.1.4.1.4203.1.10.1"), QStringLiteral("subentries") },
        { QStringLiteral("1.3.6.1.1.22"), QStringLiteral("don't use copy") },
        { QStringLiteral("1.2.826.0.1.3344810.2.3"), QStringLiteral("matched values") },
        { QStringLiteral("1.3.6.1.1.13.1"), QStringLiteral("pre-read") },
        { QStringLiteral("1.3.6.1.1.13.2"), QStringLiteral("post-read") },
        { QStringLiteral("1.3.6.1.1.12"), QStringLiteral("assertion") },
        { QStringLiteral("1.3.6.1.4.1.1466.20037"), QStringLiteral("StartTLS") },
        { QStringLiteral("1.3.6.1.4.1.4203.1.11.1"), QStringLiteral("password modify") },
        { QStringLiteral("1.3.6.1.4.1.4203.1.11.3"), QStringLiteral("Who am I?") },
        { QStringLiteral("1.3.6.1.1.8"), QStringLiteral("cancel") },
        { QStringLiteral("1.3.6.1.1.21.1"), QStringLiteral("start transaction") },
        { QStringLiteral("1.3.6.1.4.1.4203.1.9.1.1"), QStringLiteral("content synchronization") },
        { QStringLiteral("2.16.840.1.113730.3.4.3"), QStringLiteral("persistent search") },
        { QStringLiteral("1.2.840.113556.1.4.1413"), QStringLiteral("permissive modify") },
    };
    return names.value(oid);
}

QJsonObject rootDseToJson(const LdapSession::Entry& dse)
{
    QJsonObject o;
    auto list = [&](const char* attrName, bool named) {
        QJsonArray a;
        for (const auto& v : values(dse, attrName)) {
            const QString n = named ? oidName(v) : QString();
            a.append(n.isEmpty() ? v : v + QStringLiteral(" (") + n + u')');
        }
        return a;
    };
    o.insert(QStringLiteral("vendorName"), orNull(attr(dse, "vendorname")));
    o.insert(QStringLiteral("vendorVersion"), orNull(attr(dse, "vendorversion")));
    o.insert(QStringLiteral("namingContexts"), list("namingcontexts", false));
    o.insert(QStringLiteral("supportedLDAPVersion"), list("supportedldapversion", false));
    o.insert(QStringLiteral("supportedControl"), list("supportedcontrol", true));
    o.insert(QStringLiteral("supportedExtension"), list("supportedextension", true));
    o.insert(QStringLiteral("supportedSASLMechanisms"), list("supportedsaslmechanisms", false));
    o.insert(QStringLiteral("objectClass"), list("objectclass", false));
    const QString monitor = attr(dse, "monitorcontext");
    if (!monitor.isEmpty())
        o.insert(QStringLiteral("monitorContext"), monitor);
    return o;
}

void ServerIdentity::readOpenLdapVersion(LdapSession& session)
{
    if (kind != u"openldap")
        return;
    const QString info = MonitorReader::openLdapVersion(session);
    if (!info.isEmpty()) {
        version = info;
        evidence << QStringLiteral("cn=Monitor monitoredInfo: ") + info;
    } else {
        evidence << QStringLiteral("cn=Monitor not readable with this bind: version unknown");
    }
}
