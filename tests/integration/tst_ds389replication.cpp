// A replicated 389-ds sandbox through the CLI as a script drives it: `sandbox start --server 389ds --replicas 1`
// makes a supplier and a consumer initialised from it (total init, its duration printed); an add on the supplier
// shows on the consumer (polled with a deadline); `sandbox stop` leaves no process and no directory.
#include "core/ldap/ldapsession.h"
#include "core/sandbox/ds389process.h"
#include "core/sandbox/ds389sandbox.h"
#include "core/sandbox/slapdtools.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

class TstDs389Replication : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void supplierAndConsumer();
    void badReplicas();

private:
    QPair<int, QByteArray> cli(const QStringList& args);
    QTemporaryDir m_parent;
};

void TstDs389Replication::initTestCase()
{
    if (const QString why = Ds389Sandbox::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable(QStringLiteral("389-ds cannot be tested: ") + why));
    QVERIFY(m_parent.isValid());
}

QPair<int, QByteArray> TstDs389Replication::cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    if (!p.waitForFinished(240000)) {
        p.kill();
        p.waitForFinished();
        return { -1, {} };
    }
    if (p.exitCode() != 0)
        qWarning("%s", p.readAllStandardError().constData());
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput() };
}

namespace {

LdapTarget admin(const QMap<QString, QString>& kv, const QString& uri)
{
    LdapTarget t;
    t.uri = uri;
    t.auth = LdapTarget::Auth::Simple;
    t.bindDn = kv.value(QStringLiteral("BIND_DN"));
    QFile f(kv.value(QStringLiteral("PASSWORD_FILE")));
    if (f.open(QIODevice::ReadOnly))
        t.password = f.readAll().trimmed();
    return t;
}

bool visible(LdapSession& s, const QString& dn, const QString& filter, int ms)
{
    const QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired()) {
        QList<LdapSession::Entry> found;
        if (!s.search(dn, LdapSession::Base, filter, { QStringLiteral("cn") }, &found).isError() && found.size() == 1)
            return true;
        QThread::msleep(20);
    }
    return false;
}

} // namespace

void TstDs389Replication::supplierAndConsumer()
{
    const auto [code, out] = cli(
        { "sandbox", "start", "--server", "389ds", "--replicas", "1", "--entries", "1000", "--dir", m_parent.path() });
    QCOMPARE(code, 0);
    QMap<QString, QString> kv;
    for (const QByteArray& line : out.split('\n'))
        if (line.contains('='))
            kv.insert(
                QString::fromUtf8(line.left(line.indexOf('='))), QString::fromUtf8(line.mid(line.indexOf('=') + 1)));
    Ds389Guard g(Ds389Sandbox::load(kv.value("DIR")));
    QVERIFY(g.isValid());
    QCOMPARE(kv.value("TOPOLOGY"), QStringLiteral("replicas"));
    QCOMPARE(kv.value("REPLICA1_ROLE"), QStringLiteral("consumer"));
    QVERIFY(kv.value("INIT_SECONDS").toDouble() > 0);
    const QString consumerUri = kv.value("REPLICA1_URI");
    QVERIFY(!consumerUri.isEmpty() && consumerUri != kv.value("URI"));
    const qint64 consumerPid = kv.value("REPLICA1_PID").toLongLong();
    QVERIFY(Ds389Process::isServer(consumerPid, Ds389Sandbox::configDir(kv.value("REPLICA1_DIR"))));

    LdapSession consumer, supplier;
    QVERIFY(!consumer.open(admin(kv, consumerUri)).isError()); // the supplier's password works there too
    QVERIFY(!supplier.open(admin(kv, kv.value("URI"))).isError());
    // The consumer was made with one entry: the 1,000 came by the total init.
    QVERIFY(visible(consumer, "uid=user999," + kv.value("PEOPLE_BASE"), "(objectClass=*)", 1000));
    // A modify (LdapSession has no synchronous add): the description of uid=user5 replaced on the supplier.
    const ProbeError e
        = supplier.modifyReplace("uid=user5," + kv.value("PEOPLE_BASE"), "description", { "replicated" });
    QVERIFY2(!e.isError(), qPrintable(e.message()));
    QVERIFY(visible(consumer, "uid=user5," + kv.value("PEOPLE_BASE"), "(description=replicated)", 30000));

    QCOMPARE(cli({ "sandbox", "stop", "--server", "389ds", "--dir", kv.value("DIR") }).first, 0);
    QVERIFY(!SlapdTools::processAlive(kv.value("PID").toLongLong()));
    QVERIFY(!SlapdTools::processAlive(consumerPid));
    QVERIFY(!QFileInfo::exists(kv.value("DIR")));
    g.reset(); // already stopped: nothing left to do
}

void TstDs389Replication::badReplicas()
{
    for (const char* n : { "0", "2", "x" }) {
        const auto r = cli({ "sandbox", "start", "--server", "389ds", "--replicas", n, "--dir", m_parent.path() });
        QCOMPARE(r.first, 2);
    }
    QVERIFY(QDir(m_parent.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
}

QTEST_GUILESS_MAIN(TstDs389Replication)
#include "tst_ds389replication.moc"
