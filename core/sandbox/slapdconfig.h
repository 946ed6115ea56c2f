#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

// The sandbox's slapd.conf and its secrets: a generated password and its {SSHA} hash. Pure functions apart from
// randomPassword() (system CSPRNG) and locate*() (look at the file system).
class SlapdConfig
{
public:
    struct Params
    {
        QString dir; // sandbox directory (absolute); pid/args files live here
        QString dbDir; // back-mdb directory
        QString schemaDir; // holds core.schema, cosine.schema, inetorgperson.schema, nis.schema
        QString moduleDir; // where back_mdb.so is; empty when back-mdb is built into slapd
        QByteArray rootPasswordHash; // {SSHA}...
        qint64 mapSizeBytes = 0; // back-mdb maxsize
        uint uid = 0, gid = 0; // mapped to the admin DN for SASL EXTERNAL over ldapi://
        QString certFile, keyFile; // TLS; empty = no TLS
        QString ppolicyDefault; // DN of the ppolicy overlay's default policy; empty = no ppolicy overlay
        // Replication: serverID (> 0, multi-provider), the syncprov overlay (a provider, or a consumer that
        // offers RFC 4533 sync to clients), one syncrepl refreshAndPersist consumer per provider URI (bound as
        // the admin with replicationPassword), and multi-provider mode.
        int serverId = 0;
        bool syncprov = false;
        QStringList syncreplProviders;
        QByteArray replicationPassword;
        bool multiProvider = false;
    };

    static const char* const kAdminDn; // cn=admin,dc=example,dc=com

    // slapd.conf text. Paths must not contain '"', '\\' or line breaks (see pathIsSafe()). The admin can read
    // cn=config (as over SASL EXTERNAL on a real server) and cn=monitor.
    static QByteArray text(const Params& p);
    static bool pathIsSafe(const QString& path);

    // 24 characters of base64url from 18 bytes of the system's CSPRNG.
    static QByteArray randomPassword();
    // {SSHA} = base64(SHA-1(password + salt) + salt) with an 8-byte random salt, what slappasswd writes.
    static QByteArray sshaHash(const QByteArray& password);
    static QByteArray sshaHash(const QByteArray& password, const QByteArray& salt);

    // back-mdb maxsize for N entries (about 5.6 KB each with indexes, measured): generous, it is only address space.
    static qint64 mapSizeFor(int entries);
    // ldapi://%2Fpath%2Fto%2Fsocket
    static QString ldapiUri(const QString& socketPath);

    // Directory with core.schema (/etc/ldap/schema on Debian, /etc/openldap/schema elsewhere), or empty.
    static QString locateSchemaDir();
    // Directory with back_mdb.so/.la, or empty (then back-mdb is assumed to be static).
    static QString locateModuleDir();
    // moduleDir has the module NAME (NAME.so or NAME.la).
    static bool hasModule(const QString& moduleDir, const QString& name);
};
