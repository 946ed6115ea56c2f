// The Experiments page: one click each, against a real sandbox slapd. A thread sweep (2 points), the TLS cost
// (ldaps:// with the sandbox's CA) and the database size (two demo directories DirBench starts) each end with
// their points in the table and the chart and the guide's reference; bad points name their field and start nothing;
// a server-thread sweep on slapd fails saying why (it is 389-ds's setting); "Cache coverage" leads to the Curve page.
#include "core/common/units.h"
#include "core/experiments/experimentsummary.h"
#include "core/run/proberunner.h"
#include "ui/charts/livechartview.h"
#include "ui/mainwindow.h"
#include "ui/pages/curvepage.h"
#include "ui/pages/experimentform.h"
#include "ui/pages/experimentspage.h"
#include "ui/widgets/runstatuslabel.h"
#include "uisandbox.h"

#include <QJsonArray>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

class TestExperimentsPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void threadSweepOneClick();
    void tlsCost();
    void databaseSize();
    void badPointsNameTheField();
    void serverThreadsOnSlapdFailSayingWhy();
    void coverageLeadsToTheCurvePage();

private:
    void attach(ExperimentsPage* page) const;
    RunRecord runAndWait(ExperimentsPage* page, ExperimentsPage::Kind kind, int timeoutMs);

    SandboxGuard m_slapd;
    QString m_why;
};

void TestExperimentsPage::initTestCase()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(true);
    m_slapd = UiSandbox::start(500, &m_why, true);
    QVERIFY2(m_slapd, qPrintable(LdapFixture::notStarted(m_why)));
}

void TestExperimentsPage::cleanupTestCase()
{
    m_slapd.reset();
}

void TestExperimentsPage::attach(ExperimentsPage* page) const
{
    const SandboxInfo info = m_slapd.info();
    page->setLdapLoadProvider([info](QString*) {
        LdapLoadSpec s;
        s.target = UiSandbox::admin(info);
        s.base = info.peopleBase;
        s.filter = QStringLiteral("uid=user[0-499]");
        s.intervalSec = 0.5;
        s.threads = 1;
        return std::optional<LdapLoadSpec>(s);
    });
    page->form()->setSeconds(1);
}

RunRecord TestExperimentsPage::runAndWait(ExperimentsPage* page, ExperimentsPage::Kind kind, int timeoutMs)
{
    QSignalSpy done(page, &ExperimentsPage::runFinished);
    if (!page->run(kind)) {
        qWarning("refused: %s", qPrintable(page->form()->errorText()));
        return {};
    }
    if (!page->isRunning())
        return {};
    if (!done.wait(timeoutMs))
        return {};
    return done.at(0).at(0).value<RunRecord>();
}

void TestExperimentsPage::threadSweepOneClick()
{
    ProbeRunner runner;
    ExperimentsPage page(&runner);
    attach(&page);
    page.form()->setText(QStringLiteral("points"), QStringLiteral("1,2"));
    QSignalSpy done(&page, &ExperimentsPage::runFinished);
    QTest::mouseClick(page.findChild<QPushButton*>(QStringLiteral("threadsButton")), Qt::LeftButton);
    QVERIFY(page.isRunning());
    QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("tlsButton"))->isEnabled());
    QVERIFY(done.wait(30000));
    const RunRecord r = page.lastRecord();
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QCOMPARE(r.kind, QStringLiteral("thread-sweep"));
    QCOMPARE(page.pointsTable()->rowCount(), 2);
    QCOMPARE(page.pointsTable()->item(1, 0)->text(), QStringLiteral("2"));
    QVERIFY(page.pointsTable()->item(0, 1)->text() != u"0.0");
    // The points' ok/s; a point made before points had it shows its completed ops/s, and the header says so.
    const QJsonObject first = r.summary.value(QStringLiteral("points")).toArray().first().toObject();
    const bool hasOk = first.contains(QStringLiteral("ok_per_s"));
    QCOMPARE(page.pointsTable()->horizontalHeaderItem(1)->text(),
        hasOk ? QStringLiteral("ok/s") : QStringLiteral("ops/s (completed)"));
    QCOMPARE(page.pointsTable()->item(0, 1)->text(),
        Units::formatNumber(first.value(hasOk ? QStringLiteral("ok_per_s") : QStringLiteral("ops_per_s")).toDouble()));
    QCOMPARE(page.pointsChart()->pointCount(), 2);
    // Threads are counted: the table names the axis, the chart's ticks fall on whole threads (0, 1, 2; never 0.25).
    QCOMPARE(page.pointsTable()->horizontalHeaderItem(0)->text(), QStringLiteral("Client threads"));
    // The answer as the CLI and the report's headline say it (ExperimentSummary::answer).
    const QString answer = ExperimentSummary::of(r, QStringLiteral("threads")).answer;
    QVERIFY(answer.startsWith(QStringLiteral("best ")));
    QVERIFY2(page.findChild<RunStatusLabel*>()->text().contains(answer),
        qPrintable(page.findChild<RunStatusLabel*>()->text()));
    QTRY_COMPARE(page.pointsChart()->xTickInterval(), 1.0);
    QVERIFY(page.liveChart()->seriesNames().contains(QStringLiteral("threads 1")));
    QVERIFY(page.liveChart()->yRange().second > 0); // the intervals' ok/s, live
    QVERIFY(page.referenceText().contains(u"Table 2"));
    QVERIFY(page.findChild<QPushButton*>(QStringLiteral("tlsButton"))->isEnabled());
}

void TestExperimentsPage::tlsCost()
{
    ProbeRunner runner;
    ExperimentsPage page(&runner);
    attach(&page);
    page.form()->setText(QStringLiteral("tls-uri"), m_slapd->ldapsUri);
    page.form()->setText(QStringLiteral("tls-ca-file"), m_slapd->caFile);
    const RunRecord r = runAndWait(&page, ExperimentsPage::Kind::Tls, 30000);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure + page.form()->errorText()));
    QCOMPARE(r.kind, QStringLiteral("tls-cost"));
    QCOMPARE(page.pointsTable()->rowCount(), 2);
    QCOMPARE(page.pointsTable()->item(1, 0)->text(), QStringLiteral("TLS"));
    QVERIFY(r.summary.value(u"tls_ms_per_bind").toDouble() > r.summary.value(u"plain_ms_per_bind").toDouble());
    QVERIFY(page.referenceText().startsWith(ExperimentSummary::of(r, QStringLiteral("tls")).answer));
    QVERIFY(page.referenceText().contains(u"connect + bind: plain"));
}

void TestExperimentsPage::databaseSize()
{
    ProbeRunner runner;
    ExperimentsPage page(&runner);
    attach(&page);
    page.form()->setText(QStringLiteral("entries"), QStringLiteral("100,300"));
    const RunRecord r = runAndWait(&page, ExperimentsPage::Kind::DatabaseSize, 60000);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QCOMPARE(r.kind, QStringLiteral("database-size"));
    QCOMPARE(page.pointsTable()->rowCount(), 2);
    QCOMPARE(page.pointsTable()->item(1, 0)->text(), QStringLiteral("300"));
    QCOMPARE(page.pointsChart()->pointCount(), 2);
}

void TestExperimentsPage::badPointsNameTheField()
{
    ProbeRunner runner;
    ExperimentsPage page(&runner);
    attach(&page);
    QSignalSpy started(&runner, &ProbeRunner::started);
    page.form()->setText(QStringLiteral("points"), QStringLiteral("1,x"));
    QVERIFY(!page.run(ExperimentsPage::Kind::Threads));
    QCOMPARE(page.form()->errorField(), QStringLiteral("points"));
    QVERIFY(page.form()->errorText().contains(u"'x'"));
    // The field by the label its row shows, not by its id.
    QVERIFY2(page.form()->errorText().startsWith(u"Client threads (Table 2): "), qPrintable(page.form()->errorText()));
    page.form()->setText(QStringLiteral("entries"), QStringLiteral("5"));
    QVERIFY(!page.run(ExperimentsPage::Kind::DatabaseSize));
    QCOMPARE(page.form()->errorField(), QStringLiteral("entries"));
    page.form()->setText(QStringLiteral("tls-uri"), QString());
    QVERIFY(!page.run(ExperimentsPage::Kind::Tls));
    QCOMPARE(page.form()->errorField(), QStringLiteral("tls-uri"));
    page.form()->setText(QStringLiteral("tls-uri"), QStringLiteral("ldap://plain:389"));
    QVERIFY(!page.run(ExperimentsPage::Kind::Tls));
    QCOMPARE(page.form()->errorField(), QStringLiteral("tls-uri"));
    page.form()->setText(QStringLiteral("points"), QStringLiteral("1"));
    page.form()->setRestart(true);
    QVERIFY(!page.run(ExperimentsPage::Kind::Threads));
    QCOMPARE(page.form()->errorField(), QStringLiteral("server-threads"));
    QCOMPARE(started.count(), 0);
}

void TestExperimentsPage::serverThreadsOnSlapdFailSayingWhy()
{
    ProbeRunner runner;
    ExperimentsPage page(&runner);
    attach(&page);
    page.form()->setText(QStringLiteral("server-threads"), QStringLiteral("2,4"));
    const RunRecord r = runAndWait(&page, ExperimentsPage::Kind::Threads, 30000);
    QCOMPARE(r.status, QStringLiteral("failed"));
    QVERIFY2(r.failure.contains(u"nsslapd-threadnumber"), qPrintable(r.failure));
    QCOMPARE(page.pointsTable()->rowCount(), 0);
}

void TestExperimentsPage::coverageLeadsToTheCurvePage()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("pageTabs"));
    tabs->setCurrentWidget(window.experimentsPage());
    QTest::mouseClick(window.experimentsPage()->findChild<QPushButton*>(QStringLiteral("curveButton")), Qt::LeftButton);
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(window.curvePage()));
}

QTEST_MAIN(TestExperimentsPage)
#include "tst_experimentspage.moc"
