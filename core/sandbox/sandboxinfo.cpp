#include "core/sandbox/sandboxinfo.h"

#include <QJsonArray>

namespace {

const QString kSchema = QStringLiteral("dirbench.sandbox/1");

QJsonObject serverJson(const SandboxServer& r)
{
    QJsonObject o;
    o.insert(QStringLiteral("role"), r.role);
    o.insert(QStringLiteral("uri"), r.uri);
    o.insert(QStringLiteral("ldapi_uri"), r.ldapiUri);
    o.insert(QStringLiteral("dir"), r.dir);
    o.insert(QStringLiteral("pid"), r.pid);
    o.insert(QStringLiteral("server_id"), r.serverId);
    return o;
}

SandboxServer serverFromJson(const QJsonObject& o)
{
    SandboxServer r;
    r.role = o.value(QStringLiteral("role")).toString();
    r.uri = o.value(QStringLiteral("uri")).toString();
    r.ldapiUri = o.value(QStringLiteral("ldapi_uri")).toString();
    r.dir = o.value(QStringLiteral("dir")).toString();
    r.pid = qint64(o.value(QStringLiteral("pid")).toDouble());
    r.serverId = o.value(QStringLiteral("server_id")).toInt();
    return r;
}

} // namespace

QString SandboxTopology::name() const
{
    switch (kind) {
    case Kind::Replicas:
        return QStringLiteral("replicas");
    case Kind::Mirror:
        return QStringLiteral("mirror");
    case Kind::Single:
        break;
    }
    return QStringLiteral("single");
}

QStringList SandboxInfo::uris() const
{
    QStringList u { uri };
    for (const SandboxServer& r : replicas)
        u << r.uri;
    return u;
}

QJsonObject SandboxInfo::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("schema"), kSchema);
    o.insert(QStringLiteral("uri"), uri);
    o.insert(QStringLiteral("ldaps_uri"), ldapsUri);
    o.insert(QStringLiteral("ldapi_uri"), ldapiUri);
    o.insert(QStringLiteral("base"), base);
    o.insert(QStringLiteral("people_base"), peopleBase);
    o.insert(QStringLiteral("bind_dn"), bindDn);
    o.insert(QStringLiteral("password_file"), passwordFile);
    o.insert(QStringLiteral("ca_file"), caFile);
    if (!policyDn.isEmpty())
        o.insert(QStringLiteral("policy_dn"), policyDn);
    o.insert(QStringLiteral("dir"), dir);
    o.insert(QStringLiteral("pid"), pid);
    if (ownerPid > 0)
        o.insert(QStringLiteral("owner_pid"), ownerPid);
    if (!server.isEmpty())
        o.insert(QStringLiteral("server"), server);
    o.insert(QStringLiteral("entries"), entries);
    o.insert(QStringLiteral("load_seconds"), loadSeconds);
    o.insert(QStringLiteral("start_seconds"), startSeconds);
    if (!replicas.isEmpty()) {
        o.insert(QStringLiteral("topology"), topology);
        QJsonArray a;
        for (const SandboxServer& r : replicas)
            a.append(serverJson(r));
        o.insert(QStringLiteral("replicas"), a);
        if (initSeconds > 0)
            o.insert(QStringLiteral("init_seconds"), initSeconds);
    }
    return o;
}

QString SandboxInfo::toKeyValue() const
{
    QString s;
    auto line = [&s](const char* key, const QString& value) { s += QLatin1String(key) + u'=' + value + u'\n'; };
    line("URI", uri);
    if (!ldapsUri.isEmpty())
        line("LDAPS_URI", ldapsUri);
    line("LDAPI_URI", ldapiUri);
    line("BASE", base);
    line("PEOPLE_BASE", peopleBase);
    line("BIND_DN", bindDn);
    line("PASSWORD_FILE", passwordFile);
    if (!caFile.isEmpty())
        line("CA_FILE", caFile);
    if (!policyDn.isEmpty())
        line("POLICY_DN", policyDn);
    line("PID", QString::number(pid));
    line("DIR", dir);
    line("ENTRIES", QString::number(entries));
    if (replicas.isEmpty())
        return s;
    line("TOPOLOGY", topology);
    if (initSeconds > 0)
        line("INIT_SECONDS", QString::number(initSeconds, 'f', 3));
    for (int k = 0; k < replicas.size(); ++k) {
        const QString key = QStringLiteral("REPLICA%1_").arg(k + 1);
        s += key + QStringLiteral("URI=") + replicas[k].uri + u'\n';
        s += key + QStringLiteral("ROLE=") + replicas[k].role + u'\n';
        s += key + QStringLiteral("PID=") + QString::number(replicas[k].pid) + u'\n';
        s += key + QStringLiteral("DIR=") + replicas[k].dir + u'\n';
    }
    return s;
}

std::optional<SandboxInfo> SandboxInfo::fromJson(const QJsonObject& o)
{
    if (o.value(QStringLiteral("schema")).toString() != kSchema)
        return std::nullopt;
    SandboxInfo i;
    auto str = [&o](const char* key) { return o.value(QLatin1String(key)).toString(); };
    i.uri = str("uri");
    i.ldapsUri = str("ldaps_uri");
    i.ldapiUri = str("ldapi_uri");
    i.base = str("base");
    i.peopleBase = str("people_base");
    i.bindDn = str("bind_dn");
    i.passwordFile = str("password_file");
    i.caFile = str("ca_file");
    i.policyDn = str("policy_dn");
    i.dir = str("dir");
    i.pid = qint64(o.value(QStringLiteral("pid")).toDouble());
    i.ownerPid = qint64(o.value(QStringLiteral("owner_pid")).toDouble());
    i.server = str("server");
    i.entries = o.value(QStringLiteral("entries")).toInt();
    i.loadSeconds = o.value(QStringLiteral("load_seconds")).toDouble();
    i.startSeconds = o.value(QStringLiteral("start_seconds")).toDouble();
    i.topology = o.value(QStringLiteral("topology")).toString(QStringLiteral("single"));
    const QJsonArray replicasList = o.value(QStringLiteral("replicas")).toArray();
    for (const auto& v : replicasList)
        i.replicas << serverFromJson(v.toObject());
    i.initSeconds = o.value(QStringLiteral("init_seconds")).toDouble();
    if (i.uri.isEmpty() || i.ldapiUri.isEmpty() || i.dir.isEmpty() || i.pid <= 0)
        return std::nullopt;
    return i;
}
