#include "core/ldap/loadresult.h"
#include "core/store/historysink.h"
#include "core/store/runstore.h"
#include "tests/common/loadfigures.h"

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
    void schemaOneDatabaseIsMigrated();
    void schemaTwoLoadHeadlinesBecomeOkPerSecond();
    void sinkWritesAsItGoes();
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

static QJsonObject loadSummary(double ok, double errors, double seconds)
{
    return testLoadSummary(ok, errors, seconds);
}

static RunRecord loadRecord(const QString& kind, const QJsonObject& summary)
{
    RunRecord r;
    r.kind = kind;
    r.started = QDateTime::currentDateTime();
    r.summary = summary;
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

// A database exactly as schema 1 (DirBench before the history page) wrote it, built by hand with that DDL.
void TstRunStore::schemaOneDatabaseIsMigrated()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v1.sqlite"));
    RunRecord old = record(QStringLiteral("disk"), 321.5);
    old.environment.insert(QStringLiteral("host"), QStringLiteral("ldap-prod-3"));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec("CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, status TEXT NOT "
                       "NULL, name TEXT NOT NULL DEFAULT '', tags TEXT NOT NULL DEFAULT '', started TEXT NOT NULL, "
                       "headline TEXT NOT NULL DEFAULT '', record TEXT NOT NULL)"));
        QVERIFY(q.exec("CREATE TABLE intervals (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, seq "
                       "INTEGER NOT NULL, sample TEXT NOT NULL, PRIMARY KEY (run_id, seq))"));
        QVERIFY(q.exec("CREATE INDEX runs_started ON runs(started)"));
        QVERIFY(q.prepare("INSERT INTO runs (kind, status, name, tags, started, headline, record) VALUES (?, ?, ?, ?, "
                          "?, ?, ?)"));
        q.addBindValue("disk");
        q.addBindValue("ok");
        q.addBindValue("before tuning");
        q.addBindValue("nightly,ssd");
        q.addBindValue(old.started.toString(Qt::ISODateWithMs));
        q.addBindValue("321.5 MB/s");
        q.addBindValue(QString::fromUtf8(old.toJsonBytes()));
        QVERIFY(q.exec());
        // A run that was still going when that DirBench stopped: its intervals only in their table.
        QVERIFY(q.exec("INSERT INTO runs (kind, status, started, record) VALUES ('ldap-search', 'failed', "
                       "'2025-01-02T03:04:05.000', '{\"schema\":\"dirbench.run/1\",\"kind\":\"ldap-search\","
                       "\"status\":\"failed\"}')"));
        QVERIFY(q.exec("INSERT INTO intervals VALUES (2, 0, '{\"t\":1,\"ops_per_s\":1000}'), (2, 1, "
                       "'{\"t\":2,\"ops_per_s\":1100}')"));
        QVERIFY(q.exec("PRAGMA user_version=1"));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v1"));

    RunStore s;
    ProbeError e;
    QVERIFY2(s.open(path, &e), qPrintable(e.message()));
    QCOMPARE(s.schemaVersion(), RunStore::SchemaVersion);
    const auto runs = s.list();
    QCOMPARE(runs.size(), 2);
    const auto byName = s.findByName(QStringLiteral("before tuning"));
    QVERIFY(byName);
    const auto sum = s.summary(*byName);
    QVERIFY(sum);
    QCOMPARE(sum->tags, QStringList({ "nightly", "ssd" }));
    QCOMPARE(sum->headline, QStringLiteral("321.5 MB/s"));
    QCOMPARE(sum->host, QStringLiteral("ldap-prod-3")); // filled from the record by the migration
    RunStore::Filter f;
    f.text = QStringLiteral("prod-3");
    QCOMPARE(s.list(f).size(), 1);
    const auto rec = s.load(*byName);
    QVERIFY(rec);
    QCOMPARE(rec->summary.value(QStringLiteral("mb_per_s")).toDouble(), 321.5);
    const auto unfinished = s.load(2);
    QVERIFY(unfinished);
    QCOMPARE(unfinished->intervals.size(), 2);
    QCOMPARE(unfinished->intervals.at(1).toObject().value(QStringLiteral("ops_per_s")).toDouble(), 1100.0);
    // The name lookup (--baseline NAME) has its index now.
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
    db.setDatabaseName(path);
    QVERIFY(db.open());
    QSqlQuery q(db);
    QVERIFY(q.exec("EXPLAIN QUERY PLAN SELECT id FROM runs WHERE name = 'x' ORDER BY started DESC LIMIT 1"));
    QString plan;
    while (q.next())
        plan += q.value(3).toString() + u'\n';
    QVERIFY2(plan.contains("runs_name"), qPrintable(plan));
    q.finish();
    db.close();
    db = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("check"));
    // New rows carry the host column too.
    RunRecord fresh = record(QStringLiteral("disk"), 10);
    fresh.environment.insert(QStringLiteral("host"), QStringLiteral("lab-1"));
    const qint64 id = s.save(fresh);
    QCOMPARE(s.summary(id)->host, QStringLiteral("lab-1"));
}

// A schema-2 history holds "… ops/s" headlines for LDAP loads (completed operations). Schema 3 computes them again
// from the records: ok/s, derived as ops − errors for records older than the success count, and marked so.
void TstRunStore::schemaTwoLoadHeadlinesBecomeOkPerSecond()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v2.sqlite"));
    QJsonObject older { { "ops", 20000.0 }, { "errors", 500.0 }, { "ops_per_s", 2000.0 }, { "seconds", 10.0 },
        { "latency_ms", QJsonObject { { "p50", 0.5 }, { "p99", 2.0 } } } };
    QJsonObject allFailed { { "ops", 30000.0 }, { "errors", 30000.0 }, { "ops_per_s", 3000.0 } };
    const QJsonArray sweepPoints { QJsonObject { { "threads", 1 }, { "ops_per_s", 900.0 }, { "errors", 100.0 } } };
    RunRecord sweep = loadRecord(QStringLiteral("thread-sweep"),
        { { "points", sweepPoints }, { "best_ops_per_s", 900.0 }, { "best_threads", 1 } });
    sweep.spec.insert(QStringLiteral("seconds_per_point"), 10.0);
    struct Row
    {
        RunRecord record;
        const char* oldHeadline;
        QString newHeadline;
    };
    const QList<Row> rows {
        { loadRecord(QStringLiteral("ldap-search"), older), "2,000.0 ops/s",
            QStringLiteral("1,950.0 ok/s (derived: ops − errors)") },
        { loadRecord(QStringLiteral("ldap-bind"), allFailed), "3,000.0 ops/s",
            QStringLiteral("0.0 ok/s (derived: ops − errors)") },
        { loadRecord(QStringLiteral("ldap-search"), loadSummary(900, 100, 1)), "1,000.0 ops/s",
            QStringLiteral("900.0 ok/s") },
        { sweep, "900.0 ops/s", QStringLiteral("890.0 ok/s (derived: ops − errors)") },
        { record(QStringLiteral("disk"), 321.5), "321.5 MB/s", QStringLiteral("321.5 MB/s") },
    };
    QList<qint64> ids;
    {
        RunStore s;
        QVERIFY(s.open(path));
        for (const Row& r : rows)
            ids << s.save(r.record);
    }
    {
        // As schema 2 left them: the headlines it wrote, user_version 2.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v2"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (int i = 0; i < rows.size(); ++i) {
            QVERIFY(q.prepare(QStringLiteral("UPDATE runs SET headline = ? WHERE id = ?")));
            q.addBindValue(QString::fromUtf8(rows.at(i).oldHeadline));
            q.addBindValue(ids.at(i));
            QVERIFY(q.exec());
        }
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=2")));
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v2"));
    RunStore s;
    ProbeError e;
    QVERIFY2(s.open(path, &e), qPrintable(e.message()));
    QCOMPARE(s.schemaVersion(), 3);
    for (int i = 0; i < rows.size(); ++i)
        QCOMPARE(s.summary(ids.at(i))->headline, rows.at(i).newHeadline);
    // The records themselves are untouched: the derivation is made when they are read.
    QVERIFY(!s.load(ids.at(0))->summary.contains(QStringLiteral("ok")));
}

void TstRunStore::sinkWritesAsItGoes()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    HistorySink sink;
    QVERIFY(sink.open(path));
    const qint64 id = sink.begin(QStringLiteral("ldap-search"), {}, QStringLiteral("nightly"));
    QVERIFY(id > 0);
    RunStore reader;
    QVERIFY(reader.open(path));
    Sample smp;
    smp.t = 1;
    smp.values.insert(QStringLiteral("ops_per_s"), 500.0);
    sink.add({ smp }); // the first batch waits for the flush interval
    QTest::qWait(HistorySink::FlushIntervalMs + 100);
    smp.t = 2;
    sink.add({ smp });
    QCOMPARE(reader.load(id)->intervals.size(), 2); // on disk while the run goes
    QCOMPARE(reader.summary(id)->status, QStringLiteral("failed")); // until it finishes
    RunRecord done;
    done.kind = QStringLiteral("ldap-search");
    done.status = QStringLiteral("cancelled");
    done.started = QDateTime::currentDateTime();
    done.summary = loadSummary(4800, 200, 10);
    QCOMPARE(sink.finish(done), id);
    const auto sum = reader.summary(id);
    QCOMPARE(sum->status, QStringLiteral("cancelled"));
    QCOMPARE(sum->name, QStringLiteral("nightly"));
    QCOMPARE(sum->headline, QStringLiteral("480.0 ok/s")); // successes; 500 ops/s completed
}

QTEST_GUILESS_MAIN(TstRunStore)
#include "tst_runstore.moc"
