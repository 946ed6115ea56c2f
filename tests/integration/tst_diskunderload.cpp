// The seed's experiment: the disk test alone, then beside an LDAP load on a real slapd, in one record.
#include "core/experiments/diskunderload.h"
#include "core/run/runcontext.h"
#include "ldapfixture.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace LdapFixture;

class TstDiskUnderLoad : public QObject
{
    Q_OBJECT
private slots:
    void bothSeriesOnOneTimeAxis();
    void badLoadIsRefusedBeforeTheDiskRuns();
};

void TstDiskUnderLoad::bothSeriesOnOneTimeAxis()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): this test needs a real server");
    QString why;
    SandboxGuard sbx = start(1000, false, &why);
    QVERIFY2(sbx, qPrintable(why));
    QTemporaryDir dir;
    DiskUnderLoadSpec u;
    u.disk.profile = DiskProfile::RandRead;
    u.disk.dir = dir.path();
    u.disk.sizeBytes = 16 * 1024 * 1024;
    u.disk.durationSec = 1.5;
    u.disk.queueDepth = 4;
    u.load.target = admin(sbx.info());
    u.load.base = sbx->peopleBase;
    u.load.filter = QStringLiteral("uid=user[0-999]");
    u.load.threads = 1;
    u.load.intervalSec = 0.5;
    u.leadSeconds = 1;
    RunContext ctx;
    const RunRecord r = Experiments::runDiskUnderLoad(u, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QCOMPARE(r.kind, QStringLiteral("disk-under-load"));
    QMap<QString, QList<double>> times;
    for (const auto& v : r.intervals) {
        const QJsonObject o = v.toObject();
        times[o.value(QStringLiteral("series")).toString()] << o.value(QStringLiteral("t")).toDouble();
    }
    QCOMPARE(times.keys(),
        (QStringList { QStringLiteral("disk (idle)"), QStringLiteral("disk (under load)"), QStringLiteral("ldap") }));
    // One time axis: the loaded disk test starts after the idle one ended and while the load runs.
    QVERIFY(times["disk (under load)"].first() > times["disk (idle)"].last());
    QVERIFY(times["ldap"].first() < times["disk (under load)"].first());
    QVERIFY(times["ldap"].last() >= times["disk (under load)"].last() - 0.6);
    QVERIFY(r.summary.value(QStringLiteral("disk_idle")).toObject().value(QStringLiteral("iops")).toDouble() > 0);
    QVERIFY(r.summary.value(QStringLiteral("disk_loaded")).toObject().value(QStringLiteral("iops")).toDouble() > 0);
    QVERIFY(r.summary.value(QStringLiteral("ldap")).toObject().value(QStringLiteral("ops")).toDouble() > 0);
    QCOMPARE(r.summary.value(QStringLiteral("ldap")).toObject().value(QStringLiteral("errors")).toDouble(), 0.0);
    QVERIFY(r.summary.value(QStringLiteral("change")).toObject().value(QStringLiteral("iops_pct")).isDouble());
    QCOMPARE(r.server.toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("openldap"));
    QVERIFY(QDir(dir.path()).isEmpty());
    // What the live view saw is what the record keeps.
    QCOMPARE(ctx.takeSamples().size(), r.intervals.size());
}

void TstDiskUnderLoad::badLoadIsRefusedBeforeTheDiskRuns()
{
    QTemporaryDir dir;
    DiskUnderLoadSpec u;
    u.disk.profile = DiskProfile::SeqWrite;
    u.disk.dir = dir.path();
    u.disk.sizeBytes = 1024 * 1024;
    u.load.target.uri = QStringLiteral("ldap://127.0.0.1:1");
    u.load.base = QStringLiteral("dc=example,dc=com");
    u.load.filter = QStringLiteral("(uid=");
    RunContext ctx;
    const RunRecord r = Experiments::runDiskUnderLoad(u, ctx);
    QCOMPARE(r.status, QStringLiteral("failed"));
    QVERIFY2(r.failure.startsWith(QStringLiteral("filter: ")), qPrintable(r.failure));
    QVERIFY(r.intervals.isEmpty()); // nothing ran
}

QTEST_GUILESS_MAIN(TstDiskUnderLoad)
#include "tst_diskunderload.moc"
