#pragma once

#include "core/ldap/ldapsession.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

// Which server answers, and why we think so. kind: "openldap", "389ds" (389 DS, Red Hat DS, HP-UX DS),
// "edirectory", "ad", "other".
struct ServerIdentity
{
    QString vendor;
    QString version; // null in JSON when unknown
    QString kind = QStringLiteral("other");
    QStringList evidence;

    QJsonObject toJson() const;
    static ServerIdentity fromRootDse(const LdapSession::Entry& rootDse);
    // OpenLDAP's version is only in cn=Monitor: reads it over the session when kind is "openldap", and says in the
    // evidence when this bind may not read it.
    void readOpenLdapVersion(LdapSession& session);
};

// The root DSE attributes a user wants to see, decoded.
QJsonObject rootDseToJson(const LdapSession::Entry& rootDse);
// Well-known names of controls and extensions, for display ("1.2.840.113556.1.4.319" -> "paged results").
QString oidName(const QString& oid);
