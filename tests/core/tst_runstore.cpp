#include "core/ldap/loadresult.h"
#include "core/store/historysink.h"
#include "core/store/processidentity.h"
#include "core/store/runstore.h"
#include "tests/common/loadfigures.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
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
    void deadProcessRunIsInterrupted();
    void liveProcessRunStaysRunning();
    void listPagesPast500();
    void runningRecordImportedIsInterrupted();
};

// The process that "runs" a history row, set by hand (the row was begun by this process).
static void setRunner(const QString& path, qint64 id, const QString& host, qint64 pid, qint64 startMs)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("runner"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        q.prepare(QStringLiteral("UPDATE runs SET runner_host = ?, runner_pid = ?, runner_start = ? WHERE id = ?"));
        q.addBindValue(host);
        q.addBindValue(pid);
        q.addBindValue(startMs);
        q.addBindValue(id);
        QVERIFY(q.exec());
        QCOMPARE(q.numRowsAffected(), 1);
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("runner"));
}

static QString statusAfterOpen(const QString& path, qint64 id, QString* failure = nullptr)
{
    RunStore s;
    if (!s.open(path))
        return QStringLiteral("(cannot open)");
    const auto rec = s.load(id);
    if (failure && rec)
        *failure = rec->failure;
    return s.summary(id)->status + (rec ? QString() : QStringLiteral(" (record unreadable)"));
}

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
    QCOMPARE(r->status, QStringLiteral("running")); // this process still runs: it is not interrupted
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
    // Schema 4: the runner's columns, empty for rows that ran before it (no process to check: never interrupted).
    QVERIFY(q.exec("SELECT runner_host, runner_pid, runner_start, status FROM runs WHERE id = 2"));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QString());
    QCOMPARE(q.value(1).toLongLong(), 0);
    QCOMPARE(q.value(2).toLongLong(), 0);
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
        // Schema 4's columns and index did not exist then.
        for (const char* ddl : { "DROP INDEX runs_status", "ALTER TABLE runs DROP COLUMN runner_host",
                 "ALTER TABLE runs DROP COLUMN runner_pid", "ALTER TABLE runs DROP COLUMN runner_start" })
            QVERIFY2(q.exec(QLatin1String(ddl)), ddl);
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=2")));
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v2"));
    RunStore s;
    ProbeError e;
    QVERIFY2(s.open(path, &e), qPrintable(e.message()));
    QCOMPARE(s.schemaVersion(), RunStore::SchemaVersion); // 3, then 4
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
    QCOMPARE(reader.summary(id)->status, QStringLiteral("running")); // until it finishes
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

// A run whose process is gone: a real child started and waited for (its pid names no process now), and this
// process's own pid with another start time (a pid reused). The next open marks both "interrupted"; a row of
// another host is left alone (its processes cannot be seen from here).
void TstRunStore::deadProcessRunIsInterrupted()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    QProcess child;
    child.start(QStringLiteral("true"), {});
    QVERIFY(child.waitForStarted());
    const qint64 deadPid = child.processId();
    QVERIFY(deadPid > 0);
    QVERIFY(child.waitForFinished());
    QVERIFY(!ProcessIdentity::startOf(deadPid));
    const ProcessIdentity me = ProcessIdentity::self();
    QVERIFY(me.startMs > 0);
    QVERIFY(me.isAlive());
    qint64 dead = 0, reused = 0, elsewhere = 0;
    {
        RunStore s;
        QVERIFY(s.open(path));
        dead = s.beginRun(QStringLiteral("ldap-search"), {});
        reused = s.beginRun(QStringLiteral("disk"), {});
        elsewhere = s.beginRun(QStringLiteral("disk"), {});
        QVERIFY(dead && reused && elsewhere);
        QCOMPARE(s.summary(dead)->status, QStringLiteral("running"));
        QCOMPARE(s.summary(dead)->headline, QStringLiteral("running"));
    }
    setRunner(path, dead, me.host, deadPid, me.startMs);
    setRunner(path, reused, me.host, me.pid, me.startMs - 3600 * 1000);
    setRunner(path, elsewhere, QStringLiteral("another-host.example"), deadPid, me.startMs);
    QString failure;
    QCOMPARE(statusAfterOpen(path, dead, &failure), QStringLiteral("interrupted"));
    QVERIFY2(failure.contains(QString::number(deadPid)), qPrintable(failure));
    QCOMPARE(statusAfterOpen(path, reused), QStringLiteral("interrupted"));
    QCOMPARE(statusAfterOpen(path, elsewhere), QStringLiteral("running"));
    RunStore s;
    QVERIFY(s.open(path));
    QCOMPARE(s.summary(dead)->headline, QStringLiteral("interrupted"));
    QCOMPARE(s.load(dead)->status, QStringLiteral("interrupted")); // the record says so too
    // An interrupted run can still be finished by nobody, but it is saved again as it is when exported/imported.
    QCOMPARE(s.markInterrupted(), 0); // nothing left to mark
}

// A run of a live process (a child that sleeps until it is killed) stays "running" however often the history is
// opened; once the child is killed and reaped, the next open marks it "interrupted".
void TstRunStore::liveProcessRunStaysRunning()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    QProcess child;
    child.start(QStringLiteral("sleep"), { QStringLiteral("600") });
    QVERIFY(child.waitForStarted());
    const qint64 pid = child.processId();
    const auto start = ProcessIdentity::startOf(pid);
    QVERIFY(start);
    qint64 id = 0;
    {
        RunStore s;
        QVERIFY(s.open(path));
        id = s.beginRun(QStringLiteral("ldap-search"), {});
        QVERIFY(id);
    }
    setRunner(path, id, ProcessIdentity::thisHost(), pid, *start);
    QCOMPARE(statusAfterOpen(path, id), QStringLiteral("running"));
    QCOMPARE(statusAfterOpen(path, id), QStringLiteral("running"));
    child.kill();
    QVERIFY(child.waitForFinished());
    QCOMPARE(statusAfterOpen(path, id), QStringLiteral("interrupted"));
}

// 1,203 runs: pages of 500 (offset, limit) cover them all once, newest first; count() says how many match.
void TstRunStore::listPagesPast500()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    RunStore s;
    QVERIFY(s.open(path));
    const QDateTime t0 = QDateTime::currentDateTime();
    for (int i = 0; i < 1203; ++i) {
        RunRecord r = record(i % 3 == 0 ? QStringLiteral("ldap-search") : QStringLiteral("disk"), i);
        r.started = t0.addSecs(i);
        QVERIFY(s.save(r) > 0);
    }
    RunStore::Filter f;
    QCOMPARE(f.limit, 500);
    QCOMPARE(s.count(f), 1203);
    QList<qint64> seen;
    for (f.offset = 0; f.offset < 1203; f.offset += RunStore::PageSize) {
        const auto page = s.list(f);
        QCOMPARE(page.size(), std::min(500, 1203 - f.offset));
        for (const auto& r : page)
            seen << r.id;
    }
    QCOMPARE(QSet<qint64>(seen.begin(), seen.end()).size(), 1203);
    QCOMPARE(seen.first(), qint64(1203)); // newest first
    QCOMPARE(seen.last(), qint64(1));
    RunStore::Filter searches;
    searches.kind = QStringLiteral("ldap-search");
    QCOMPARE(s.count(searches), 401);
    QCOMPARE(s.list(searches).size(), 401);
    QCOMPARE(s.kinds(), (QStringList { QStringLiteral("disk"), QStringLiteral("ldap-search") }));
}

// A record that says "running" (exported while it ran) runs nowhere once imported: it is saved "interrupted".
void TstRunStore::runningRecordImportedIsInterrupted()
{
    QTemporaryDir dir;
    RunStore s;
    QVERIFY(s.open(dir.filePath(QStringLiteral("h.sqlite"))));
    RunRecord r = record(QStringLiteral("disk"), 5);
    r.status = QStringLiteral("running");
    const auto back = RunRecord::fromJson(r.toJson());
    QVERIFY(back);
    const qint64 id = s.save(*back);
    QCOMPARE(s.summary(id)->status, QStringLiteral("interrupted"));
    QCOMPARE(s.load(id)->status, QStringLiteral("interrupted"));
}

QTEST_GUILESS_MAIN(TstRunStore)
#include "tst_runstore.moc"
