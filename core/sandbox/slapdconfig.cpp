#include "core/sandbox/slapdconfig.h"

#include "core/sandbox/ldifgenerator.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QStringList>

const char* const SlapdConfig::kAdminDn = "cn=admin,dc=example,dc=com";

namespace {

QByteArray quoted(const QString& path)
{
    return '"' + path.toUtf8() + '"';
}

QByteArray randomBytes(int n)
{
    QByteArray b(n, Qt::Uninitialized);
    for (int i = 0; i < n; i += 4) {
        const quint32 v = QRandomGenerator::system()->generate();
        for (int k = 0; k < 4 && i + k < n; ++k)
            b[i + k] = char((v >> (8 * k)) & 0xff);
    }
    return b;
}

QByteArray replication(const SlapdConfig::Params& p)
{
    QByteArray t;
    if (p.syncprov || !p.syncreplProviders.isEmpty())
        t += "index entryCSN,entryUUID eq\n";
    for (int i = 0; i < p.syncreplProviders.size(); ++i)
        t += "syncrepl rid=" + QByteArray::number(i + 1).rightJustified(3, '0')
            + " provider=" + p.syncreplProviders[i].toUtf8() + " type=refreshAndPersist retry=\"1 +\" searchbase=\""
            + LdifGenerator::kBase + "\" bindmethod=simple binddn=\"" + SlapdConfig::kAdminDn
            + "\" credentials=" + p.replicationPassword + '\n';
    if (p.multiProvider)
        t += "multiprovider on\n";
    if (p.syncprov)
        t += "overlay syncprov\nsyncprov-checkpoint 100 1\nsyncprov-sessionlog 1000\n";
    return t;
}

} // namespace

bool SlapdConfig::pathIsSafe(const QString& path)
{
    for (const QChar c : path)
        if (c == u'"' || c == u'\\' || c == u'\n' || c == u'\r' || c.unicode() < 0x20)
            return false;
    return true;
}

QByteArray SlapdConfig::text(const Params& p)
{
    QByteArray t;
    t += "# DirBench sandbox: generated, private to this directory. Deleted by 'dirbench-cli sandbox stop'.\n";
    for (const char* schema : { "core", "cosine", "inetorgperson", "nis" })
        t += "include " + quoted(p.schemaDir + u'/' + QLatin1String(schema) + QStringLiteral(".schema")) + '\n';
    t += "pidfile " + quoted(p.dir + QStringLiteral("/slapd.pid")) + '\n';
    t += "argsfile " + quoted(p.dir + QStringLiteral("/slapd.args")) + '\n';
    t += "loglevel 0\n";
    if (!p.moduleDir.isEmpty())
        t += "modulepath " + quoted(p.moduleDir) + "\nmoduleload back_mdb\n";
    if (!p.moduleDir.isEmpty() && !p.ppolicyDefault.isEmpty())
        t += "moduleload ppolicy\n"; // its schema (pwdPolicy) is built into the module since 2.5
    if (!p.moduleDir.isEmpty() && p.syncprov)
        t += "moduleload syncprov\n";
    if (p.serverId > 0)
        t += "serverID " + QByteArray::number(p.serverId) + '\n';
    // SASL EXTERNAL over ldapi:// by the user who started the sandbox is the admin.
    t += "authz-regexp \"^gidNumber=" + QByteArray::number(p.gid) + "\\\\+uidNumber=" + QByteArray::number(p.uid)
        + ",cn=peercred,cn=external,cn=auth$\" \"" + kAdminDn + "\"\n";
    if (!p.certFile.isEmpty()) {
        t += "TLSCertificateFile " + quoted(p.certFile) + '\n';
        t += "TLSCertificateKeyFile " + quoted(p.keyFile) + '\n';
    }
    t += "\ndatabase config\n"; // the first database
    t += QByteArray("access to * by dn.exact=\"") + kAdminDn + "\" read by * none\n";
    t += "\ndatabase mdb\n";
    t += QByteArray("suffix \"") + LdifGenerator::kBase + "\"\n";
    t += QByteArray("rootdn \"") + kAdminDn + "\"\n";
    t += "rootpw " + p.rootPasswordHash + '\n';
    t += "directory " + quoted(p.dbDir) + '\n';
    t += "maxsize " + QByteArray::number(p.mapSizeBytes) + '\n';
    t += "index objectClass eq\nindex uid eq\n";
    t += "access to attrs=userPassword by anonymous auth by self write by * none\n";
    t += "access to * by * read\n";
    t += replication(p);
    if (!p.ppolicyDefault.isEmpty())
        t += "overlay ppolicy\nppolicy_default \"" + p.ppolicyDefault.toUtf8() + "\"\n";
    t += "\ndatabase monitor\n";
    t += QByteArray("access to dn.subtree=\"cn=monitor\" by dn.exact=\"") + kAdminDn + "\" read by * none\n";
    return t;
}

QByteArray SlapdConfig::randomPassword()
{
    return randomBytes(18).toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray SlapdConfig::sshaHash(const QByteArray& password)
{
    return sshaHash(password, randomBytes(8));
}

QByteArray SlapdConfig::sshaHash(const QByteArray& password, const QByteArray& salt)
{
    QCryptographicHash h(QCryptographicHash::Sha1);
    h.addData(password);
    h.addData(salt);
    const QByteArray digestAndSalt = h.result() + salt;
    return "{SSHA}" + digestAndSalt.toBase64();
}

qint64 SlapdConfig::mapSizeFor(int entries)
{
    return qint64(256) * 1024 * 1024 + qint64(entries) * 16 * 1024;
}

QString SlapdConfig::ldapiUri(const QString& socketPath)
{
    QString enc;
    for (const QChar c : socketPath) {
        if ((c.isLetterOrNumber() && c.unicode() < 0x80) || c == u'-' || c == u'_' || c == u'.' || c == u'~')
            enc += c;
        else
            for (const QByteArray utf8 = QString(c).toUtf8(); const char b : utf8)
                enc += u'%' + QString::number(uchar(b), 16).toUpper().rightJustified(2, u'0');
    }
    return QStringLiteral("ldapi://") + enc;
}

QString SlapdConfig::locateSchemaDir()
{
    for (const char* d : { "/etc/ldap/schema", "/etc/openldap/schema", "/usr/local/etc/openldap/schema" }) {
        QString dir = QLatin1String(d);
        if (QFileInfo::exists(dir + QStringLiteral("/core.schema")))
            return dir;
    }
    return {};
}

bool SlapdConfig::hasModule(const QString& moduleDir, const QString& name)
{
    return QFileInfo::exists(moduleDir + u'/' + name + QStringLiteral(".so"))
        || QFileInfo::exists(moduleDir + u'/' + name + QStringLiteral(".la"));
}

QString SlapdConfig::locateModuleDir()
{
    for (const char* d : { "/usr/lib/ldap", "/usr/lib/x86_64-linux-gnu/ldap", "/usr/lib/aarch64-linux-gnu/ldap",
             "/usr/lib64/openldap", "/usr/lib/openldap", "/usr/libexec/openldap", "/usr/local/libexec/openldap" }) {
        QString dir = QLatin1String(d);
        if (hasModule(dir, QStringLiteral("back_mdb")))
            return dir;
    }
    return {};
}
