#pragma once

// The network-namespace topology of tests/integration/netns/topology.sh (a bridge, a server namespace and three
// host namespaces with their own sshd, reached as a1..a3 through DIR/ssh_config), removed when this goes out of
// scope (also when an assertion returns early). The tests that use it share the fixed names: they hold the
// RESOURCE_LOCK netns.
#include <QFile>
#include <QProcess>
#include <QString>

#include <memory>
#include <unistd.h>

class Topology
{
public:
    explicit Topology(QString dir)
        : m_dir(std::move(dir))
    { }
    ~Topology() { script(QStringLiteral("down")); }
    Topology(const Topology&) = delete;
    Topology& operator=(const Topology&) = delete;
    QString up() { return script(QStringLiteral("up")); }
    // A topology made in `dir`, or null and *why (cannot build here: *skip set too; or `up` failed).
    static std::unique_ptr<Topology> upIn(const QString& dir, QString* why, bool* skip)
    {
        *why = cannotBuild();
        *skip = !why->isEmpty();
        if (*skip)
            return nullptr;
        auto t = std::make_unique<Topology>(dir);
        *why = t->up();
        return why->isEmpty() ? std::move(t) : nullptr;
    }
    QString sshConfig() const { return m_dir + QStringLiteral("/ssh_config"); }

    // Why this machine cannot build it ("" when it can): not root, no sshd or ssh, no `ip netns`.
    static QString cannotBuild()
    {
        if (::geteuid() != 0)
            return QStringLiteral("not root: the topology makes network namespaces and a bridge (run it as root, as "
                                  "CI does)");
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")) || !QFile::exists(QStringLiteral("/usr/bin/ssh")))
            return QStringLiteral("openssh-server or openssh-client is not installed (apt-get install "
                                  "openssh-server): no sshd to reach the host namespaces");
        if (QProcess::execute(QStringLiteral("ip"), { QStringLiteral("netns"), QStringLiteral("list") }) != 0)
            return QStringLiteral("'ip netns' does not work here (iproute2 missing, or no permission for network "
                                  "namespaces)");
        return {};
    }

private:
    QString script(const QString& what)
    {
        QProcess p;
        p.start(QStringLiteral("/bin/sh"),
            { QStringLiteral(DIRBENCH_SOURCE_DIR "/tests/integration/netns/topology.sh"), what, m_dir });
        if (!p.waitForFinished(60000) || p.exitCode() != 0)
            return QStringLiteral("topology.sh %1 failed: %2").arg(what, QString::fromUtf8(p.readAllStandardError()));
        return {};
    }
    QString m_dir;
};
