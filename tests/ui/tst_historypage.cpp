#include "core/run/proberunner.h"
#include "core/run/runcontext.h"
#include "core/store/historyservice.h"
#include "core/store/recordfile.h"
#include "core/store/runrecorder.h"
#include "ui/charts/overlaychartview.h"
#include "ui/mainwindow.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/diskresultmodel.h"
#include "ui/models/historymodel.h"
#include "ui/pages/diskpage.h"
#include "ui/pages/historypage.h"
#include "ui/reportexport.h"
#include "ui/reportexportdialog.h"
#include "ui/widgets/historyfilterbar.h"
#include "ui/widgets/savedrunbanner.h"
#include "ui/widgets/savedruninputs.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <cmath>
#include <utility>

namespace {

// Where the GUI's history does its SQLite work, seen on the thread that does it (the service's signals emitted on
// its worker, connected directly): every read and every commit, and how many of them ran on the GUI thread.
struct SqlThreads
{
    explicit SqlThreads(HistoryService* service)
        : gui(QThread::currentThread())
    {
        QObject::connect(
            service, &HistoryService::readOnWorker, service,
            [this](qint64 id) {
                onGui += QThread::currentThread() == gui ? 1 : 0;
                if (id > 0)
                    ++runsRead;
            },
            Qt::DirectConnection);
        QObject::connect(
            service, &HistoryService::committedOnWorker, service,
            [this](qint64) { onGui += QThread::currentThread() == gui ? 1 : 0; }, Qt::DirectConnection);
    }
    QThread* gui;
    std::atomic<int> runsRead { 0 };
    std::atomic<int> onGui { 0 };
};

QString pdfText(const QString& pdf)
{
    QProcess t;
    t.start(QStringLiteral("pdftotext"), { pdf, QStringLiteral("-") });
    if (!t.waitForFinished(30000) || t.exitCode() != 0)
        return {};
    return QString::fromUtf8(t.readAllStandardOutput()).simplified();
}

} // namespace

// The History page offscreen: records made by a real dirbench-cli are dropped on the main window (a real
// QDropEvent with file URLs), filtered, renamed, compared and deleted; a GUI run is saved as it goes.
class TstHistoryPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void dropFilterRenameCompareDelete();
    void openFromTheHistoryShowsItReadOnly();
    void reportOfTwoSelectedRuns();
    void guiRunIsSavedAsItGoes();
    void pagesPast500();

private:
    QList<qint64> importInto(HistoryPage* page, const QStringList& files);
    QString cliRecord(const QString& name, const QString& profile);
    void drop(QWidget* target, const QStringList& files);

    QTemporaryDir m_tmp;
    QStringList m_records;
};

QString TstHistoryPage::cliRecord(const QString& name, const QString& profile)
{
    const QString json = m_tmp.filePath(name);
    QStringList args { "disk", "--dir", m_tmp.path(), "--profile", profile, "--size", "8M", "--duration", "1",
        "--interval", "0.1", "--quiet", "--no-history", "--json", json };
    if (profile != u"commit") // commit has one write in flight: it refuses --qd
        args << "--qd"
             << "4";
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    return json;
}

void TstHistoryPage::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    QFile::remove(RunStore::defaultPath()); // this test's own database (tests/CMakeLists.txt)
    m_records << cliRecord("qd4-a.json", "rand-read") << cliRecord("qd4-b.json", "rand-read")
              << cliRecord("commit.json", "commit");
    for (const QString& r : std::as_const(m_records))
        QVERIFY2(!r.isEmpty(), "dirbench-cli disk --json failed");
}

void TstHistoryPage::drop(QWidget* target, const QStringList& files)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& f : files)
        urls << QUrl::fromLocalFile(f);
    mime.setUrls(urls);
    const QPoint at(target->width() / 2, target->height() / 2);
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent dropEvent(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &dropEvent);
    QVERIFY(dropEvent.isAccepted());
}

void TstHistoryPage::dropFilterRenameCompareDelete()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    HistoryPage* page = window.historyPage();
    QAbstractItemModelTester historyTester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester comparisonTester(
        page->comparisonModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy listed(page, &HistoryPage::listed);
    page->refresh(); // the list asked for when the page was made may be shown already
    QTRY_VERIFY(listed.count() >= 1); // the first list comes from the history's thread
    QVERIFY2(page->storeError().isEmpty(), qPrintable(page->storeError()));
    const int before = page->model()->rowCount();

    // A broken file among good ones: the good ones are imported, the message names the file and the field.
    const QString broken = m_tmp.filePath("broken.json");
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"schema":"dirbench.run/1","kind":"disk","started":"2026-01-01T00:00:00.000","intervals":{}})");
    f.close();
    QSignalSpy imported(page, &HistoryPage::importFinished);
    drop(&window, m_records + QStringList { broken });
    QTRY_COMPARE(imported.count(), 1);
    QCOMPARE(imported.first().at(0).toInt(), 3);
    QTRY_COMPARE(page->model()->rowCount(), before + 3);
    QTRY_COMPARE(page->selectedIds().size(), 3); // the imported runs are selected
    QVERIFY2(page->lastMessage().contains("broken.json") && page->lastMessage().contains("intervals"),
        qPrintable(page->lastMessage()));
    QCOMPARE(window.currentPage(), page); // the drop brought the page forward

    // Filter by kind and by text (debounced as the user types).
    page->filterBar()->setKind("ldap-search");
    QTRY_COMPARE(page->model()->rowCount(), 0);
    page->filterBar()->setKind("disk");
    QTRY_COMPARE(page->model()->rowCount(), before + 3);
    page->filterBar()->setText("no such host or name");
    QTRY_COMPARE(page->model()->rowCount(), 0);
    page->filterBar()->setText("");
    QTRY_COMPARE(page->model()->rowCount(), before + 3);

    // Rename and tag; the table shows it and the tag filter finds it.
    const HistoryModel* m = page->model();
    QList<qint64> randReads;
    qint64 commit = 0;
    for (const RunStore::Summary& s : m->runs()) {
        if (s.headline.endsWith("commits/s"))
            commit = s.id;
        else if (s.headline.endsWith("IOPS"))
            randReads.prepend(s.id); // oldest first
    }
    QCOMPARE(randReads.size(), 2);
    QVERIFY(commit > 0);
    page->renameRun(randReads.at(0), "before tuning");
    page->renameRun(randReads.at(1), "after tuning");
    page->setRunTags(randReads.at(1), { "nightly", "ssd" });
    QTRY_COMPARE(
        m->data(m->index(m->rowOf(randReads.at(1)), HistoryModel::Tags)).toString(), QStringLiteral("nightly, ssd"));
    const int row = m->rowOf(randReads.at(0));
    QCOMPARE(m->data(m->index(row, HistoryModel::Name)).toString(), QStringLiteral("before tuning"));
    page->filterBar()->setTag("ssd");
    QTRY_COMPARE(page->model()->rowCount(), 1);
    QCOMPARE(m->data(m->index(0, HistoryModel::Tags)).toString(), QStringLiteral("nightly, ssd"));
    page->filterBar()->setTag("");
    QTRY_COMPARE(page->model()->rowCount(), before + 3);

    // Compare the two rand-read runs: one line each on the chart, and the table's Δ is the records' own numbers.
    page->selectRuns(randReads);
    QCOMPARE(page->selectedIds().size(), 2);
    QVERIFY(page->findChild<QPushButton*>("historyCompare")->isEnabled());
    QSignalSpy compared(page, &HistoryPage::compareFinished);
    page->findChild<QPushButton*>("historyCompare")->click();
    QTRY_COMPARE(compared.count(), 1);
    QVERIFY(compared.first().at(0).toBool());
    const ComparisonModel* c = page->comparisonModel();
    QCOMPARE(c->runCount(), 2);
    QCOMPARE(c->headerData(1, Qt::Horizontal).toString(), QStringLiteral("before tuning"));
    QCOMPARE(c->headerData(2, Qt::Horizontal).toString(), QStringLiteral("after tuning"));
    const int iops = c->rowOf("iops");
    QCOMPARE(iops, 0); // the headline first
    QString why;
    const auto a = RecordFile::read(m_records.at(0), &why);
    const auto b = RecordFile::read(m_records.at(1), &why);
    const double ia = a->summary.value("iops").toDouble(), ib = b->summary.value("iops").toDouble();
    QVERIFY(ia > 0 && ib > 0);
    QVERIFY(qAbs(c->data(c->index(iops, 3), Qt::UserRole).toDouble() - (ib - ia) / ia * 100.0) < 1e-9);
    // Better or worse only beyond the runs' own spread (their intervals): otherwise "within noise"; within 0.05 %
    // "same" (two short disk runs can land that close).
    const double gain = (ib - ia) / ia * 100.0;
    const Comparison::Delta& d = c->deltas(1).first();
    QCOMPARE(d.key, QStringLiteral("iops"));
    QVERIFY2(d.noisePct && *d.noisePct > 0, "two disk runs with intervals have a spread");
    const char* verdict = std::abs(gain) < 0.05 ? "same"
        : std::abs(gain) <= *d.noisePct         ? "within noise"
        : gain > 0                              ? "better"
                                                : "worse";
    QVERIFY2(c->data(c->index(iops, 3)).toString().contains(verdict),
        qPrintable(c->data(c->index(iops, 3)).toString() + QStringLiteral(" for %1 %").arg(gain)));
    QCOMPARE(page->overlayChart()->lineCount(), 2);
    QCOMPARE(page->overlayChart()->metricKey(), QStringLiteral("iops"));
    QVERIFY2(page->settingsDiffText().contains(QStringLiteral("within noise")), qPrintable(page->settingsDiffText()));

    // Three runs, one of them a commit test (commits/s are IOPS in its intervals too): three lines, three value
    // columns and two Δ columns.
    QVERIFY(page->compareRuns(randReads + QList<qint64> { commit }));
    QTRY_COMPARE(compared.count(), 2);
    QCOMPARE(page->comparisonModel()->columnCount(), 1 + 3 + 2);
    QCOMPARE(page->overlayChart()->lineCount(), 3);
    // the commit run was set up differently: the settings that differ are listed
    QVERIFY2(
        page->settingsDiffText().contains(QStringLiteral("rand-read → commit")), qPrintable(page->settingsDiffText()));
    QVERIFY(!page->compareRuns({ commit })); // one run is not a comparison
    QVERIFY(page->lastMessage().contains("two or more"));

    // Delete asks first; Cancel keeps the run, Yes deletes it.
    page->selectRuns({ commit });
    page->findChild<QPushButton*>("historyDelete")->click();
    auto* box = page->findChild<QMessageBox*>("historyDeleteConfirm");
    QVERIFY(box);
    QSignalSpy deleted(page, &HistoryPage::deleteFinished);
    box->button(QMessageBox::Cancel)->click();
    QCOMPARE(page->model()->rowOf(commit) >= 0, true);
    QCOMPARE(deleted.count(), 0);
    QTRY_VERIFY(!page->findChild<QMessageBox*>("historyDeleteConfirm"));
    page->findChild<QPushButton*>("historyDelete")->click();
    box = page->findChild<QMessageBox*>("historyDeleteConfirm");
    QVERIFY(box);
    box->button(QMessageBox::Yes)->click();
    QTRY_COMPARE(deleted.count(), 1);
    QCOMPARE(deleted.first().at(0).toInt(), 1);
    QTRY_COMPARE(page->model()->rowOf(commit), -1);

    // Export: a private file that reads back as the same record.
    const QString out = m_tmp.filePath("export.json");
    QSignalSpy exported(page, &HistoryPage::exportFinished);
    page->exportRun(randReads.at(0), out);
    QTRY_COMPARE(exported.count(), 1);
    QVERIFY2(exported.first().at(0).toBool(), qPrintable(page->lastMessage()));
    QVERIFY(!QFileInfo(out).permissions().testFlag(QFileDevice::ReadOther));
    const auto back = RecordFile::read(out, &why);
    QVERIFY2(back, qPrintable(why));
    QCOMPARE(back->summary.value("iops").toDouble(), ia);
}

// Imports the files through the page and returns the new runs (the page selects them once listed).
QList<qint64> TstHistoryPage::importInto(HistoryPage* page, const QStringList& files)
{
    QSignalSpy imported(page, &HistoryPage::importFinished);
    page->importFiles(files);
    if (!imported.wait(30000) || imported.first().at(0).toInt() != files.size())
        return {};
    if (!QTest::qWaitFor([&] { return page->selectedIds().size() == files.size(); }, 10000))
        return {};
    return page->selectedIds();
}

// A double-click on a disk run in the history shows it in the Disk page, read-only, with the banner naming the run;
// the run is read on the history's thread, never on this one.
void TstHistoryPage::openFromTheHistoryShowsItReadOnly()
{
    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    MainWindow window(&runner);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    HistoryPage* page = window.historyPage();
    SqlThreads sql(page->service());
    window.findChild<QTabWidget*>("pageTabs")->setCurrentWidget(page);
    const QList<qint64> ids = importInto(page, { m_records.at(0) });
    QCOMPARE(ids.size(), 1);
    const qint64 id = ids.first();
    QVERIFY(page->findChild<QPushButton*>("historyOpen")->isEnabled());

    QSignalSpy opened(&window, &MainWindow::recordOpened);
    const int reads = sql.runsRead.load();
    QTableView* table = page->table();
    const QRect cell = table->visualRect(page->model()->index(page->model()->rowOf(id), HistoryModel::Name));
    QVERIFY(cell.isValid());
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center()); // the press a double-click follows
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_COMPARE(opened.count(), 1);
    QVERIFY2(opened.first().at(0).toBool(), qPrintable(opened.first().at(1).toString()));

    DiskPage* disk = window.diskPage();
    QCOMPARE(window.currentPage(), disk);
    QVERIFY(disk->resultModel()->rowCount() >= 1);
    QVERIFY(disk->resultModel()->index(0, DiskResultModel::MbPerSec).data(DiskResultModel::ValueRole).toDouble() > 0);
    QVERIFY(disk->chartPointCount() > 0);
    const QString banner = window.savedRunBanner()->text();
    QVERIFY(!window.savedRunBanner()->isHidden());
    QVERIFY2(banner.contains(QStringLiteral("from the history, run %1").arg(id)), qPrintable(banner));
    // Read-only: nothing ran, and the run did not become the Disk page's own.
    QCOMPARE(started.count(), 0);
    QVERIFY(!disk->isRunning());
    QVERIFY(disk->lastRecord().kind.isEmpty());
    QVERIFY(sql.runsRead.load() > reads); // loaded through the service...
    QCOMPARE(sql.onGui.load(), 0); // ...on its thread: no read, no commit on the GUI thread
    // The run's own inputs, read-only, in place of the form (which keeps the user's settings), and a Close.
    QVERIFY(disk->isShowingSaved());
    QVERIFY(disk->savedInputs()->isVisible());
    QVERIFY(!disk->form()->isVisible());
    QCOMPARE(disk->savedInputs()->value(QStringLiteral("profile")), QStringLiteral("rand-read"));
    QVERIFY(!disk->findChild<QPushButton*>("startButton")->isEnabled());
    disk->savedInputs()->closeButton()->click();
    QVERIFY(!disk->isShowingSaved());
    QVERIFY(disk->form()->isVisible());
    QVERIFY(!disk->savedInputs()->isVisible());
    QVERIFY(disk->findChild<QPushButton*>("startButton")->isEnabled());
    QVERIFY(window.savedRunBanner()->isHidden());
    QCOMPARE(disk->chartPointCount(), 0); // the saved run's results went with it
    QCOMPARE(started.count(), 0);
}

// Two selected runs, "Export report…" on the History page: they are loaded on the service, offered in the report
// dialog by name, and the PDF written names both; File → Export report… on the page exports the selection too.
void TstHistoryPage::reportOfTwoSelectedRuns()
{
    if (QStandardPaths::findExecutable("pdftotext").isEmpty())
        QFAIL("pdftotext is not installed: scripts/deps.sh --test installs poppler-utils");
    ProbeRunner runner;
    MainWindow window(&runner);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    HistoryPage* page = window.historyPage();
    SqlThreads sql(page->service());
    window.findChild<QTabWidget*>("pageTabs")->setCurrentWidget(page);
    const QList<qint64> ids = importInto(page, { m_records.at(1), m_records.at(2) });
    QCOMPARE(ids.size(), 2);
    const QStringList names { QStringLiteral("Tuned array rand-read"), QStringLiteral("Journal commit check") };
    page->renameRun(ids.at(0), names.at(0));
    page->renameRun(ids.at(1), names.at(1));
    const HistoryModel* m = page->model();
    QTRY_COMPARE(m->data(m->index(m->rowOf(ids.at(1)), HistoryModel::Name)).toString(), names.at(1));
    QCOMPARE(m->data(m->index(m->rowOf(ids.at(0)), HistoryModel::Name)).toString(), names.at(0));
    page->selectRuns(ids);
    QCOMPARE(page->selectedIds().size(), 2);

    // The dialog is modal (exec): fill it in once it is up, as a user would, and press Export.
    const QString pdf = m_tmp.filePath("history-report.pdf");
    QStringList offered;
    QTimer driver;
    connect(&driver, &QTimer::timeout, this, [&] {
        auto* dialog = page->findChild<ReportExportDialog*>();
        if (!dialog || !dialog->isVisible())
            return;
        driver.stop();
        for (int i = 0; i < dialog->runList()->count(); ++i)
            offered << dialog->runList()->item(i)->text();
        dialog->titleEdit()->setText(QStringLiteral("Storage review from the history"));
        dialog->pathEdit()->setText(pdf);
        dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    });
    driver.start(20);
    // The job starts as the dialog closes; catch it then, and its end (queued here from its thread).
    bool jobStarted = false;
    QList<std::pair<bool, QString>> written;
    connect(page, &HistoryPage::reportExportStarted, this, [&](const QString& path) {
        auto* job = page->findChild<ReportExport::Job*>();
        jobStarted = job && path == pdf;
        if (jobStarted)
            connect(job, &ReportExport::Job::finished, this, [&](bool ok, const QString& pathOrError) {
                written.append({ ok, pathOrError });
            });
    });
    const int reads = sql.runsRead.load();
    window.findChild<QAction*>("exportReportAction")->trigger(); // the History page is current, with a selection
    QTRY_VERIFY_WITH_TIMEOUT(jobStarted, 30000);
    QVERIFY(!driver.isActive());
    QCOMPARE(offered.size(), 2);
    QVERIFY2(offered.join(u'|').contains(names.at(0)) && offered.join(u'|').contains(names.at(1)),
        qPrintable(offered.join(u'|')));
    QTRY_COMPARE_WITH_TIMEOUT(written.size(), 1, 60000);
    QVERIFY2(written.first().first, qPrintable(written.first().second));
    QCOMPARE(written.first().second, pdf);
    const QString text = pdfText(pdf);
    QVERIFY2(text.contains(QStringLiteral("Storage review from the history")), qPrintable(text.left(400)));
    for (const QString& name : names)
        QVERIFY2(text.contains(name), qPrintable(name + QStringLiteral(" not in: ") + text.left(600)));
    QCOMPARE(sql.runsRead.load() - reads, 2); // both runs loaded through the service
    QCOMPARE(sql.onGui.load(), 0); // no read, no commit (the renames) on the GUI thread
}

void TstHistoryPage::guiRunIsSavedAsItGoes()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    HistoryPage* page = window.historyPage();
    QSignalSpy listed(page, &HistoryPage::listed);
    page->refresh(); // the list asked for when the page was made may be shown already
    QTRY_VERIFY(listed.count() >= 1);
    RunStore reader;
    QVERIFY(reader.open());
    const int before = page->model()->rowCount();
    QSignalSpy saved(RunRecorder::of(&runner), &RunRecorder::runSaved);
    QSignalSpy flushed(RunRecorder::of(&runner)->service(), &HistoryService::flushed);
    // Every commit of the GUI's history happens on the service's thread, never on this (the GUI) thread.
    std::atomic<int> commits { 0 }, onGuiThread { 0 };
    QThread* gui = QThread::currentThread();
    connect(
        RunRecorder::of(&runner)->service(), &HistoryService::committedOnWorker, this,
        [&, gui](qint64) {
            ++commits;
            onGuiThread += QThread::currentThread() == gui ? 1 : 0;
        },
        Qt::DirectConnection);
    std::atomic<bool> release { false };
    const int id = runner.start([&release](RunContext& ctx) {
        for (int i = 0; !release.load() && i < 400 && !ctx.stopRequested(); ++i) {
            Sample s;
            s.t = i * 0.05;
            s.values.insert("ops_per_s", 1000.0 + i);
            ctx.addSample(s);
            QThread::msleep(50);
        }
        RunRecord r;
        r.kind = "ldap-search";
        r.status = ctx.stopRequested() ? "cancelled" : "ok";
        r.started = QDateTime::currentDateTime();
        r.summary.insert("ops_per_s", 1234.5);
        return r;
    });
    RunRecorder::of(&runner)->track(id, "ldap-search", {}, "gui run");
    QTRY_VERIFY(flushed.count() >= 1); // the row, written on the history's thread
    const auto historyId = reader.findByName("gui run");
    QVERIFY(historyId);
    QCOMPARE(flushed.first().at(0).toLongLong(), *historyId);
    // The page shows the run at once, "running".
    QTRY_VERIFY(page->model()->rowOf(*historyId) >= 0);
    const HistoryModel* m = page->model();
    QCOMPARE(m->data(m->index(m->rowOf(*historyId), HistoryModel::Status)).toString(), QStringLiteral("running"));
    // While it runs: intervals reach the database about once a second.
    QTRY_VERIFY_WITH_TIMEOUT(reader.load(*historyId)->intervals.size() >= 10, 10000);
    QCOMPARE(reader.summary(*historyId)->status, QStringLiteral("running")); // what dirbench-cli history list shows
    runner.cancel(id);
    QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 10000);
    QCOMPARE(saved.first().at(0).toLongLong(), *historyId);
    QCOMPARE(reader.summary(*historyId)->status, QStringLiteral("cancelled"));
    QTRY_COMPARE(m->data(m->index(m->rowOf(*historyId), HistoryModel::Status)).toString(),
        QStringLiteral("cancelled")); // the page refreshed itself
    QCOMPARE(page->model()->rowCount(), before + 1);
    QVERIFY2(commits.load() >= 3, qPrintable(QString::number(commits.load()))); // the row, intervals, the record
    QCOMPARE(onGuiThread.load(), 0);
    release = true;
}

// A history of 1,234 runs: the page shows 500 and says so; "Show 500 more" twice brings every run, in order.
void TstHistoryPage::pagesPast500()
{
    for (const char* suffix : { "", "-wal", "-shm" }) // a history of its own
        QFile::remove(RunStore::defaultPath() + QLatin1String(suffix));
    {
        RunStore store;
        QVERIFY(store.open());
        QString why;
        auto rec = RecordFile::read(m_records.at(0), &why);
        QVERIFY2(rec, qPrintable(why));
        const QDateTime t0 = QDateTime::currentDateTime().addDays(-30);
        for (int i = 0; i < 1234; ++i) {
            rec->started = t0.addSecs(i);
            QVERIFY(store.save(*rec, QStringLiteral("run-%1").arg(i)) > 0);
        }
    }
    ProbeRunner runner;
    MainWindow window(&runner);
    HistoryPage* page = window.historyPage();
    QAbstractItemModelTester tester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy listed(page, &HistoryPage::listed);
    page->refresh(); // the list asked for when the page was made may be shown already
    QTRY_VERIFY(listed.count() >= 1);
    QCOMPARE(page->model()->rowCount(), 500);
    QCOMPARE(page->totalRuns(), 1234);
    QCOMPARE(page->pagingText(), QStringLiteral("Showing 500 of 1,234 runs"));
    auto* more = page->findChild<QPushButton*>("historyMore");
    QVERIFY(more && !more->isHidden());
    more->click();
    QTRY_COMPARE(page->model()->rowCount(), 1000);
    more->click();
    QTRY_COMPARE(page->model()->rowCount(), 1234);
    QVERIFY(more->isHidden());
    QCOMPARE(page->pagingText(), QStringLiteral("All 1,234 runs shown"));
    const HistoryModel* m = page->model();
    QCOMPARE(m->data(m->index(0, HistoryModel::Name)).toString(), QStringLiteral("run-1233")); // newest first
    QCOMPARE(m->data(m->index(1233, HistoryModel::Name)).toString(), QStringLiteral("run-0"));
    // A refresh keeps the rows shown; a filter starts again at the first page.
    page->refresh();
    const int lists = int(listed.count());
    QTRY_VERIFY(listed.count() > lists);
    QCOMPARE(page->model()->rowCount(), 1234);
    page->filterBar()->setText("run-12");
    QTRY_COMPARE(page->model()->rowCount(), 1 + 10 + 34); // run-12, run-120..129, run-1200..1233
    QCOMPARE(page->pagingText(), QString());
}

QTEST_MAIN(TstHistoryPage)
#include "tst_historypage.moc"
