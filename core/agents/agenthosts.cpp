#include "core/agents/agenthosts.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>

namespace Agents {

namespace {

constexpr int kMaxAgents = 4096;

bool addHostsOfFile(const QString& path, QList<AgentHost>* out, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = path + QStringLiteral(" cannot be read: ") + f.errorString();
        return false;
    }
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).section(u'#', 0, 0).trimmed();
        if (!line.isEmpty())
            out->append(AgentHost::named(line, line == u"this"));
    }
    return true;
}

bool addAnsibleGroup(const QString& spec, QList<AgentHost>* out, QString* error)
{
    const QString rest = spec.mid(8); // after "ansible:"
    const qsizetype colon = rest.lastIndexOf(u':');
    if (colon <= 0 || colon == rest.size() - 1) {
        *error = QStringLiteral("'") + spec + QStringLiteral("': expected ansible:INVENTORY:GROUP");
        return false;
    }
    QProcess p;
    p.start(QStringLiteral("ansible-inventory"), { QStringLiteral("-i"), rest.left(colon), QStringLiteral("--list") });
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = QStringLiteral("ansible-inventory -i ") + rest.left(colon) + QStringLiteral(" --list failed: ")
            + (p.error() == QProcess::FailedToStart ? QStringLiteral("it is not installed")
                                                    : QString::fromUtf8(p.readAllStandardError()).trimmed());
        return false;
    }
    const QStringList hosts = ansibleGroupHosts(p.readAllStandardOutput(), rest.mid(colon + 1), error);
    for (const QString& h : hosts)
        out->append(AgentHost::named(h));
    return !hosts.isEmpty();
}

void collectGroup(const QJsonObject& inv, const QString& group, QStringList* hosts, QSet<QString>* seen)
{
    if (seen->contains(u'@' + group))
        return;
    seen->insert(u'@' + group);
    const QJsonObject g = inv.value(group).toObject();
    const QJsonArray members = g.value(QStringLiteral("hosts")).toArray();
    for (const auto& h : members)
        if (!seen->contains(h.toString())) {
            seen->insert(h.toString());
            hosts->append(h.toString());
        }
    const QJsonArray children = g.value(QStringLiteral("children")).toArray();
    for (const auto& c : children)
        collectGroup(inv, c.toString(), hosts, seen);
}

} // namespace

QStringList ansibleGroupHosts(const QByteArray& inventoryJson, const QString& group, QString* error)
{
    const QJsonObject inv = QJsonDocument::fromJson(inventoryJson).object();
    if (!inv.contains(group)) {
        *error = QStringLiteral("the inventory has no group '") + group + u'\'';
        return {};
    }
    QStringList hosts;
    QSet<QString> seen;
    collectGroup(inv, group, &hosts, &seen);
    if (hosts.isEmpty())
        *error = QStringLiteral("the inventory's group '") + group + QStringLiteral("' has no host");
    return hosts;
}

// k8s:[NAMESPACE/]JOB:N: the pods of completion index 0 … N-1.
static bool addJobPods(const QString& item, QList<AgentHost>* out, QString* error)
{
    const QStringList parts = item.mid(4).split(u':');
    bool ok = false;
    const int n = parts.size() == 2 ? parts.at(1).toInt(&ok) : 0;
    const QStringList where = parts.value(0).split(u'/');
    const QString& job = where.last();
    const QString ns = where.size() == 2 ? where.first() : QString();
    static const QRegularExpression dnsName(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
    if (!ok || n < 1 || n > kMaxAgents || where.size() > 2 || !dnsName.match(job).hasMatch()
        || (!ns.isEmpty() && !dnsName.match(ns).hasMatch())) {
        *error = QStringLiteral("'") + item
            + QStringLiteral("': expected k8s:[NAMESPACE/]JOB:N (names as Kubernetes spells them, N from 1 to %1)")
                  .arg(kMaxAgents);
        return false;
    }
    for (int i = 0; i < n; ++i) {
        AgentHost h;
        h.name = QStringLiteral("%1/%2").arg(job).arg(i);
        h.k8sJob = job;
        h.k8sNamespace = ns;
        h.k8sIndex = i;
        out->append(h);
    }
    return true;
}

std::optional<QList<AgentHost>> parseAgentList(const QString& text, QString* error)
{
    QList<AgentHost> out;
    const QString t = text.trimmed();
    if (t.startsWith(QLatin1String("ansible:"))) {
        if (!addAnsibleGroup(t, &out, error))
            return std::nullopt;
        return out;
    }
    for (const QString& raw : t.split(u',', Qt::SkipEmptyParts)) {
        const QString item = raw.trimmed();
        if (item.startsWith(QLatin1String("local:"))) {
            bool ok = false;
            const int n = item.mid(6).toInt(&ok);
            if (!ok || n < 1 || n > kMaxAgents) {
                *error = QStringLiteral("'") + item + QStringLiteral("': local:N takes N from 1 to %1").arg(kMaxAgents);
                return std::nullopt;
            }
            for (int i = 1; i <= n; ++i)
                out.append(AgentHost::named(QStringLiteral("local %1").arg(i), true));
        } else if (item.startsWith(QLatin1String("k8s:"))) {
            if (!addJobPods(item, &out, error))
                return std::nullopt;
        } else if (item.startsWith(u'@')) {
            if (!addHostsOfFile(item.mid(1), &out, error))
                return std::nullopt;
        } else if (item.startsWith(u'-') || item.contains(u' ')) {
            *error
                = QStringLiteral("'") + item + QStringLiteral("' is not a host name (ssh options go in --ssh-option)");
            return std::nullopt;
        } else {
            out.append(AgentHost::named(item, item == u"this"));
        }
    }
    if (out.isEmpty()) {
        *error = QStringLiteral("no agent: give host names, @FILE, ansible:INVENTORY:GROUP or local:N");
        return std::nullopt;
    }
    if (out.size() > kMaxAgents) {
        *error = QStringLiteral("%1 agents: at most %2").arg(out.size()).arg(kMaxAgents);
        return std::nullopt;
    }
    return out;
}

} // namespace Agents
