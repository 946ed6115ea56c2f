// Replicated slapd sandboxes (core/sandbox/slapdtopology.h): one provider and syncrepl consumers, and a mirror of
// two providers, each server a real slapd on its own 127.0.0.1 port. A write on one server must show on the
// others (polled with a deadline); stop must leave no process and no directory. Also the CLI's KEY=VALUE lines.
#include "core/ldap/ldapsession.h"
#include "core/sandbox/sandboxguard.h"
#include "core/sandbox/slapdconfig.h"
#include "core/sandbox/slapdsandbox.h"
#include "core/sandbox/slapdtools.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

class TstSandboxTopology : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void consumersSeeProviderAdds();
    void mirrorReplicatesBothWays();
    void stopLeavesNothing();
    void cliReplicasAndStop();
    void cliBadTopologies();

private:
    std::optional<SandboxInfo> start(const SandboxTopology& t);
    LdapTarget admin(const SandboxInfo& info, const QString& uri) const;
    void addPerson(const SandboxInfo& info, const QString& uri, const QString& uid);
    bool waitVisible(const SandboxInfo& info, const QString& uri, const QString& uid, int ms = 15000);
    QPair<int, QByteArray> cli(const QStringList& args);

    QTemporaryDir m_parent;
};

void TstSandboxTopology::initTestCase()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): replicated sandboxes cannot be tested");
    if (SlapdTools::findProgram(QStringLiteral("ldapadd")).isEmpty())
        QSKIP("ldapadd is not installed (apt-get install ldap-utils)");
    if (!SlapdConfig::hasModule(SlapdConfig::locateModuleDir(), QStringLiteral("syncprov")))
        QSKIP("the syncprov overlay (syncprov.so) is not installed: replicated sandboxes cannot be tested");
    QVERIFY(m_parent.isValid());
}

std::optional<SandboxInfo> TstSandboxTopology::start(const SandboxTopology& t)
{
    SandboxOptions o;
    o.entries = 200;
    o.parentDir = m_parent.path();
    o.makeCurrent = false;
    o.topology = t;
    ProbeError e;
    auto info = SlapdSandbox::start(o, &e);
    if (!info)
        qWarning("sandbox start failed: %s", qPrintable(e.message()));
    return info;
}

LdapTarget TstSandboxTopology::admin(const SandboxInfo& info, const QString& uri) const
{
    LdapTarget t;
    t.uri = uri;
    t.auth = LdapTarget::Auth::Simple;
    t.bindDn = info.bindDn;
    QFile f(info.passwordFile);
    if (f.open(QIODevice::ReadOnly))
        t.password = f.readAll().trimmed();
    return t;
}

void TstSandboxTopology::addPerson(const SandboxInfo& info, const QString& uri, const QString& uid)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LDAPCONF", "/dev/null");
    env.insert("LDAPRC", "dirbench-no-such-ldaprc");
    p.setProcessEnvironment(env);
    p.start("ldapadd", { "-x", "-H", uri, "-D", info.bindDn, "-y", info.passwordFile });
    QVERIFY(p.waitForStarted());
    p.write(QStringLiteral("dn: uid=%1,%2\nobjectClass: inetOrgPerson\nuid: %1\ncn: %1\nsn: Replica\n")
                .arg(uid, info.peopleBase)
                .toUtf8());
    p.closeWriteChannel();
    QVERIFY(p.waitForFinished(30000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
}

// Base-scope reads every 10 ms until the entry is there, or the deadline passes.
bool TstSandboxTopology::waitVisible(const SandboxInfo& info, const QString& uri, const QString& uid, int ms)
{
    LdapSession s;
    if (s.open(admin(info, uri)).isError())
        return false;
    const QString dn = QStringLiteral("uid=%1,%2").arg(uid, info.peopleBase);
    const QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired()) {
        QList<LdapSession::Entry> found;
        if (!s.search(dn, LdapSession::Base, QStringLiteral("(objectClass=*)"), { QStringLiteral("uid") }, &found)
                 .isError()
            && found.size() == 1)
            return true;
        QThread::msleep(10);
    }
    return false;
}

void TstSandboxTopology::consumersSeeProviderAdds()
{
    SandboxGuard g(start(SandboxTopology::withReplicas(2)));
    QVERIFY(g.isValid());
    QCOMPARE(g->topology, QStringLiteral("replicas"));
    QCOMPARE(g->replicas.size(), 2);
    QStringList uris = g->uris();
    uris.removeDuplicates();
    QCOMPARE(uris.size(), 3); // three servers, three ports
    for (const SandboxServer& r : g->replicas) {
        QCOMPARE(r.role, QStringLiteral("consumer"));
        QVERIFY(SlapdTools::isSlapdWithConfig(r.pid, r.dir + QStringLiteral("/slapd.conf")));
        QVERIFY(waitVisible(g.info(), r.uri, QStringLiteral("user199"), 1000)); // the copied data is there at once
    }
    addPerson(g.info(), g->uri, QStringLiteral("repl1"));
    for (const SandboxServer& r : g->replicas)
        QVERIFY2(waitVisible(g.info(), r.uri, QStringLiteral("repl1")), qPrintable(r.uri));
}

void TstSandboxTopology::mirrorReplicatesBothWays()
{
    SandboxGuard g(start(SandboxTopology::mirror()));
    QVERIFY(g.isValid());
    QCOMPARE(g->topology, QStringLiteral("mirror"));
    QCOMPARE(g->replicas.size(), 1);
    const SandboxServer& other = g->replicas.constFirst();
    QCOMPARE(other.role, QStringLiteral("provider"));
    QCOMPARE(other.serverId, 2);
    addPerson(g.info(), g->uri, QStringLiteral("fromone"));
    QVERIFY(waitVisible(g.info(), other.uri, QStringLiteral("fromone")));
    addPerson(g.info(), other.uri, QStringLiteral("fromtwo"));
    QVERIFY(waitVisible(g.info(), g->uri, QStringLiteral("fromtwo")));
}

void TstSandboxTopology::stopLeavesNothing()
{
    auto info = start(SandboxTopology::withReplicas(1));
    QVERIFY(info.has_value());
    QList<qint64> pids { info->pid };
    for (const SandboxServer& r : info->replicas)
        pids << r.pid;
    ProbeError e;
    QVERIFY2(SlapdSandbox::stop(*info, &e), qPrintable(e.message()));
    for (const qint64 pid : pids)
        QVERIFY2(!SlapdTools::processAlive(pid), qPrintable(QString::number(pid)));
    QVERIFY(!QFileInfo::exists(info->dir));
}

QPair<int, QByteArray> TstSandboxTopology::cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return { -1, {} };
    }
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput() };
}

void TstSandboxTopology::cliReplicasAndStop()
{
    QTemporaryDir parent;
    const auto [code, out] = cli({ "sandbox", "start", "--replicas", "2", "--entries", "50", "--dir", parent.path() });
    QCOMPARE(code, 0);
    QMap<QString, QString> kv;
    for (const QByteArray& line : out.split('\n'))
        if (line.contains('='))
            kv.insert(
                QString::fromUtf8(line.left(line.indexOf('='))), QString::fromUtf8(line.mid(line.indexOf('=') + 1)));
    SandboxGuard g(SlapdSandbox::load(kv.value("DIR")));
    QVERIFY(g.isValid());
    for (const char* key : { "URI", "PID", "DIR", "TOPOLOGY", "REPLICA1_URI", "REPLICA1_PID", "REPLICA2_URI" })
        QVERIFY2(!kv.value(QLatin1String(key)).isEmpty(), key);
    QCOMPARE(kv.value("TOPOLOGY"), QStringLiteral("replicas"));
    QCOMPARE(kv.value("REPLICA1_ROLE"), QStringLiteral("consumer"));
    QVERIFY(kv.value("REPLICA1_URI") != kv.value("URI"));
    const QList<qint64> pids { kv.value("PID").toLongLong(), kv.value("REPLICA1_PID").toLongLong(),
        kv.value("REPLICA2_PID").toLongLong() };
    for (const qint64 pid : pids)
        QVERIFY(SlapdTools::processAlive(pid));
    QCOMPARE(cli({ "sandbox", "stop", "--dir", kv.value("DIR") }).first, 0);
    for (const qint64 pid : pids)
        QVERIFY2(!SlapdTools::processAlive(pid), qPrintable(QString::number(pid)));
    QVERIFY(!QFileInfo::exists(kv.value("DIR")));
    g.release();
}

void TstSandboxTopology::cliBadTopologies()
{
    QTemporaryDir parent;
    const QList<QStringList> bad {
        { "--replicas", "0" },
        { "--replicas", "9" },
        { "--replicas", "x" },
        { "--topology", "ring" },
        { "--topology", "mirror", "--replicas", "2" },
        { "--replicas", "1", "--tls" },
        { "--topology", "mirror", "--ppolicy-lockout" },
    };
    for (const QStringList& args : bad) {
        const auto r = cli(QStringList { "sandbox", "start", "--dir", parent.path() } + args);
        QVERIFY2(r.first == 2, qPrintable(args.join(u' ')));
    }
    QVERIFY(QDir(parent.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
}

QTEST_GUILESS_MAIN(TstSandboxTopology)
#include "tst_sandboxtopology.moc"
