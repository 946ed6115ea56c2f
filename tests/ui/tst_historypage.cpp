#include "core/run/proberunner.h"
#include "core/run/runcontext.h"
#include "core/store/recordfile.h"
#include "core/store/runrecorder.h"
#include "ui/charts/overlaychartview.h"
#include "ui/mainwindow.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/historymodel.h"
#include "ui/pages/historypage.h"
#include "ui/widgets/historyfilterbar.h"

#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <cmath>

// The History page offscreen: records made by a real dirbench-cli are dropped on the main window (a real
// QDropEvent with file URLs), filtered, renamed, compared and deleted; a GUI run is saved as it goes.
class TstHistoryPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void dropFilterRenameCompareDelete();
    void guiRunIsSavedAsItGoes();

private:
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
    QVERIFY2(page->storeError().isEmpty(), qPrintable(page->storeError()));
    const int before = page->model()->rowCount();

    // A broken file among good ones: the good ones are imported, the message names the file and the field.
    const QString broken = m_tmp.filePath("broken.json");
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"schema":"dirbench.run/1","kind":"disk","started":"2026-01-01T00:00:00.000","intervals":{}})");
    f.close();
    drop(&window, m_records + QStringList { broken });
    QCOMPARE(page->model()->rowCount(), before + 3);
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
    QVERIFY(page->renameRun(randReads.at(0), "before tuning"));
    QVERIFY(page->renameRun(randReads.at(1), "after tuning"));
    QVERIFY(page->setRunTags(randReads.at(1), { "nightly", "ssd" }));
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
    page->findChild<QPushButton*>("historyCompare")->click();
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
    // Within 0.05 % the comparison says "same" (two short disk runs can land that close).
    const double gain = (ib - ia) / ia * 100.0;
    const char* verdict = std::abs(gain) < 0.05 ? "same" : gain > 0 ? "better" : "worse";
    QVERIFY2(c->data(c->index(iops, 3)).toString().contains(verdict),
        qPrintable(c->data(c->index(iops, 3)).toString() + QStringLiteral(" for %1 %").arg(gain)));
    QCOMPARE(page->overlayChart()->lineCount(), 2);
    QCOMPARE(page->overlayChart()->metricKey(), QStringLiteral("iops"));

    // Three runs, one of them a commit test (commits/s are IOPS in its intervals too): three lines, three value
    // columns and two Δ columns.
    QVERIFY(page->compareRuns(randReads + QList<qint64> { commit }));
    QCOMPARE(page->comparisonModel()->columnCount(), 1 + 3 + 2);
    QCOMPARE(page->overlayChart()->lineCount(), 3);
    QVERIFY(!page->compareRuns({ commit })); // one run is not a comparison
    QVERIFY(page->lastMessage().contains("two or more"));

    // Delete asks first; Cancel keeps the run, Yes deletes it.
    page->selectRuns({ commit });
    page->findChild<QPushButton*>("historyDelete")->click();
    auto* box = page->findChild<QMessageBox*>("historyDeleteConfirm");
    QVERIFY(box);
    box->button(QMessageBox::Cancel)->click();
    QCOMPARE(page->model()->rowOf(commit) >= 0, true);
    QTRY_VERIFY(!page->findChild<QMessageBox*>("historyDeleteConfirm"));
    page->findChild<QPushButton*>("historyDelete")->click();
    box = page->findChild<QMessageBox*>("historyDeleteConfirm");
    QVERIFY(box);
    box->button(QMessageBox::Yes)->click();
    QCOMPARE(page->model()->rowOf(commit), -1);

    // Export: a private file that reads back as the same record.
    const QString out = m_tmp.filePath("export.json");
    QVERIFY(page->exportRun(randReads.at(0), out));
    QVERIFY(!QFileInfo(out).permissions().testFlag(QFileDevice::ReadOther));
    const auto back = RecordFile::read(out, &why);
    QVERIFY2(back, qPrintable(why));
    QCOMPARE(back->summary.value("iops").toDouble(), ia);
}

void TstHistoryPage::guiRunIsSavedAsItGoes()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    HistoryPage* page = window.historyPage();
    RunStore reader;
    QVERIFY(reader.open());
    const int before = page->model()->rowCount();
    QSignalSpy saved(RunRecorder::of(&runner), &RunRecorder::runSaved);
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
    const auto historyId = reader.findByName("gui run");
    QVERIFY(historyId);
    // While it runs: intervals reach the database about once a second.
    QTRY_VERIFY_WITH_TIMEOUT(reader.load(*historyId)->intervals.size() >= 10, 10000);
    QCOMPARE(reader.summary(*historyId)->status, QStringLiteral("failed")); // "did not finish" until it does
    runner.cancel(id);
    QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 10000);
    QCOMPARE(saved.first().at(0).toLongLong(), *historyId);
    QCOMPARE(reader.summary(*historyId)->status, QStringLiteral("cancelled"));
    QCOMPARE(page->model()->rowCount(), before + 1); // the page refreshed itself
    release = true;
}

QTEST_MAIN(TstHistoryPage)
#include "tst_historypage.moc"
