// The guide's experiments against real demo directories.
#include "core/experiments/guided.h"
#include "core/run/runcontext.h"
#include "ldapfixture.h"

#include <QJsonArray>
#include <QTest>

using namespace LdapFixture;

class TstGuided : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void threadSweep();
    void tlsCost();
    void databaseSize();
};

void TstGuided::init()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): these experiments need a real server");
}

void TstGuided::threadSweep()
{
    QString why;
    SandboxGuard sbx = start(500, false, &why);
    QVERIFY2(sbx, qPrintable(why));
    ThreadSweepSpec s;
    s.load.target = admin(sbx.info());
    s.load.base = sbx->peopleBase;
    s.load.filter = QStringLiteral("uid=user[0-499]");
    s.load.intervalSec = 0.5;
    s.threads = { 1, 2 };
    s.secondsPerPoint = 1;
    RunContext ctx;
    const RunRecord r = Experiments::runThreadSweep(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QCOMPARE(r.kind, QStringLiteral("thread-sweep"));
    const QJsonArray points = r.summary.value(QStringLiteral("points")).toArray();
    QCOMPARE(points.size(), 2);
    QCOMPARE(points.at(1).toObject().value(QStringLiteral("threads")).toInt(), 2);
    for (const auto& p : points)
        QVERIFY(p.toObject().value(QStringLiteral("ops_per_s")).toDouble() > 0);
    QSet<QString> series;
    double lastT = 0;
    for (const auto& v : r.intervals) {
        series.insert(v.toObject().value(QStringLiteral("series")).toString());
        QVERIFY(v.toObject().value(QStringLiteral("t")).toDouble() >= lastT); // one time axis
        lastT = v.toObject().value(QStringLiteral("t")).toDouble();
    }
    QCOMPARE(series, (QSet<QString> { QStringLiteral("threads 1"), QStringLiteral("threads 2") }));
    QVERIFY(r.summary.value(QStringLiteral("reference"))
                .toObject()
                .value(QStringLiteral("source"))
                .toString()
                .contains(QStringLiteral("Table 2")));
}

void TstGuided::tlsCost()
{
    QString why;
    SandboxGuard sbx = start(200, true, &why);
    QVERIFY2(sbx, qPrintable(why));
    TlsCostSpec s;
    s.plain.target = admin(sbx.info());
    s.plain.dnPattern = QStringLiteral("uid=user[0-199],ou=people,dc=example,dc=com");
    s.plain.threads = 1;
    s.tls.uri = sbx->ldapsUri;
    s.tls.caFile = sbx->caFile;
    s.secondsEach = 1;
    RunContext ctx;
    const RunRecord r = Experiments::runTlsCost(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    const double plain = r.summary.value(QStringLiteral("plain_ms_per_bind")).toDouble();
    const double tls = r.summary.value(QStringLiteral("tls_ms_per_bind")).toDouble();
    qInfo("connect + bind: plain %.3f ms, TLS %.3f ms", plain, tls);
    QVERIFY(plain > 0);
    QVERIFY2(tls > plain, "a TLS handshake per bind costs more than none");
    QVERIFY(r.summary.value(QStringLiteral("tls_ops_ratio")).toDouble() < 1.0);
}

void TstGuided::databaseSize()
{
    DatabaseSizeSpec s;
    s.entries = { 200, 2000 };
    s.load.target.uri = QStringLiteral("ldap://127.0.0.1:389");
    s.load.threads = 1;
    s.load.intervalSec = 0.5;
    s.secondsPerPoint = 1;
    RunContext ctx;
    const RunRecord r = Experiments::runDatabaseSize(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    const QJsonArray points = r.summary.value(QStringLiteral("points")).toArray();
    QCOMPARE(points.size(), 2);
    QCOMPARE(points.at(1).toObject().value(QStringLiteral("entries")).toInt(), 2000);
    QCOMPARE(points.at(1).toObject().value(QStringLiteral("errors")).toDouble(), 0.0);
    QVERIFY(points.at(1).toObject().value(QStringLiteral("ops_per_s")).toDouble() > 0);
}

QTEST_GUILESS_MAIN(TstGuided)
#include "tst_guided.moc"
