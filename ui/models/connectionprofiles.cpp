#include "ui/models/connectionprofiles.h"

#include <QList>
#include <QSettings>

namespace {

const QString kArray = QStringLiteral("ldap/profiles");

QString authKey(LdapTarget::Auth a)
{
    return LdapTarget::authName(a);
}

LdapTarget::Auth authFromKey(const QString& key)
{
    if (key == LdapTarget::authName(LdapTarget::Auth::Simple))
        return LdapTarget::Auth::Simple;
    if (key == LdapTarget::authName(LdapTarget::Auth::SaslExternal))
        return LdapTarget::Auth::SaslExternal;
    return LdapTarget::Auth::Anonymous;
}

QList<ConnectionProfile> readAll()
{
    QSettings settings;
    QList<ConnectionProfile> out;
    const int n = settings.beginReadArray(kArray);
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        ConnectionProfile p;
        p.name = settings.value(QStringLiteral("name")).toString();
        if (p.name.isEmpty())
            continue;
        LdapTarget& t = p.target;
        t.uri = settings.value(QStringLiteral("uri")).toString();
        t.startTls = settings.value(QStringLiteral("starttls"), false).toBool();
        t.auth = authFromKey(settings.value(QStringLiteral("auth")).toString());
        t.bindDn = settings.value(QStringLiteral("bindDn")).toString();
        t.caFile = settings.value(QStringLiteral("caFile")).toString();
        t.certFile = settings.value(QStringLiteral("certFile")).toString();
        t.keyFile = settings.value(QStringLiteral("keyFile")).toString();
        t.insecure = settings.value(QStringLiteral("insecure"), false).toBool();
        t.networkTimeoutMs = settings.value(QStringLiteral("networkTimeoutMs"), t.networkTimeoutMs).toInt();
        t.opTimeoutMs = settings.value(QStringLiteral("opTimeoutMs"), t.opTimeoutMs).toInt();
        p.rememberPassword = settings.value(QStringLiteral("rememberPassword"), false).toBool();
        out << p;
    }
    settings.endArray();
    return out;
}

void writeAll(const QList<ConnectionProfile>& profiles)
{
    QSettings s;
    s.remove(kArray);
    s.beginWriteArray(kArray, int(profiles.size()));
    for (int i = 0; i < profiles.size(); ++i) {
        s.setArrayIndex(i);
        const ConnectionProfile& p = profiles.at(i);
        const LdapTarget& t = p.target;
        // Deliberately no password here (DESIGN.md: passwords are never written to disk).
        s.setValue(QStringLiteral("name"), p.name);
        s.setValue(QStringLiteral("uri"), t.uri);
        s.setValue(QStringLiteral("starttls"), t.startTls);
        s.setValue(QStringLiteral("auth"), authKey(t.auth));
        s.setValue(QStringLiteral("bindDn"), t.bindDn);
        s.setValue(QStringLiteral("caFile"), t.caFile);
        s.setValue(QStringLiteral("certFile"), t.certFile);
        s.setValue(QStringLiteral("keyFile"), t.keyFile);
        s.setValue(QStringLiteral("insecure"), t.insecure);
        s.setValue(QStringLiteral("networkTimeoutMs"), t.networkTimeoutMs);
        s.setValue(QStringLiteral("opTimeoutMs"), t.opTimeoutMs);
        s.setValue(QStringLiteral("rememberPassword"), p.rememberPassword);
    }
    s.endArray();
    s.sync();
}

} // namespace

QString ConnectionProfile::keyringKey(const QString& name)
{
    return QStringLiteral("ldap-profile:") + name;
}

namespace ConnectionProfiles {

QStringList names()
{
    QStringList out;
    for (const ConnectionProfile& p : readAll())
        out << p.name;
    return out;
}

std::optional<ConnectionProfile> load(const QString& name)
{
    for (const ConnectionProfile& p : readAll())
        if (p.name == name)
            return p;
    return std::nullopt;
}

bool save(const ConnectionProfile& profile)
{
    if (profile.name.trimmed().isEmpty())
        return false;
    QList<ConnectionProfile> all = readAll();
    ConnectionProfile p = profile;
    p.target.password.clear();
    bool replaced = false;
    for (ConnectionProfile& q : all)
        if (q.name == p.name) {
            q = p;
            replaced = true;
        }
    if (!replaced)
        all << p;
    writeAll(all);
    return true;
}

bool remove(const QString& name)
{
    QList<ConnectionProfile> all = readAll();
    const qsizetype before = all.size();
    all.removeIf([&name](const ConnectionProfile& p) { return p.name == name; });
    if (all.size() == before)
        return false;
    writeAll(all);
    return true;
}

} // namespace ConnectionProfiles
