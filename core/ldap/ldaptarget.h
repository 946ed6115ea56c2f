#pragma once

#include "core/common/proberror.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

// Where and how to connect. The password lives only in memory: toJson() never writes it.
struct LdapTarget
{
    enum class Auth
    {
        Anonymous,
        Simple,
        SaslExternal
    };

    QString uri; // ldap://host:port, ldaps://host:port, ldapi://%2Fpath
    bool startTls = false;
    Auth auth = Auth::Anonymous;
    QString bindDn;
    QByteArray password;
    QString caFile; // empty: the system's CA bundle
    QString certFile; // client certificate (with keyFile)
    QString keyFile;
    bool insecure = false; // "trust anyway": no certificate check; the record says so
    int networkTimeoutMs = 5000;
    int opTimeoutMs = 10000;
    // Local addresses the client sockets are bound to, round robin per connection (--source-address): more than
    // one address's ephemeral ports, or the spread a load balancer keys on. Empty: the kernel's choice.
    QStringList sourceAddresses;

    bool isTls() const { return startTls || uri.startsWith(QLatin1String("ldaps://"), Qt::CaseInsensitive); }
    // Fields are named as the CLI names them: "uri", "bind-dn", "ca-file", "cert", "key", "sasl", "starttls".
    ProbeError validate() const;
    QJsonObject toJson() const;
    static QString authName(Auth a);
};
