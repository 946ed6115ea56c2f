// A replicated 389-ds sandbox through the CLI as a script drives it: `sandbox start --server 389ds --replicas 1`
// makes a supplier and a consumer initialised from it (total init, its duration printed); an add on the supplier
// shows on the consumer (polled with a deadline); the replication probe, its consumer discovered from the supplier's
// agreement, with the consumer SIGSTOPped for 3 s: the marker lag and the RUV lag both grow and agree within the
// CSN's 1 s resolution, the agreement's status is read; `sandbox stop` leaves no process and no directory.
#include "core/experiments/replication.h"
#include "core/ldap/ldapsession.h"
#include "core/run/runcontext.h"
#include "core/sandbox/ds389process.h"
#include "core/sandbox/ds389sandbox.h"
#include "core/sandbox/slapdtools.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUrl>

#include <csignal>
#include <memory>
#include <thread>

class TstDs389Replication : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void supplierAndConsumer();
    void frozenConsumerMarkerAndRuvLag();
    void cliDiscoversTheConsumer();
    void stopLeavesNothing();
    void badReplicas();

private:
    QPair<int, QByteArray> cli(const QStringList& args);
    QTemporaryDir m_parent;
    QMap<QString, QString> m_kv; // the replicated sandbox's KEY=VALUE lines
    std::unique_ptr<Ds389Guard> m_guard;
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
    m_guard = std::make_unique<Ds389Guard>(Ds389Sandbox::load(kv.value("DIR")));
    QVERIFY(m_guard->isValid());
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
    m_kv = kv;
}

namespace {

QJsonObject vendorOf(const QJsonValue& interval, const QString& uri)
{
    return interval.toObject().value("consumers").toObject().value(uri).toObject().value("vendor").toObject();
}

} // namespace

void TstDs389Replication::frozenConsumerMarkerAndRuvLag()
{
    if (m_kv.isEmpty())
        QFAIL("no replicated sandbox: supplierAndConsumer failed");
    ReplicationSpec spec;
    spec.supplier = admin(m_kv, m_kv.value("URI"));
    spec.markerDn = "cn=dirbench-marker," + m_kv.value("BASE");
    spec.markerRate = 10;
    spec.durationS = 10; // no consumer named: the supplier's agreement names it
    RunContext ctx;
    RunRecord rec;
    std::thread run([&] { rec = Experiments::runReplication(spec, ctx); });
    const QDeadlineTimer started(60000);
    while (ctx.samplesAdded() < 2 && !started.hasExpired())
        QThread::msleep(10);
    const pid_t consumerPid = pid_t(m_kv.value("REPLICA1_PID").toLongLong());
    ::kill(consumerPid, SIGSTOP); // the injected fault, timed on purpose
    QThread::msleep(3000);
    ::kill(consumerPid, SIGCONT);
    run.join();
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));

    // Discovered: the agreement's host and port are the consumer's.
    const QJsonArray discovered = rec.summary.value("discovered_consumers").toArray();
    QCOMPARE(discovered.size(), 1);
    const QString uri = discovered.first().toString();
    QCOMPARE(QUrl(uri).port(), QUrl(m_kv.value("REPLICA1_URI")).port());
    const QJsonObject c = rec.summary.value("consumers").toObject().value(uri).toObject();
    QVERIFY(c.value("discovered").toBool());
    QCOMPARE(qint64(c.value("markers_seen").toDouble()), qint64(rec.summary.value("markers_written").toDouble()));

    // The server's own figures and the agreement's status.
    const QJsonObject v = c.value("vendor").toObject();
    QCOMPARE(v.value("kind").toString(), QStringLiteral("389ds"));
    QCOMPARE(v.value("resolution_ms").toDouble(), 1000.0);
    QVERIFY2(!v.value("consumer_ruv").toArray().isEmpty(), qPrintable(QJsonDocument(v).toJson()));
    const QJsonObject agreement = v.value("agreement").toObject();
    QVERIFY2(QStringList({ "green", "amber", "red" }).contains(agreement.value("state").toString()),
        qPrintable(QJsonDocument(agreement).toJson()));
    QVERIFY(agreement.value("status_json").toObject().contains("state"));
    QVERIFY(!agreement.value("message").toString().isEmpty());
    QVERIFY2(
        agreement.value("changes_sent_since_startup").toDouble() >= 1, qPrintable(QJsonDocument(agreement).toJson()));
    QCOMPARE(v.value("conflicts").toInt(-1), 0);

    // Both lags grow during the stop, and each reading of the server agrees with the markers' within its tolerance
    // (the CSN's 1 s, two marker periods, the poll and 50 ms).
    double oldest = 0, vendorPeak = 0, measuredAtPeak = 0;
    int pairs = 0;
    for (const QJsonValue iv : rec.intervals) {
        oldest = std::max(oldest,
            iv.toObject().value("consumers").toObject().value(uri).toObject().value("oldest_unseen_s").toDouble());
        const QJsonObject w = vendorOf(iv, uri);
        if (!w.value("lag_ms").isDouble() || !w.value("measured_lag_ms").isDouble())
            continue;
        ++pairs;
        QCOMPARE(w.value("measured_from").toString(), QStringLiteral("marker-entry"));
        const double lag = w.value("lag_ms").toDouble(), measured = w.value("measured_lag_ms").toDouble();
        qInfo("t %.1f s: RUV lag %.0f ms (%s), markers %.0f ms", iv.toObject().value("t").toDouble(), lag,
            qPrintable(w.value("lag_source").toString()), measured);
        QVERIFY(w.value("tolerance_ms").toDouble() <= 1300);
        const QJsonArray range = w.value("measured_lag_range_ms").toArray();
        QCOMPARE(range.size(), 2);
        const double tolerance = w.value("tolerance_ms").toDouble();
        QVERIFY2(lag >= range.at(0).toDouble() - tolerance && lag <= range.at(1).toDouble(1e12) + tolerance,
            "the RUV and the markers disagree");
        QVERIFY(!w.value("vendor_disagrees").toBool());
        if (lag > vendorPeak) {
            vendorPeak = lag;
            measuredAtPeak = measured;
        }
    }
    qInfo("frozen 3 s: behind for at least %.2f s at worst; RUV lag peak %.0f ms (markers %.0f ms), %d pairs", oldest,
        vendorPeak, measuredAtPeak, pairs);
    QVERIFY2(oldest >= 1.5, qPrintable(QString::number(oldest)));
    QVERIFY2(vendorPeak >= 1500, qPrintable(QString::number(vendorPeak)));
    QVERIFY2(measuredAtPeak >= 1000, qPrintable(QString::number(measuredAtPeak)));
    QVERIFY(pairs >= 5);
    QVERIFY(!rec.hasWarning("vendor-lag-disagrees"));
}

// dirbench-cli replication without --consumer: the supplier's agreement names it, the record says so.
void TstDs389Replication::cliDiscoversTheConsumer()
{
    if (m_kv.isEmpty())
        QFAIL("no replicated sandbox: supplierAndConsumer failed");
    const auto [code, out] = cli({ "replication", "--supplier", m_kv.value("URI"), "--marker-dn",
        "cn=dirbench-marker," + m_kv.value("BASE"), "--marker-rate", "10", "--duration", "2", "--bind-dn",
        m_kv.value("BIND_DN"), "--password-file", m_kv.value("PASSWORD_FILE"), "--no-history", "--json", "-" });
    QCOMPARE(code, 0);
    const QJsonObject summary = QJsonDocument::fromJson(out).object().value("summary").toObject();
    const QJsonArray discovered = summary.value("discovered_consumers").toArray();
    QCOMPARE(discovered.size(), 1);
    QCOMPARE(QUrl(discovered.first().toString()).port(), QUrl(m_kv.value("REPLICA1_URI")).port());
    const QJsonObject c = summary.value("consumers").toObject().value(discovered.first().toString()).toObject();
    QCOMPARE(c.value("unseen").toInt(-1), 0);
    QCOMPARE(
        c.value("vendor").toObject().value("agreement").toObject().value("state").toString(), QStringLiteral("green"));
}

void TstDs389Replication::stopLeavesNothing()
{
    if (m_kv.isEmpty())
        QFAIL("no replicated sandbox: supplierAndConsumer failed");
    QCOMPARE(cli({ "sandbox", "stop", "--server", "389ds", "--dir", m_kv.value("DIR") }).first, 0);
    QVERIFY(!SlapdTools::processAlive(m_kv.value("PID").toLongLong()));
    QVERIFY(!SlapdTools::processAlive(m_kv.value("REPLICA1_PID").toLongLong()));
    QVERIFY(!QFileInfo::exists(m_kv.value("DIR")));
    m_guard->reset(); // already stopped: nothing left to do
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
