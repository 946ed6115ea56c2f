#include "core/ldap/ldaptarget.h"

#include "core/ldap/ldapsession.h"

#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>

ProbeError LdapTarget::validate() const
{
    const QString u = uri.trimmed();
    if (u.isEmpty())
        return ProbeError::invalid(QStringLiteral("uri"), QStringLiteral("no server given (e.g. ldap://host:389)"));
    static const QRegularExpression re(
        QStringLiteral("^(ldap|ldaps|ldapi)://([^/?#\\s]*)/?$"), QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(u);
    if (!m.hasMatch())
        return ProbeError::invalid(QStringLiteral("uri"),
            QStringLiteral("'") + u
                + QStringLiteral("' is not an LDAP URI (ldap://host[:port], ldaps://…, ldapi://…)"));
    const QString scheme = m.captured(1).toLower();
    const QString hostport = m.captured(2);
    if (scheme != u"ldapi") {
        if (hostport.isEmpty())
            return ProbeError::invalid(QStringLiteral("uri"), QStringLiteral("no host in '") + u + u'\'');
        const QUrl url(u);
        if (!url.isValid() || url.host().isEmpty())
            return ProbeError::invalid(
                QStringLiteral("uri"), QStringLiteral("cannot read host and port in '") + u + u'\'');
        if (url.port() == 0 || url.port() > 65535)
            return ProbeError::invalid(QStringLiteral("uri"), QStringLiteral("port out of range in '") + u + u'\'');
    }
    for (const QString& a : sourceAddresses)
        if (QHostAddress(a).isNull())
            return ProbeError::invalid(QStringLiteral("source-address"),
                u'\'' + a + QStringLiteral("' is not an IP address of this machine (e.g. 127.0.0.2,10.0.0.5)"));
    if (!sourceAddresses.isEmpty() && scheme == u"ldapi")
        return ProbeError::invalid(
            QStringLiteral("source-address"), QStringLiteral("not with ldapi:// (a local socket has no address)"));
    if (startTls && scheme != u"ldap")
        return ProbeError::invalid(QStringLiteral("starttls"), QStringLiteral("StartTLS goes with ldap:// only"));
    if (auth == Auth::Simple && bindDn.trimmed().isEmpty())
        return ProbeError::invalid(QStringLiteral("bind-dn"), QStringLiteral("a simple bind needs a DN"));
    if (!LdapSession::isDn(bindDn))
        return ProbeError::invalid(QStringLiteral("bind-dn"), u'\'' + bindDn + QStringLiteral("' is not a DN"));
    if (auth == Auth::SaslExternal && scheme != u"ldapi" && certFile.isEmpty())
        return ProbeError::invalid(QStringLiteral("sasl"),
            QStringLiteral("SASL EXTERNAL needs ldapi:// or a client certificate (--cert/--key)"));
    if (!caFile.isEmpty() && !QFileInfo(caFile).isReadable())
        return ProbeError::invalid(QStringLiteral("ca-file"), caFile + QStringLiteral(" cannot be read"));
    if (certFile.isEmpty() != keyFile.isEmpty())
        return ProbeError::invalid(certFile.isEmpty() ? QStringLiteral("cert") : QStringLiteral("key"),
            QStringLiteral("a client certificate needs both --cert and --key"));
    if (!certFile.isEmpty() && !QFileInfo(certFile).isReadable())
        return ProbeError::invalid(QStringLiteral("cert"), certFile + QStringLiteral(" cannot be read"));
    if (!keyFile.isEmpty() && !QFileInfo(keyFile).isReadable())
        return ProbeError::invalid(QStringLiteral("key"), keyFile + QStringLiteral(" cannot be read"));
    if (networkTimeoutMs < 10 || opTimeoutMs < 10)
        return ProbeError::invalid(QStringLiteral("timeout"), QStringLiteral("timeouts must be at least 10 ms"));
    return {};
}

QString LdapTarget::authName(Auth a)
{
    switch (a) {
    case Auth::Simple:
        return QStringLiteral("simple");
    case Auth::SaslExternal:
        return QStringLiteral("sasl-external");
    case Auth::Anonymous:
        break;
    }
    return QStringLiteral("anonymous");
}

QJsonObject LdapTarget::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("uri"), uri);
    o.insert(QStringLiteral("starttls"), startTls);
    o.insert(QStringLiteral("auth"), authName(auth));
    o.insert(QStringLiteral("bind_dn"), bindDn.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(bindDn));
    o.insert(QStringLiteral("ca_file"), caFile.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(caFile));
    o.insert(QStringLiteral("client_cert"), !certFile.isEmpty());
    o.insert(QStringLiteral("tls_verify"),
        insecure ? QStringLiteral("none (--insecure: trusted anyway)") : QStringLiteral("require"));
    o.insert(QStringLiteral("network_timeout_ms"), networkTimeoutMs);
    o.insert(QStringLiteral("op_timeout_ms"), opTimeoutMs);
    if (!sourceAddresses.isEmpty())
        o.insert(QStringLiteral("source_addresses"), QJsonArray::fromStringList(sourceAddresses));
    return o;
}
