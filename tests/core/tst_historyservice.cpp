// The GUI's history service (core/store/historyservice) against a real SQLite file in a temporary directory: every
// write is committed on the service's own thread, never on the caller's; flushed() follows each committed batch; a
// run's row says "running" while it goes and its status at the end; calls run in order and the last writes are
// committed before the service goes away; compare (load) and import are jobs that report progress.
#include "core/store/historyservice.h"
#include "core/store/recordfile.h"
#include "core/store/runstore.h"

#include <QMutex>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

class TstHistoryService : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void writesHappenOffTheCallersThread();
    void lastWritesSurviveTheService();
    void listPagesAndCounts();
    void loadAndImportAreJobsWithProgress();
    void unopenableHistorySaysWhy();

private:
    QString path() const { return m_dir->filePath(QStringLiteral("history.sqlite")); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

RunRecord diskRecord(double mbps, const QString& status = QStringLiteral("ok"))
{
    RunRecord r;
    r.kind = QStringLiteral("disk");
    r.status = status;
    r.started = QDateTime::currentDateTime();
    r.summary.insert(QStringLiteral("mb_per_s"), mbps);
    r.intervals.append(QJsonObject { { QStringLiteral("t"), 0.5 }, { QStringLiteral("mb_per_s"), mbps } });
    return r;
}

SampleBatch batch(double t)
{
    Sample s;
    s.t = t;
    s.values.insert(QStringLiteral("mb_per_s"), 100.0 + t);
    return { s };
}

bool hasFlush(const QSignalSpy& spy, qint64 id, const QString& status)
{
    for (const QList<QVariant>& args : spy)
        if (args.at(0).toLongLong() == id && args.at(1).toString() == status)
            return true;
    return false;
}

} // namespace

void TstHistoryService::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TstHistoryService::writesHappenOffTheCallersThread()
{
    HistoryService service;
    QMutex mutex;
    QList<QThread*> writers; // the thread of every commit, seen on that thread
    connect(
        &service, &HistoryService::committedOnWorker, this,
        [&](qint64) {
            QMutexLocker lock(&mutex);
            writers << QThread::currentThread();
        },
        Qt::DirectConnection);
    QSignalSpy opened(&service, &HistoryService::opened);
    QSignalSpy flushed(&service, &HistoryService::flushed);
    QSignalSpy saved(&service, &HistoryService::runSaved);
    service.open(path());
    QTRY_COMPARE(opened.count(), 1);
    QVERIFY2(opened.first().at(0).toBool(), qPrintable(opened.first().at(1).toString()));
    QCOMPARE(service.path(), path());

    const qint64 ticket = service.beginRun(QStringLiteral("disk"), {}, QStringLiteral("as it goes"));
    // Batches as a runner delivers them (every 100 ms); the service writes them about once a second.
    double t = 0;
    QTimer feed;
    connect(&feed, &QTimer::timeout, this, [&] { service.appendSamples(ticket, batch(t += 0.1)); });
    feed.start(100);
    QTRY_VERIFY_WITH_TIMEOUT(flushed.count() >= 2, 10000); // the row begun, then a batch of intervals
    feed.stop();
    const qint64 id = flushed.first().at(0).toLongLong();
    QVERIFY(id > 0);
    QVERIFY(hasFlush(flushed, id, QStringLiteral("running")));
    {
        RunStore reader; // another connection, as dirbench-cli history list would be
        QVERIFY(reader.open(path()));
        QCOMPARE(reader.summary(id)->status, QStringLiteral("running"));
        QCOMPARE(reader.summary(id)->name, QStringLiteral("as it goes"));
        QVERIFY(!reader.load(id)->intervals.isEmpty());
    }
    service.finishRun(ticket, diskRecord(123));
    QTRY_VERIFY(hasFlush(flushed, id, QStringLiteral("ok")));
    QCOMPARE(saved.count(), 1);
    QCOMPARE(saved.first().at(0).toLongLong(), id);
    QCOMPARE(saved.first().at(2).toString(), QStringLiteral("ok"));

    bool listedOnCaller = false;
    service.list({}, this, [&](const HistoryService::Listing& l) {
        listedOnCaller = QThread::currentThread() == thread() && l.total == 1 && l.runs.first().status == u"ok";
    });
    QTRY_VERIFY(listedOnCaller);
    QMutexLocker lock(&mutex);
    QVERIFY(writers.size() >= 3);
    for (QThread* w : std::as_const(writers)) {
        QCOMPARE(w, service.workerThread());
        QVERIFY(w != QThread::currentThread());
    }
}

// Calls made just before the service is destroyed (the window closing right after a run) are all committed.
void TstHistoryService::lastWritesSurviveTheService()
{
    {
        HistoryService service;
        service.open(path());
        const qint64 ticket = service.beginRun(QStringLiteral("disk"), {});
        service.appendSamples(ticket, batch(1));
        service.finishRun(ticket, diskRecord(77, QStringLiteral("cancelled")));
        service.save(diskRecord(88), QStringLiteral("saved last"), nullptr, {});
    }
    RunStore reader;
    QVERIFY(reader.open(path()));
    const auto runs = reader.list();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs.at(1).status, QStringLiteral("cancelled"));
    QCOMPARE(runs.at(0).name, QStringLiteral("saved last"));
}

void TstHistoryService::listPagesAndCounts()
{
    {
        RunStore s;
        QVERIFY(s.open(path()));
        for (int i = 0; i < 620; ++i)
            QVERIFY(s.save(diskRecord(i)) > 0);
    }
    HistoryService service;
    service.open(path());
    QList<HistoryService::Listing> got;
    RunStore::Filter f;
    service.list(f, this, [&](const HistoryService::Listing& l) { got << l; });
    f.offset = RunStore::PageSize;
    service.list(f, this, [&](const HistoryService::Listing& l) { got << l; });
    QTRY_COMPARE(got.size(), 2);
    QCOMPARE(got.at(0).runs.size(), 500);
    QCOMPARE(got.at(0).total, 620);
    QCOMPARE(got.at(1).runs.size(), 120);
    QCOMPARE(got.at(1).total, 620);
    QCOMPARE(got.at(0).kinds, QStringList { QStringLiteral("disk") });
    // A context that is gone gets no answer.
    auto* gone = new QObject;
    bool answered = false;
    service.list({}, gone, [&](const HistoryService::Listing&) { answered = true; });
    delete gone;
    bool later = false;
    service.list({}, this, [&](const HistoryService::Listing&) { later = true; });
    QTRY_VERIFY(later);
    QVERIFY(!answered);
}

void TstHistoryService::loadAndImportAreJobsWithProgress()
{
    const QString a = m_dir->filePath(QStringLiteral("a.json"));
    const QString b = m_dir->filePath(QStringLiteral("b.json"));
    QString why;
    QVERIFY2(RecordFile::write(diskRecord(10), a, &why), qPrintable(why));
    QVERIFY2(RecordFile::write(diskRecord(20), b, &why), qPrintable(why));
    HistoryService service;
    service.open(path());
    QSignalSpy changed(&service, &HistoryService::changed);
    QStringList steps;
    auto progress = [&](double, const QString& what) { steps << what; };
    std::optional<HistoryService::Imported> imported;
    service.importFiles({ a, m_dir->filePath(QStringLiteral("missing.json")), b }, this, progress,
        [&](const HistoryService::Imported& r) { imported = r; });
    QTRY_VERIFY(imported.has_value());
    QCOMPARE(imported->ids.size(), 2);
    QCOMPARE(imported->errors.size(), 1);
    QVERIFY2(imported->errors.first().contains(u"missing.json"), qPrintable(imported->errors.first()));
    QCOMPARE(steps.size(), 3);
    QVERIFY(steps.last().contains(u"3 of 3"));
    QTRY_VERIFY(changed.count() >= 1);

    steps.clear();
    std::optional<HistoryService::Loaded> loaded;
    service.load(imported->ids, this, progress, [&](const HistoryService::Loaded& l) { loaded = l; });
    QTRY_VERIFY(loaded.has_value());
    QVERIFY2(loaded->error.isEmpty(), qPrintable(loaded->error));
    QCOMPARE(loaded->runs.size(), 2);
    QCOMPARE(loaded->runs.at(0).record.summary.value(u"mb_per_s").toDouble(), 10.0);
    QCOMPARE(loaded->runs.at(1).record.summary.value(u"mb_per_s").toDouble(), 20.0);
    QCOMPARE(loaded->runs.at(1).summary.id, imported->ids.at(1));
    QCOMPARE(steps.size(), 2);
    loaded.reset();
    service.load({ imported->ids.first(), 99999 }, this, {}, [&](const HistoryService::Loaded& l) { loaded = l; });
    QTRY_VERIFY(loaded.has_value());
    QVERIFY(loaded->runs.isEmpty());
    QVERIFY2(loaded->error.contains(u"99999"), qPrintable(loaded->error));
}

void TstHistoryService::unopenableHistorySaysWhy()
{
    const QString file = m_dir->filePath(QStringLiteral("plain-file"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    HistoryService service;
    QSignalSpy opened(&service, &HistoryService::opened);
    QSignalSpy failed(&service, &HistoryService::writeFailed);
    service.open(file + QStringLiteral("/below-a-file/history.sqlite"));
    QTRY_COMPARE(opened.count(), 1);
    QVERIFY(!opened.first().at(0).toBool());
    QVERIFY(!service.isOpen());
    QVERIFY(!service.error().isEmpty());
    service.beginRun(QStringLiteral("disk"), {});
    QTRY_COMPARE(failed.count(), 1);
    QVERIFY2(failed.first().at(0).toString().contains(u"not saved"), qPrintable(failed.first().at(0).toString()));
}

QTEST_GUILESS_MAIN(TstHistoryService)
#include "tst_historyservice.moc"
