#include "core/store/runstore.h"

#include <QFile>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

class TstRunStore : public QObject
{
    Q_OBJECT
private slots:
    void saveListLoad();
    void intervalsSurviveACrash();
    void renameTagDelete();
    void createdPrivate();
    void olderSchemaOpensAndNewerIsRefused();
    void twoWritersAtOnce();
};

static RunRecord record(const QString& kind, double mbps)
{
    RunRecord r;
    r.kind = kind;
    r.started = QDateTime::currentDateTime();
    r.summary.insert(QStringLiteral("mb_per_s"), mbps);
    r.intervals.append(QJsonObject { { QStringLiteral("t"), 0.25 }, { QStringLiteral("mb_per_s"), mbps } });
    return r;
}

void TstRunStore::saveListLoad()
{
    QTemporaryDir dir;
    RunStore s;
    ProbeError e;
    QVERIFY2(s.open(dir.filePath(QStringLiteral("h.sqlite")), &e), qPrintable(e.message()));
    QCOMPARE(s.schemaVersion(), RunStore::SchemaVersion);
    const qint64 a = s.save(record(QStringLiteral("disk"), 123.4), QStringLiteral("before tuning"), &e);
    QVERIFY2(a > 0, qPrintable(e.message()));
    const qint64 b = s.save(record(QStringLiteral("ldap-search"), 0));
    QVERIFY(b > a);
    const auto all = s.list();
    QCOMPARE(all.size(), 2);
    RunStore::Filter f;
    f.kind = QStringLiteral("disk");
    const auto disks = s.list(f);
    QCOMPARE(disks.size(), 1);
    QCOMPARE(disks.first().name, QStringLiteral("before tuning"));
    QCOMPARE(disks.first().headline, QStringLiteral("123.4 MB/s"));
    const auto back = s.load(a);
    QVERIFY(back);
    QCOMPARE(back->kind, QStringLiteral("disk"));
    QCOMPARE(back->summary.value(QStringLiteral("mb_per_s")).toDouble(), 123.4);
    QCOMPARE(back->intervals.size(), 1);
    QCOMPARE(s.findByName(QStringLiteral("before tuning")), std::optional<qint64>(a));
}

void TstRunStore::intervalsSurviveACrash()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    qint64 id = 0;
    {
        RunStore s;
        QVERIFY(s.open(path));
        id = s.beginRun(
            QStringLiteral("disk"), QJsonObject { { QStringLiteral("profile"), QStringLiteral("seq-write") } });
        QVERIFY(id > 0);
        SampleBatch batch;
        for (int i = 0; i < 3; ++i) {
            Sample smp;
            smp.t = 0.25 * (i + 1);
            smp.values.insert(QStringLiteral("mb_per_s"), 100.0 + i);
            batch << smp;
        }
        QVERIFY(s.appendSamples(id, batch));
        // no finishRun: the process "dies" here
    }
    RunStore again;
    QVERIFY(again.open(path));
    const auto r = again.load(id);
    QVERIFY(r);
    QCOMPARE(r->status, QStringLiteral("failed"));
    QVERIFY(r->failure.contains(QStringLiteral("did not finish")));
    QCOMPARE(r->intervals.size(), 3);
    QCOMPARE(r->intervals.last().toObject().value(QStringLiteral("mb_per_s")).toDouble(), 102.0);
    // Finishing it replaces the provisional intervals with the record's own.
    RunRecord fin = record(QStringLiteral("disk"), 101);
    QVERIFY(again.finishRun(id, fin));
    QCOMPARE(again.load(id)->intervals.size(), 1);
    QCOMPARE(again.load(id)->status, QStringLiteral("ok"));
}

void TstRunStore::renameTagDelete()
{
    QTemporaryDir dir;
    RunStore s;
    QVERIFY(s.open(dir.filePath(QStringLiteral("h.sqlite"))));
    const qint64 id = s.save(record(QStringLiteral("disk"), 1));
    QVERIFY(s.rename(id, QStringLiteral("nightly")));
    QVERIFY(s.setTags(id, { QStringLiteral("baseline"), QStringLiteral("prod") }));
    RunStore::Filter f;
    f.tag = QStringLiteral("prod");
    QCOMPARE(s.list(f).size(), 1);
    f.tag = QStringLiteral("pro");
    QCOMPARE(s.list(f).size(), 0); // whole tags only
    QVERIFY(s.remove(id));
    QVERIFY(!s.remove(id));
    QCOMPARE(s.list().size(), 0);
    QVERIFY(!s.load(id));
}

void TstRunStore::createdPrivate()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/h.sqlite"));
    RunStore s;
    QVERIFY(s.open(path));
    s.save(record(QStringLiteral("disk"), 1));
    QCOMPARE(QFile::permissions(path)
            & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteGroup | QFileDevice::WriteOther),
        QFileDevice::Permissions());
}

void TstRunStore::olderSchemaOpensAndNewerIsRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    {
        // A database as an older DirBench left it: no tables yet, user_version 0.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("old"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery(db).exec(QStringLiteral("CREATE TABLE notes (x TEXT)"));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("old"));
    {
        RunStore s;
        QVERIFY(s.open(path));
        QCOMPARE(s.schemaVersion(), RunStore::SchemaVersion);
        QVERIFY(s.save(record(QStringLiteral("disk"), 1)) > 0);
    }
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("new"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery(db).exec(QStringLiteral("PRAGMA user_version=99"));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("new"));
    RunStore s;
    ProbeError e;
    QVERIFY(!s.open(path, &e));
    QVERIFY2(e.detail.contains(QStringLiteral("newer")), qPrintable(e.detail));
}

void TstRunStore::twoWritersAtOnce()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    RunStore a, b;
    QVERIFY(a.open(path));
    QVERIFY(b.open(path));
    for (int i = 0; i < 50; ++i) {
        QVERIFY(a.save(record(QStringLiteral("disk"), i)) > 0);
        QVERIFY(b.save(record(QStringLiteral("ldap-search"), i)) > 0);
    }
    QCOMPARE(a.list().size(), 100);
}

QTEST_GUILESS_MAIN(TstRunStore)
#include "tst_runstore.moc"
