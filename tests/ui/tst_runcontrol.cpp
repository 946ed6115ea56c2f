// Run control is one thing: every page's run is started by the Run menu's Start (Ctrl+R) and ended by its Cancel
// (Ctrl+.), as by the page's own buttons. While a run is under way Start is disabled and Cancel enabled, in the
// menu and on the page alike; after Cancel the run ends cancelled and Start is enabled again. Against real parts: a
// disk test in a temporary directory, LDAP loads (from this machine and from two local agents), a curve and a
// thread sweep against a sandbox slapd, a replication probe against a real pair, a workload analysis of a large
// generated log. The status bar is per page: switching pages shows that page's last message.
#include "core/ldap/ldaptarget.h"
#include "core/run/proberunner.h"
#include "tests/ui/uisandbox.h"
#include "tests/ui/workloadlog.h"
#include "ui/mainwindow.h"
#include "ui/pages/curveform.h"
#include "ui/pages/curvepage.h"
#include "ui/pages/diskpage.h"
#include "ui/pages/experimentform.h"
#include "ui/pages/experimentspage.h"
#include "ui/pages/ldapagentsform.h"
#include "ui/pages/ldappage.h"
#include "ui/pages/replicationform.h"
#include "ui/pages/replicationpage.h"
#include "ui/pages/workloadform.h"
#include "ui/pages/workloadpage.h"

#include <QAction>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

class TestRunControl : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void diskThroughTheMenu();
    void ldapLoadThroughTheMenu();
    void ldapAgentsThroughTheMenu();
    void curveThroughTheMenu();
    void experimentsThroughTheMenu();
    void replicationThroughTheMenu();
    void workloadThroughTheMenu();
    void statusBarIsPerPage();

private:
    // Start from the menu, wait until `running` holds, check both sets of buttons, Cancel from the menu; the run
    // ends and Start is back. `cancelButton`: the page's own Cancel (it follows the same state).
    static void driveThroughTheMenu(MainWindow& window, Page* page, const std::function<bool()>& running,
        const char* cancelButton, int startMs = 30000);
    SandboxGuard m_slapd;
    QTemporaryDir m_dir;
};

void TestRunControl::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (LdapFixture::slapdMissing().isEmpty()) {
        QString why;
        m_slapd = UiSandbox::start(500, &why);
        QVERIFY2(m_slapd, qPrintable(LdapFixture::notStarted(why)));
    }
}

void TestRunControl::cleanupTestCase()
{
    m_slapd = SandboxGuard();
}

void TestRunControl::driveThroughTheMenu(
    MainWindow& window, Page* page, const std::function<bool()>& running, const char* cancelButton, int startMs)
{
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("pageTabs"));
    tabs->setCurrentWidget(page);
    auto* start = window.findChild<QAction*>(QStringLiteral("startAction"));
    auto* cancel = window.findChild<QAction*>(QStringLiteral("cancelAction"));
    auto* pageCancel = page->findChild<QPushButton*>(QString::fromLatin1(cancelButton));
    QVERIFY(start && cancel && pageCancel);
    QVERIFY(start->isEnabled());
    QVERIFY(!cancel->isEnabled());
    QVERIFY(!pageCancel->isEnabled());
    start->trigger();
    QTRY_VERIFY2_WITH_TIMEOUT(running(), qPrintable(window.pageMessage(page)), startMs);
    QVERIFY(page->isRunning());
    QVERIFY2(cancel->isEnabled(), qPrintable(page->title()));
    QVERIFY2(!start->isEnabled(), qPrintable(page->title()));
    QVERIFY(pageCancel->isEnabled());
    cancel->trigger();
    QVERIFY(!cancel->isEnabled()); // asked once: the run is ending
    QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), 30000);
    QVERIFY(start->isEnabled());
    QVERIFY(!cancel->isEnabled());
    QVERIFY(!pageCancel->isEnabled());
}

void TestRunControl::diskThroughTheMenu()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    DiskPage* page = window.diskPage();
    page->setDirectory(m_dir.path());
    page->setProfile(DiskProfile::SeqWrite);
    page->setSizeText(QStringLiteral("64M"));
    page->setBlockText(QStringLiteral("1M"));
    page->setDurationText(QStringLiteral("60"));
    QSignalSpy done(page, &DiskPage::runFinished);
    driveThroughTheMenu(
        window, page, [page] { return page->chartPointCount() > 0; }, "cancelButton");
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE(done.count(), 1);
    QCOMPARE(page->lastRecord().status, QStringLiteral("cancelled"));
}

void TestRunControl::ldapLoadThroughTheMenu()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    ProbeRunner runner;
    MainWindow window(&runner);
    LdapPage* page = window.ldapPage();
    UiSandbox::fillSearch(page, m_slapd.info(), 60);
    QSignalSpy done(page, &LdapPage::runFinished);
    // Past the check of the connection's files: the load itself runs (its run id is known).
    driveThroughTheMenu(
        window, page, [page] { return page->currentRunId() != 0; }, "cancelLoadButton");
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(done.count(), 1);
    QCOMPARE(page->lastRecord().status, QStringLiteral("cancelled"));
}

void TestRunControl::ldapAgentsThroughTheMenu()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    ProbeRunner runner;
    MainWindow window(&runner);
    LdapPage* page = window.ldapPage();
    UiSandbox::fillSearch(page, m_slapd.info(), 60);
    page->agentsForm()->setSource(LdapAgentsForm::Source::Hosts);
    page->agentsForm()->setHosts(QStringLiteral("local:2"));
    page->agentsForm()->setAgentCommand(QStringLiteral(DIRBENCH_CLI_PATH));
    QSignalSpy done(page, &LdapPage::runFinished);
    driveThroughTheMenu(
        window, page, [page] { return page->currentRunId() != 0; }, "cancelLoadButton");
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(done.count(), 1);
    QCOMPARE(page->lastRecord().status, QStringLiteral("cancelled"));
}

void TestRunControl::curveThroughTheMenu()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    ProbeRunner runner;
    MainWindow window(&runner);
    UiSandbox::fillSearch(window.ldapPage(), m_slapd.info(), 1);
    CurvePage* page = window.curvePage();
    page->form()->setMode(CurveSpec::Mode::WorkingSet);
    page->form()->setPointsText(QStringLiteral("10,50,100"));
    page->form()->setSecondsPerPoint(20);
    page->form()->setWarmup(0);
    page->form()->setCacheEntries(100);
    driveThroughTheMenu(
        window, page, [page] { return page->isRunning(); }, "cancelButton");
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(page->lastRecord().status, QStringLiteral("cancelled"));
}

void TestRunControl::experimentsThroughTheMenu()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    ProbeRunner runner;
    MainWindow window(&runner);
    UiSandbox::fillSearch(window.ldapPage(), m_slapd.info(), 20);
    ExperimentsPage* page = window.experimentsPage();
    page->form()->setText(QStringLiteral("points"), QStringLiteral("1,2,4"));
    driveThroughTheMenu(
        window, page, [page] { return page->isRunning(); }, "cancelButton");
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(page->lastRecord().status, QStringLiteral("cancelled"));
}

void TestRunControl::replicationThroughTheMenu()
{
    if (const QString why = LdapFixture::replicasUnavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QTemporaryDir parent;
    ProbeError e;
    SandboxGuard pair(LdapFixture::startReplicated(parent.path(), 1, &e));
    QVERIFY2(pair.isValid(), qPrintable(e.message()));
    ProbeRunner runner;
    MainWindow window(&runner);
    ReplicationPage* page = window.replicationPage();
    page->form()->fillFrom(pair.info(), UiSandbox::password(pair.info()));
    page->form()->setDuration(60);
    driveThroughTheMenu(
        window, page, [page] { return page->isRunning(); }, "stopReplicationButton");
    if (QTest::currentTestFailed())
        return;
}

void TestRunControl::workloadThroughTheMenu()
{
    // Large enough that the analysis is still reading when Cancel comes (it is stopped within one 4 MiB read).
    const QString log = m_dir.filePath(QStringLiteral("access"));
    QFile f(log);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const QByteArray part = WorkloadLog::generate389(2000, 0.6);
    for (int i = 0; i < 200; ++i)
        QVERIFY(f.write(part) == part.size());
    f.close();
    ProbeRunner runner;
    MainWindow window(&runner);
    WorkloadPage* page = window.workloadPage();
    page->form()->setFiles({ log });
    QSignalSpy analyzed(page, &WorkloadPage::analyzed);
    driveThroughTheMenu(
        window, page, [page] { return page->isRunning(); }, "workloadCancelButton");
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(analyzed.count(), 1);
    QCOMPARE(analyzed.constFirst().constFirst().toBool(), false); // cancelled, nothing kept
}

void TestRunControl::statusBarIsPerPage()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("pageTabs"));
    tabs->setCurrentWidget(window.diskPage());
    emit window.diskPage()->statusMessage(QStringLiteral("disk says this"));
    QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("disk says this"));
    emit window.ldapPage()->statusMessage(QStringLiteral("ldap says that")); // not current: kept for its page
    QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("disk says this"));
    tabs->setCurrentWidget(window.ldapPage());
    QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("ldap says that"));
    tabs->setCurrentWidget(window.curvePage()); // nothing said yet: an empty bar, not another page's message
    QCOMPARE(window.statusBar()->currentMessage(), QString());
    window.showMessage(QStringLiteral("the window, about the curve page"));
    tabs->setCurrentWidget(window.diskPage());
    QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("disk says this"));
    tabs->setCurrentWidget(window.curvePage());
    QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("the window, about the curve page"));
}

QTEST_MAIN(TestRunControl)
#include "tst_runcontrol.moc"
