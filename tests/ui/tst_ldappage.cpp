// The LDAP page against a real slapd (the sandbox): probe, a search load with live charts, validation before any
// connection, cancel, write-load confirmation, the window's LDAP tab. Profiles and the demo: tst_ldapconnection.
#include "core/common/units.h"
#include "core/ldap/loadresult.h"
#include "core/run/proberunner.h"
#include "ui/charts/livechartview.h"
#include "ui/demodirectory.h"
#include "ui/mainwindow.h"
#include "ui/models/operationmodel.h"
#include "ui/models/resultcodemodel.h"
#include "ui/pages/ldapprofilebar.h"
#include "ui/widgets/demodirectorybox.h"
#include "ui/widgets/ldaploadview.h"
#include "ui/widgets/probeview.h"
#include "ui/widgets/savedruninputs.h"
#include "ui/widgets/timingbars.h"
#include "ui/widgets/writeconfirmation.h"
#include "uisandbox.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cmath>

namespace {

QMessageBox* confirmationBox(QWidget* page)
{
    return page->findChild<QMessageBox*>(QString::fromLatin1(WriteConfirmation::kObjectName));
}

} // namespace

class TestLdapPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void probeShowsOpenLdap();
    void probeShowsTlsFacts();
    void untrustedCertificateNamesItsCause();
    void savedRunShowsItsOwnInputsReadOnly();
    void searchLoadDrawsLiveCharts();
    void badFilterStartsNothing();
    void cancelMidRun();
    void writeLoadAsksFirst();
    void mixedLoadHasARowPerKind();
    void mainWindowHasTheLdapTab();

private:
    QTemporaryDir m_settingsDir;
    SandboxGuard m_sbx;
};

void TestLdapPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-test-ldap"));
    QVERIFY(m_settingsDir.isValid());
    // Every QSettings of this test goes to a temporary directory, never the user's.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings().clear();
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): the LDAP page tests need a real server");
    QString why;
    m_sbx = UiSandbox::start(1000, &why);
    QVERIFY2(m_sbx, qPrintable(why));
}

void TestLdapPage::cleanupTestCase()
{
    m_sbx.reset();
}

void TestLdapPage::probeShowsOpenLdap()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    QSignalSpy probed(&page, &LdapPage::probeFinished);
    page.connectionForm()->setTarget(UiSandbox::admin(m_sbx.info()));
    page.probe();
    QVERIFY2(page.isRunning(), qPrintable(page.errorText()));
    // the probe starts after the connection's check, off the GUI thread
    QTRY_COMPARE_WITH_TIMEOUT(probed.count(), 1, 30000);
    QCOMPARE(page.lastProbe().status, QStringLiteral("ok"));
    QCOMPARE(page.probeView()->serverKind(), QStringLiteral("openldap"));
    QVERIFY2(page.probeView()->serverText().contains(QStringLiteral("openldap")),
        qPrintable(page.probeView()->serverText()));
    const auto bars = page.probeView()->timingBars()->bars();
    QCOMPARE(bars.size(), 5);
    QVERIFY(std::isfinite(bars.at(0).ms)); // TCP connect
    QVERIFY(std::isnan(bars.at(1).ms)); // no TLS on ldap://: "not measured", never 0
    QVERIFY(std::isfinite(bars.at(3).ms)); // root DSE
    QVERIFY(page.probeView()->rootDseTree()->topLevelItemCount() > 0);
}

void TestLdapPage::probeShowsTlsFacts()
{
    QString why;
    SandboxGuard tls = UiSandbox::start(100, &why, true);
    QVERIFY2(tls, qPrintable(why));
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    QSignalSpy probed(&page, &LdapPage::probeFinished);
    LdapTarget t = UiSandbox::admin(tls.info());
    t.uri = tls->ldapsUri;
    t.caFile = tls->caFile;
    page.connectionForm()->setTarget(t);
    page.probe();
    QTRY_COMPARE_WITH_TIMEOUT(probed.count(), 1, 30000);
    QVERIFY2(page.lastProbe().status == u"ok", qPrintable(page.lastProbe().failure));
    QVERIFY2(page.probeView()->tlsKeyText().startsWith(QStringLiteral("2048 bits")),
        qPrintable(page.probeView()->tlsKeyText()));
    QVERIFY(std::isfinite(page.probeView()->timingBars()->bars().at(1).ms)); // the TLS handshake, measured
}

// An LDAPS server whose certificate no CA given trusts: the failure says so in words (libldap's own reason, not
// "Can't contact LDAP server (-1): (unknown error code)") and what to do, in the form's words; the CLI's sentence
// in the record names its options.
void TestLdapPage::untrustedCertificateNamesItsCause()
{
    QString why;
    SandboxGuard tls = UiSandbox::start(20, &why, true);
    QVERIFY2(tls, qPrintable(why));
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    QSignalSpy probed(&page, &LdapPage::probeFinished);
    LdapTarget t = UiSandbox::admin(tls.info());
    t.uri = tls->ldapsUri; // no CA file: the system's CAs do not know the sandbox's self-signed certificate
    page.connectionForm()->setTarget(t);
    page.probe();
    QTRY_COMPARE_WITH_TIMEOUT(probed.count(), 1, 30000);
    const RunRecord rec = page.lastProbe();
    QCOMPARE(rec.status, QStringLiteral("failed"));
    QVERIFY2(rec.failure.contains(QStringLiteral("not trusted")), qPrintable(rec.failure));
    QVERIFY2(rec.failure.contains(QStringLiteral("peer cert untrusted")), qPrintable(rec.failure));
    QVERIFY2(rec.failure.contains(QStringLiteral("--ca-file")) && rec.failure.contains(QStringLiteral("--insecure")),
        qPrintable(rec.failure));
    const QString shown = page.probeView()->failureText(rec);
    QVERIFY2(shown.contains(QStringLiteral("\"CA file\"")) && shown.contains(QStringLiteral("\"Trust anyway")),
        qPrintable(shown));
    QVERIFY2(!shown.contains(QStringLiteral("--")), qPrintable(shown));
    QVERIFY(!shown.contains(QStringLiteral("unknown error code")) || shown.contains(QStringLiteral("not trusted")));
    // and with the CA file given, the same server is reached
    t.caFile = tls->caFile;
    page.connectionForm()->setTarget(t);
    page.probe();
    QTRY_COMPARE_WITH_TIMEOUT(probed.count(), 2, 30000);
    QVERIFY2(page.lastProbe().status == u"ok", qPrintable(page.lastProbe().failure));
}

// A saved probe opened on the page: its own server stands read-only where the forms were (never the server the
// forms hold now); Probe and Start wait; Close gives the forms back as they were.
void TestLdapPage::savedRunShowsItsOwnInputsReadOnly()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    page.show();
    QSignalSpy probed(&page, &LdapPage::probeFinished);
    page.connectionForm()->setTarget(UiSandbox::admin(m_sbx.info()));
    page.probe();
    QTRY_COMPARE_WITH_TIMEOUT(probed.count(), 1, 30000);
    const RunRecord saved = page.lastProbe();
    QCOMPARE(saved.status, QStringLiteral("ok"));
    const QString elsewhere = QStringLiteral("ldap://elsewhere.example.org:389");
    page.connectionForm()->setUri(elsewhere);
    QString why;
    QVERIFY2(page.showRecord(saved, &why), qPrintable(why));
    QVERIFY(page.isShowingSaved());
    QVERIFY(page.savedInputs()->isVisible());
    QVERIFY(!page.connectionForm()->isVisible());
    QCOMPARE(page.savedInputs()->value(QStringLiteral("uri")), m_sbx->uri);
    QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("probeButton"))->isEnabled());
    QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("startLoadButton"))->isEnabled());
    page.probe(); // refused while the saved run is shown
    QVERIFY(!page.isRunning());
    page.savedInputs()->closeButton()->click();
    QVERIFY(!page.isShowingSaved());
    QVERIFY(page.connectionForm()->isVisible());
    QCOMPARE(page.connectionForm()->uri(), elsewhere);
    QVERIFY(page.findChild<QPushButton*>(QStringLiteral("probeButton"))->isEnabled());
}

void TestLdapPage::searchLoadDrawsLiveCharts()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    // The load view's tables, checked by the model tester through every live update of a real load.
    QAbstractItemModelTester opsTester(
        page.loadView()->operationModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester codesTester(
        page.loadView()->resultModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy finished(&page, &LdapPage::runFinished);
    UiSandbox::fillSearch(&page, m_sbx.info(), 2);
    QSignalSpy running(&page, &LdapPage::runningChanged);
    page.start();
    QVERIFY2(page.isRunning(), qPrintable(page.errorText()));
    // Points arrive while the load runs, not only at the end.
    QTRY_VERIFY_WITH_TIMEOUT(page.loadView()->opsChart()->pointCount() > 0, 15000);
    QVERIFY(page.isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);

    const RunRecord rec = page.lastRecord();
    QCOMPARE(rec.status, QStringLiteral("ok"));
    QCOMPARE(rec.kind, QStringLiteral("ldap-search"));
    LdapLoadView* view = page.loadView();
    QVERIFY(view->opsChart()->pointCount(QStringLiteral("ok/s")) >= 3);
    QVERIFY(view->latencyChart()->pointCount(QStringLiteral("p99")) >= 3);
    QCOMPARE(view->operationModel()->rowCount(), 1); // one operation: one row, the run's figures
    QCOMPARE(view->operationModel()->operation(0), QStringLiteral("search"));
    const ResultCodeModel* codes = view->resultModel();
    QVERIFY(codes->rowOfCode(0) >= 0);
    QVERIFY(codes->count(0) > 0);
    QCOMPARE(codes->index(codes->rowOfCode(0), ResultCodeModel::Name).data().toString(), ResultCodeModel::codeName(0));
    QVERIFY2(view->summaryText().startsWith(QStringLiteral("Done: ")), qPrintable(view->summaryText()));
    QVERIFY(view->summaryText().contains(QStringLiteral(" ok/s · ")));
    QVERIFY(view->summaryText().contains(QStringLiteral("ops/s completed")));
    QVERIFY(view->summaryText().contains(QStringLiteral("load CPU")));
    QVERIFY(view->summaryText().contains(QStringLiteral("µs/op")));
    // The admin reads cn=monitor: the server's own counters are drawn on the same time axis.
    QVERIFY(view->opsChart()->pointCount(QStringLiteral("server: operations/s")) > 0);
    QVERIFY(view->serverChart()->pointCount(QStringLiteral("threads active")) > 0);
    QVERIFY(!view->serverChart()->isPlaceholderVisible());
    QVERIFY2(view->countersText().contains(QStringLiteral("threads active")), qPrintable(view->countersText()));
    QVERIFY(page.findChild<QWidget*>(QStringLiteral("filterEdit"))->isEnabled()); // unlocked again
    // Locked once from the check of the connection's files to the end (not unlocked and locked again between
    // the check and the load: that laid the whole page out twice at the load's start).
    QCOMPARE(running.count(), 2);
    QCOMPARE(running.at(0).at(0).toBool(), true);
    QCOMPARE(running.at(1).at(0).toBool(), false);
}

void TestLdapPage::badFilterStartsNothing()
{
    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    UiSandbox::fillSearch(&page, m_sbx.info(), 2);
    page.loadForm()->setText(QStringLiteral("filter"), QStringLiteral("(uid="));
    page.start();
    QTRY_VERIFY(!page.isRunning()); // the check answers off the GUI thread
    QCOMPARE(started.count(), 0);
    QCOMPARE(page.errorField(), QStringLiteral("filter"));
    QVERIFY2(page.errorText().startsWith(QStringLiteral("Filter:")), qPrintable(page.errorText()));
    auto* label = page.findChild<QLabel*>(QStringLiteral("loadErrorLabel"));
    QVERIFY(label && !label->isHidden());
    QVERIFY(!page.findChild<QLineEdit*>(QStringLiteral("filterEdit"))->styleSheet().isEmpty()); // marked

    // A connection field is named on the connection form.
    page.loadForm()->setText(QStringLiteral("filter"), QStringLiteral("(uid=user[0-9])"));
    page.connectionForm()->setUri(QStringLiteral("http://example.com"));
    page.start();
    QTRY_VERIFY(!page.isRunning()); // the check answers off the GUI thread
    QCOMPARE(started.count(), 0);
    QCOMPARE(page.errorField(), QStringLiteral("uri"));
    QVERIFY2(page.errorText().startsWith(QStringLiteral("Server URI:")), qPrintable(page.errorText()));

    // A CA file that cannot be read: the check (off the GUI thread) names it, for a load and for a probe.
    LdapTarget t = UiSandbox::admin(m_sbx.info());
    t.caFile = QStringLiteral("/nonexistent/dirbench-ca.pem");
    page.connectionForm()->setTarget(t);
    for (const bool probe : { false, true }) {
        probe ? page.probe() : page.start();
        QVERIFY(page.isRunning()); // checking
        QTRY_VERIFY(!page.isRunning());
        QCOMPARE(started.count(), 0);
        QCOMPARE(page.errorField(), QStringLiteral("ca-file"));
    }
}

void TestLdapPage::cancelMidRun()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    QSignalSpy finished(&page, &LdapPage::runFinished);
    UiSandbox::fillSearch(&page, m_sbx.info(), 60);
    page.start();
    QVERIFY2(page.isRunning(), qPrintable(page.errorText()));
    QTRY_VERIFY_WITH_TIMEOUT(page.loadView()->opsChart()->pointCount() > 0, 15000);

    QElapsedTimer clock;
    clock.start();
    page.cancel();
    // The engine stops within 1 s; 5 s is the margin of DESIGN.md.
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    qInfo("cancel acknowledged after %lld ms", clock.elapsed());
    QCOMPARE(page.lastRecord().status, QStringLiteral("cancelled"));
    QVERIFY(!page.isRunning());
    QVERIFY(page.loadView()->opsChart()->pointCount() > 0); // what was measured stays
}

void TestLdapPage::writeLoadAsksFirst()
{
    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    QSignalSpy finished(&page, &LdapPage::runFinished);
    UiSandbox::fillSearch(&page, m_sbx.info(), 1);
    const QString dn = QStringLiteral("uid=user[0-999],") + m_sbx->peopleBase;
    LdapLoadForm* f = page.loadForm();
    f->setOperation(QStringLiteral("modify"));
    f->setText(QStringLiteral("dn"), dn);
    f->setText(QStringLiteral("attr"), QStringLiteral("description"));
    f->setText(QStringLiteral("value"), QStringLiteral("dirbench test [0-99]"));

    // No: nothing starts. (Asked once the connection's check, off the GUI thread, has passed.)
    page.start();
    QTRY_VERIFY(confirmationBox(&page));
    QMessageBox* box = confirmationBox(&page);
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QVERIFY2(box->informativeText().contains(dn), qPrintable(box->informativeText()));
    QVERIFY(box->informativeText().contains(QStringLiteral("description")));
    QVERIFY(!page.isRunning());
    box->findChild<QPushButton*>(QStringLiteral("cancelWriteButton"))->click();
    QTRY_VERIFY(!confirmationBox(&page)); // closed and deleted
    QVERIFY(!page.isRunning());
    QCOMPARE(started.count(), 0);

    // Yes: the load runs.
    page.start();
    QTRY_VERIFY(confirmationBox(&page));
    box = confirmationBox(&page);
    QVERIFY(box);
    box->findChild<QPushButton*>(QStringLiteral("confirmWriteButton"))->click();
    QVERIFY(page.isRunning());
    QCOMPARE(started.count(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QCOMPARE(page.lastRecord().kind, QStringLiteral("ldap-modify"));
    QCOMPARE(page.lastRecord().status, QStringLiteral("ok"));
    QVERIFY(page.loadView()->resultModel()->count(0) > 0);

    // A search needs no confirmation.
    f->setOperation(QStringLiteral("search"));
    page.start();
    QVERIFY(page.isRunning());
    QVERIFY(!confirmationBox(&page));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
}

void TestLdapPage::mixedLoadHasARowPerKind()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    QSignalSpy finished(&page, &LdapPage::runFinished);
    UiSandbox::fillSearch(&page, m_sbx.info(), 2); // the filter of the searches
    LdapLoadForm* f = page.loadForm();
    f->setOperation(QStringLiteral("mixed"));
    f->setText(QStringLiteral("mix"), QStringLiteral("search=80,modify=20"));
    f->setText(QStringLiteral("dn"), QStringLiteral("uid=user[0-999],") + m_sbx->peopleBase);
    f->setText(QStringLiteral("attr"), QStringLiteral("description"));
    f->setText(QStringLiteral("value"), QStringLiteral("dirbench mix [0-99]"));
    page.start();
    QTRY_VERIFY(confirmationBox(&page)); // once the connection's check (off the GUI thread) has passed
    QMessageBox* box = confirmationBox(&page);
    QVERIFY(box);
    box->findChild<QPushButton*>(QStringLiteral("confirmWriteButton"))->click();
    QVERIFY2(page.isRunning(), qPrintable(page.errorText()));
    LdapLoadView* view = page.loadView();
    QAbstractItemModelTester opsTester(view->operationModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester codesTester(view->resultModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Live: the last interval's row per kind.
    QTRY_VERIFY_WITH_TIMEOUT(view->operationModel()->rowCount() == 3, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    const RunRecord rec = page.lastRecord();
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QCOMPARE(rec.kind, QStringLiteral("ldap-mixed"));
    const OperationModel* m = view->operationModel();
    QCOMPARE(m->rowCount(), 3);
    QCOMPARE(m->operation(0), QStringLiteral("modify"));
    QCOMPARE(m->operation(1), QStringLiteral("search"));
    QCOMPARE(m->operation(2), QStringLiteral("all"));
    QVERIFY(view->operationsCaption().contains(QStringLiteral("whole run")));
    // The whole run's figures per kind, as the record holds them.
    const LoadSummary s = LoadSummary::fromJson(rec.summary);
    for (int r = 0; r < 2; ++r) {
        const OpFigures& k = s.byOperation.at(m->operation(r));
        QVERIFY(k.ops > 0);
        QCOMPARE(m->index(r, OperationModel::Ops).data().toString(), Units::formatNumber(k.ops, 0));
        QCOMPARE(m->index(r, OperationModel::OkPerS).data().toString(), Units::formatNumber(k.okPerS));
        QCOMPARE(m->index(r, OperationModel::P99).data().toString(), OperationModel::latencyText(k.latencyMs.p99));
    }
    // A latency series per kind.
    for (const char* kind : { "search", "modify" })
        QVERIFY2(view->latencyChart()->pointCount(LdapLoadView::kindLatencySeries(QLatin1String(kind))) >= 3, kind);
}

void TestLdapPage::mainWindowHasTheLdapTab()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.ldapPage());
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("pageTabs"));
    QVERIFY(tabs);
    QCOMPARE(tabs->tabText(1), QStringLiteral("LDAP"));
    // The window's Start acts on the LDAP page when it is current.
    tabs->setCurrentWidget(window.ldapPage());
    QCOMPARE(window.currentPage(), window.ldapPage());
    UiSandbox::fillSearch(window.ldapPage(), m_sbx.info(), 1);
    QSignalSpy finished(window.ldapPage(), &LdapPage::runFinished);
    window.findChild<QAction*>(QStringLiteral("startAction"))->trigger();
    QVERIFY(window.ldapPage()->isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
}

QTEST_MAIN(TestLdapPage)
#include "tst_ldappage.moc"
