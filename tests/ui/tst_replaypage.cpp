// The Replay page against a real slapd (the sandbox): a generated 389-ds access log (20 connections: binds, searches,
// a write each) replayed from the page with its writes allowed: Preview shows what would be sent and sends nothing
// (the server's own operation count, cn=monitor, does not move), the live charts get points while it runs, and at
// the end the fidelity table has a row per template whose replayed counts add up to the record's, the writes are
// undone (the entries' values back, read from the server), the rate verdict is shown. Bad input names its field and
// starts nothing. The record opens read-only through the main window (History's and File › Open's way), and its
// report (PDF read back with pdftotext) has the fidelity table and the same sentences the page shows.
#include "core/ldap/ldapsession.h"
#include "core/replay/replaysummary.h"
#include "core/run/proberunner.h"
#include "core/sandbox/demosandbox.h"
#include "ui/charts/livechartview.h"
#include "ui/demodirectory.h"
#include "ui/mainwindow.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/replayform.h"
#include "ui/pages/replaypage.h"
#include "ui/report/report.h"
#include "ui/widgets/demodirectorybox.h"
#include "ui/widgets/ldaploadview.h"
#include "ui/widgets/replayresultview.h"
#include "ui/widgets/savedruninputs.h"
#include "ui/widgets/verdictlist.h"
#include "uisandbox.h"
#include "workloadlog.h"

#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

class TestReplayPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void previewSendsNothing();
    void replaysTheLogFromThePage();
    void badInputNamesTheField();
    void opensTheSavedRecord();
    void reportOfTheRecord();
    void demoAccessLogIsTheLogToReplay_data();
    void demoAccessLogIsTheLogToReplay();

private:
    void fill(ReplayPage* page) const;
    double serverOperations() const; // cn=monitor's completed operations
    QByteArray entriesUnder(const QString& base) const;

    SandboxGuard m_sandbox;
    QTemporaryDir m_dir;
    QString m_log;
    RunRecord m_record;
};

void TestReplayPage::initTestCase()
{
    QString why;
    m_sandbox = UiSandbox::start(1000, &why);
    QVERIFY2(m_sandbox.isValid(), qPrintable(why));
    m_log = m_dir.filePath(QStringLiteral("access"));
    QFile f(m_log);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(WorkloadLog::generate389(20, 0.05));
}

void TestReplayPage::cleanupTestCase()
{
    m_sandbox.reset();
}

void TestReplayPage::fill(ReplayPage* page) const
{
    const SandboxInfo& s = m_sandbox.info();
    page->form()->connection()->setTarget(UiSandbox::admin(s));
    page->form()->setLogs({ m_log });
    page->form()->setText(QStringLiteral("key-space"), QStringLiteral("uid=user[0-999],") + s.peopleBase);
    page->form()->setText(QStringLiteral("shared-password-file"), s.passwordFile);
    page->form()->setNumber(QStringLiteral("interval"), 0.5);
}

double TestReplayPage::serverOperations() const
{
    LdapSession session;
    QList<LdapSession::Entry> entries;
    if (session.open(UiSandbox::admin(m_sandbox.info())).isError()
        || session
               .search(QStringLiteral("cn=Operations,cn=Monitor"), LdapSession::Base, QStringLiteral("(objectClass=*)"),
                   { QStringLiteral("monitorOpCompleted") }, &entries)
               .isError()
        || entries.isEmpty())
        return -1;
    return entries.constFirst().first(QStringLiteral("monitoropcompleted")).toDouble();
}

// Every entry under `base` with its user attributes, as text in DN order: what undone writes must leave as it was.
QByteArray TestReplayPage::entriesUnder(const QString& base) const
{
    LdapSession session;
    QList<LdapSession::Entry> entries;
    if (session.open(UiSandbox::admin(m_sandbox.info())).isError()
        || session.search(base, LdapSession::Subtree, QStringLiteral("(objectClass=*)"), {}, &entries).isError()
        || entries.isEmpty())
        return "unreadable";
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.dn < b.dn; });
    QByteArray out;
    for (const LdapSession::Entry& e : std::as_const(entries)) {
        out += "dn: " + e.dn.toUtf8() + "\n";
        for (auto it = e.attributes.begin(); it != e.attributes.end(); ++it)
            for (const QByteArray& v : it.value())
                out += it.key().toUtf8() + ": " + v + "\n";
    }
    return out;
}

void TestReplayPage::previewSendsNothing()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    ReplayPage page(&runner, &demo);
    fill(&page);
    QSignalSpy shown(&page, &ReplayPage::previewShown);
    const double before = serverOperations();
    QVERIFY(before > 0);
    page.preview();
    QVERIFY(shown.wait(30000));
    QCOMPARE(shown.takeFirst().at(0).toBool(), true);
    const QString text = page.resultView()->previewText();
    QVERIFY2(text.contains(QStringLiteral("(uid=?")), qPrintable(text));
    QCOMPARE(runner.runningCount(), 0);
    // Our own two reads of cn=monitor (this one's search is counted when it completes: +1 per read, bind included).
    const double after = serverOperations();
    QVERIFY2(after - before <= 3, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
}

void TestReplayPage::replaysTheLogFromThePage()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    ReplayPage page(&runner, &demo);
    page.resize(1300, 760);
    page.show();
    fill(&page);
    const QByteArray entriesBefore = entriesUnder(m_sandbox.info().peopleBase);
    QVERIFY(entriesBefore.count("dn: ") == 1001); // the people and their parent
    page.form()->setAllowWrites(true);
    page.form()->setText(QStringLiteral("write-base"), m_sandbox.info().peopleBase);
    QSignalSpy done(&page, &ReplayPage::runFinished);
    page.start();
    QVERIFY(page.isRunning());
    LiveChartView* schedule = page.resultView()->scheduleChart();
    QTRY_VERIFY_WITH_TIMEOUT(schedule->pointCount(ReplayResultView::answeredSeries()) > 0, 30000);
    const bool live = page.isRunning() || done.isEmpty();
    QVERIFY2(live, "the first points came only with the end of the run");
    QVERIFY(done.wait(60000));
    m_record = done.takeFirst().at(0).value<RunRecord>();
    QCOMPARE(m_record.kind, QStringLiteral("replay"));
    QVERIFY2(m_record.status == u"ok", qPrintable(m_record.failure));
    QVERIFY(schedule->pointCount(ReplayResultView::scheduledSeries()) >= 2);
    QVERIFY(page.loadView()->opsChart()->pointCount(LdapLoadView::okSeries()) >= 2);

    const ReplaySummary s = ReplaySummary::of(m_record);
    QTableWidget* table = page.resultView()->fidelityTable();
    QCOMPARE(table->rowCount(), int(s.rows.size()));
    QVERIFY(table->rowCount() >= 3); // bind, searches by uid and by mail, modify
    double replayed = 0;
    for (int r = 0; r < table->rowCount(); ++r)
        replayed += QLocale().toDouble(table->item(r, 2)->text());
    QCOMPARE(replayed, s.replayedOps);
    QVERIFY(s.replayedOps > 0);
    QVERIFY2(page.resultView()->figuresText().contains(s.countsLine()), qPrintable(page.resultView()->figuresText()));
    QVERIFY(s.undo.has_value());
    QVERIFY2(s.undo->failures.isEmpty(), qPrintable(s.undo->failures.join(u'\n')));
    QVERIFY(s.undo->restored > 0);
    QVERIFY2(page.resultView()->figuresText().contains(QStringLiteral("undone at the end")),
        qPrintable(page.resultView()->figuresText()));
    QVERIFY2(entriesUnder(m_sandbox.info().peopleBase) == entriesBefore, "the writes were not undone byte for byte");
    QVERIFY(page.resultView()->verdicts()->count() >= 1); // open loop: the rate verdict
}

void TestReplayPage::badInputNamesTheField()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    ReplayPage page(&runner, &demo);
    fill(&page);
    page.form()->setText(QStringLiteral("key-space"), QStringLiteral("uid=user[9-0]"));
    page.start();
    QTRY_VERIFY(!page.isRunning());
    QCOMPARE(page.form()->errorField(), QStringLiteral("key-space"));
    page.form()->setText(QStringLiteral("key-space"), QStringLiteral("uid=user[0-999]"));
    page.form()->setLogs({ m_dir.filePath(QStringLiteral("no-such-log")) });
    page.start();
    QTRY_VERIFY(!page.isRunning());
    QCOMPARE(page.form()->errorField(), QStringLiteral("log"));
    QVERIFY2(page.form()->errorText().contains(QStringLiteral("no-such-log")), qPrintable(page.form()->errorText()));
    fill(&page);
    page.form()->setAllowWrites(true); // and no write base
    page.start();
    QTRY_VERIFY(!page.isRunning());
    QCOMPARE(page.form()->errorField(), QStringLiteral("write-base"));
    QCOMPARE(runner.runningCount(), 0);
    QVERIFY(page.lastRecord().kind.isEmpty());
    // What does not apply is disabled with the reason, as the command line refuses it.
    page.form()->setAllowWrites(false);
    QVERIFY(!page.form()->field(QStringLiteral("write-base"))->isEnabled());
    QVERIFY(page.form()->field(QStringLiteral("write-base"))->toolTip().contains(QStringLiteral("Replay writes")));
    page.form()->setTiming(ReplaySpec::Timing::AsFastAsPossible);
    QVERIFY(!page.form()->field(QStringLiteral("speed"))->isEnabled());
    page.form()->setTiming(ReplaySpec::Timing::Speed, 2);
    QVERIFY(page.form()->field(QStringLiteral("speed"))->isEnabled());
}

void TestReplayPage::opensTheSavedRecord()
{
    if (m_record.kind.isEmpty())
        QFAIL("no record: replaysTheLogFromThePage failed first");
    ProbeRunner runner;
    MainWindow window(&runner);
    QString error;
    QVERIFY2(window.showSavedRecord(m_record, QStringLiteral("saved.json"), &error), qPrintable(error));
    ReplayPage* page = window.replayPage();
    QCOMPARE(window.findChild<QTabWidget*>(QStringLiteral("pageTabs"))->currentWidget(), page);
    QVERIFY(page->isShowingSaved());
    QVERIFY(page->savedInputs()->isVisible() || !window.isVisible());
    QCOMPARE(page->resultView()->fidelityTable()->rowCount(), int(ReplaySummary::of(m_record).rows.size()));
    QCOMPARE(page->resultView()->scheduleChart()->pointCount(ReplayResultView::answeredSeries()),
        int(m_record.intervals.size()));
    page->closeSaved();
    QVERIFY(!page->isShowingSaved());
    QCOMPARE(page->resultView()->fidelityTable()->rowCount(), 0);
}

void TestReplayPage::reportOfTheRecord()
{
    if (m_record.kind.isEmpty())
        QFAIL("no record: replaysTheLogFromThePage failed first");
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
        QFAIL("pdftotext is not installed: scripts/deps.sh --test installs poppler-utils");
    const ReportDocument doc = Report::build({ m_record });
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("replay.pdf"));
    QString error;
    QVERIFY2(Report::writePdf(doc, pdf, &error), qPrintable(error));
    QProcess t;
    t.start(QStringLiteral("pdftotext"), { pdf, QStringLiteral("-") });
    QVERIFY(t.waitForFinished(30000));
    const QString text = QString::fromUtf8(t.readAllStandardOutput()).simplified();
    const ReplaySummary s = ReplaySummary::of(m_record);
    QVERIFY2(text.contains(QStringLiteral("Fidelity per template")), qPrintable(text.left(2000)));
    QVERIFY2(text.contains(QStringLiteral("Rate against the log's schedule")), qPrintable(text.left(2000)));
    QVERIFY2(text.contains(s.countsLine()), qPrintable(s.countsLine()));
    QVERIFY2(text.contains(s.writesLine()), qPrintable(s.writesLine()));
    QVERIFY2(text.contains(QStringLiteral("at the log's pace")), qPrintable(text.left(2000)));
}

void TestReplayPage::demoAccessLogIsTheLogToReplay_data()
{
    QTest::addColumn<int>("server");
    QTest::newRow("openldap") << int(DemoSandbox::Server::OpenLdap);
    QTest::newRow("389ds") << int(DemoSandbox::Server::Ds389);
}

// The demo directory started with its access log (either server): the Replay page takes that log, and after a few
// searches against the demo, Preview reads them from it (the server's own log, in its own format).
void TestReplayPage::demoAccessLogIsTheLogToReplay()
{
    QFETCH(int, server);
    if (const QString why = DemoSandbox::unavailableReason(DemoSandbox::Server(server)); !why.isEmpty())
        QSKIP(qPrintable(why));
    ProbeRunner runner;
    MainWindow window(&runner);
    DemoDirectoryBox* box = window.ldapPage()->demoBox();
    box->setServer(DemoSandbox::Server(server));
    box->setEntries(50);
    box->setAccessLog(true);
    DemoDirectory* demo = window.ldapPage()->demo();
    QString why;
    const std::optional<SandboxInfo> started = UiSandbox::startDemo(box, demo, &why);
    QVERIFY2(started, qPrintable(why));
    const SandboxInfo info = *started;
    QCOMPARE(info.is389ds(), server == int(DemoSandbox::Server::Ds389));
    ReplayPage* page = window.replayPage();
    ReplaySpec spec;
    page->form()->readSpec(&spec);
    QCOMPARE(spec.logFiles, QStringList { DemoSandbox::accessLogPath(info) });
    {
        LdapSession session;
        QVERIFY(!session.open(UiSandbox::admin(info)).isError());
        for (int i = 0; i < 5; ++i) {
            QList<LdapSession::Entry> out;
            QVERIFY(
                !session.search(info.peopleBase, LdapSession::Subtree, QStringLiteral("(uid=user%1)").arg(i), {}, &out)
                     .isError());
            QCOMPARE(out.size(), 1);
        }
    }
    QSignalSpy shown(page, &ReplayPage::previewShown);
    page->preview();
    QVERIFY(shown.wait(60000));
    QCOMPARE(shown.takeFirst().at(0).toBool(), true);
    const QString text = page->resultView()->previewText();
    QVERIFY2(text.contains(QStringLiteral("(uid=?")), qPrintable(text));
    QVERIFY2(demo->stopNow(&why), qPrintable(why));
    QVERIFY(!QFileInfo::exists(info.dir));
}

QTEST_MAIN(TestReplayPage)
#include "tst_replaypage.moc"
