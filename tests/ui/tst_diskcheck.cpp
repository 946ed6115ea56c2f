// The Disk page's directory check (stat, statvfs, access: on a hung NFS mount they never return) runs off the GUI
// thread: while a check hangs the event loop runs, Start waits for it and nothing starts; its result comes back by a
// queued signal and starts the run; an error comes back next to its field; Cancel drops a hung check.
#include "core/run/proberunner.h"
#include "ui/pages/diskpage.h"

#include <QCoreApplication>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <atomic>

class TestDiskCheck : public QObject
{
    Q_OBJECT
private slots:
    void checkRunsOffTheGuiThread();
    void checkErrorNamesTheField();
    void cancelDropsAHungCheck();

private:
    // A check that says where it ran, then hangs (as a stat on a dead NFS server does) until released.
    struct HungCheck
    {
        std::atomic<QThread*> thread { nullptr };
        QSemaphore entered;
        QSemaphore release;
        DiskPage::SpecCheck fn()
        {
            return [this](const DiskSpec& spec) {
                thread = QThread::currentThread();
                entered.release();
                release.acquire();
                return spec.validate(); // the real check, on the same thread
            };
        }
    };
    static void setUp(DiskPage* page, const QString& dir);
};

void TestDiskCheck::setUp(DiskPage* page, const QString& dir)
{
    page->setDirectory(dir);
    page->setProfile(DiskProfile::SeqWrite);
    page->setSizeText(QStringLiteral("16M"));
    page->setDurationText(QStringLiteral("1"));
    page->setJobFactory([](const DiskSpec&) -> ProbeRunner::Job {
        return [](RunContext&) {
            RunRecord r;
            r.kind = QStringLiteral("disk");
            return r;
        };
    });
}

void TestDiskCheck::checkRunsOffTheGuiThread()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    DiskPage page(&runner);
    QSignalSpy checked(&page, &DiskPage::specChecked);
    QSignalSpy finished(&page, &DiskPage::runFinished);
    HungCheck check;
    page.setSpecCheck(check.fn());
    setUp(&page, tmp.path());

    page.start(); // returns although the check hangs
    QVERIFY(check.entered.tryAcquire(1, 10000));
    QVERIFY(check.thread.load() != nullptr);
    QVERIFY(check.thread.load() != QCoreApplication::instance()->thread());
    QVERIFY(check.thread.load() != QThread::currentThread());

    // The event loop runs while the check hangs.
    bool ticked = false;
    QTimer::singleShot(0, &page, [&ticked] { ticked = true; });
    QTRY_VERIFY(ticked);
    // Start waits for the check: the page counts as running, its Start button is off, a second Start does nothing.
    QVERIFY(page.isRunning());
    QVERIFY(page.isCheckingDirectory());
    QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("startButton"))->isEnabled());
    QVERIFY(page.findChild<QPushButton*>(QStringLiteral("cancelButton"))->isEnabled());
    page.start();
    QCOMPARE(check.entered.available(), 0);
    QCOMPARE(started.count(), 0);
    QCOMPARE(checked.count(), 0);
    QCOMPARE(page.currentRunId(), 0);

    check.release.release();
    QTRY_COMPARE(checked.count(), 1);
    QVERIFY2(checked.at(0).at(0).toBool(), qPrintable(page.errorText()));
    QCOMPARE(started.count(), 1); // started by the queued result, once
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(!page.isRunning());
    QCOMPARE(check.entered.available(), 0); // one check for one Start
}

void TestDiskCheck::checkErrorNamesTheField()
{
    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    DiskPage page(&runner);
    QSignalSpy checked(&page, &DiskPage::specChecked);
    setUp(&page, QStringLiteral("/nonexistent/dirbench-check"));
    page.start();
    QTRY_COMPARE(checked.count(), 1);
    QVERIFY(!checked.at(0).at(0).toBool());
    QVERIFY(!page.isRunning());
    QCOMPARE(page.errorField(), QStringLiteral("dir"));
    QVERIFY2(page.errorText().contains(QStringLiteral("does not exist")), qPrintable(page.errorText()));
    QVERIFY(page.findChild<QPushButton*>(QStringLiteral("startButton"))->isEnabled());
    QCOMPARE(started.count(), 0);
}

void TestDiskCheck::cancelDropsAHungCheck()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    DiskPage page(&runner);
    QSignalSpy checked(&page, &DiskPage::specChecked);
    QSignalSpy finished(&page, &DiskPage::runFinished);
    HungCheck hung;
    page.setSpecCheck(hung.fn());
    setUp(&page, tmp.path());
    page.start();
    QVERIFY(hung.entered.tryAcquire(1, 10000));

    page.cancel(); // the window is free again at once, although the stat never returned
    QVERIFY(!page.isRunning());
    QVERIFY(page.findChild<QPushButton*>(QStringLiteral("startButton"))->isEnabled());
    hung.release.release(); // the mount answers late: its result is dropped

    // A new Start with a check that answers: exactly one run, the new one.
    page.setSpecCheck([](const DiskSpec& spec) { return spec.validate(); });
    page.start();
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(checked.count(), 1);
    QCOMPARE(started.count(), 1);
}

QTEST_MAIN(TestDiskCheck)
#include "tst_diskcheck.moc"
