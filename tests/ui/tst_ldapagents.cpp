// Issue 15 on the LDAP page: a search load from "these hosts" = local:2 (two agent processes of this build's
// dirbench-cli) against a real slapd sandbox, the live strip of agents, the record kept in the history, the split's
// refusal before anything starts, "Check agents" off the GUI thread, and the report's per-agent table read back
// from the PDF and the HTML.
#include "core/common/reportformat.h"
#include "core/run/proberunner.h"
#include "core/store/runrecorder.h"
#include "core/store/runstore.h"
#include "ui/charts/livechartview.h"
#include "ui/demodirectory.h"
#include "ui/pages/ldapagentsform.h"
#include "ui/reportexport.h"
#include "ui/widgets/agentstrip.h"
#include "ui/widgets/ldaploadview.h"
#include "uisandbox.h"

#include <QFile>
#include <QJsonArray>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

namespace {

void fillAgents(LdapPage* page, const QString& hosts)
{
    page->agentsForm()->setSource(LdapAgentsForm::Source::Hosts);
    page->agentsForm()->setHosts(hosts);
    page->agentsForm()->setAgentCommand(QStringLiteral(DIRBENCH_CLI_PATH));
}

// A figure as the strip prints it (thousands separated) read back.
double figure(QString text)
{
    text.remove(QRegularExpression(QStringLiteral("[^0-9.]")));
    return text.toDouble();
}

QString pdfText(const QString& pdf)
{
    QProcess t;
    t.start("pdftotext", { "-layout", pdf, "-" });
    if (!t.waitForFinished(30000) || t.exitCode() != 0)
        return {};
    return QString::fromUtf8(t.readAllStandardOutput());
}

} // namespace

class TestLdapAgents : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void twoLocalAgentsRunASearchLoad();
    void fewerThreadsThanAgentsIsRefused();
    void otherOperationsFromAgents_data();
    void otherOperationsFromAgents();
    void checkAgentsShowsEachHost();
    void reportHasTheAgentTable();

private:
    SandboxGuard m_sbx;
    RunRecord m_record; // the run of twoLocalAgentsRunASearchLoad
    QTemporaryDir m_dir;
};

void TestLdapAgents::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): the agents' load needs a real server");
    QString why;
    m_sbx = UiSandbox::start(1000, &why);
    QVERIFY2(m_sbx, qPrintable(why));
}

void TestLdapAgents::cleanupTestCase()
{
    m_sbx.reset();
}

void TestLdapAgents::twoLocalAgentsRunASearchLoad()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    QSignalSpy finished(&page, &LdapPage::runFinished);
    QSignalSpy saved(RunRecorder::of(&runner), &RunRecorder::runSaved);
    UiSandbox::fillSearch(&page, m_sbx.info(), 3);
    page.loadForm()->setNumber(QStringLiteral("threads"), 2);
    fillAgents(&page, QStringLiteral("local:2"));
    // What the strip shows while the run goes on, after the page has taken each batch.
    int liveRunningWithOk = 0;
    connect(&runner, &ProbeRunner::samplesArrived, this, [&] {
        AgentStrip* s = page.agentStrip();
        int n = 0;
        for (int r = 0; r < s->rowCount(); ++r)
            if (s->cell(r, AgentStrip::State) == u"running" && figure(s->cell(r, AgentStrip::Ok)) > 0)
                ++n;
        if (s->rowCount() == 2 && !s->isHidden())
            liveRunningWithOk = std::max(liveRunningWithOk, n);
    });
    page.start();
    QVERIFY2(page.isRunning(), qPrintable(page.errorText()));
    QTRY_VERIFY_WITH_TIMEOUT(page.currentRunId() != 0, 30000); // after the off-thread check
    QVERIFY(!page.agentStrip()->isHidden());
    QCOMPARE(page.agentStrip()->rowCount(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 90000);
    QCOMPARE(liveRunningWithOk, 2); // both agents running with successes, live, not only at the end

    m_record = page.lastRecord();
    QVERIFY2(m_record.status == u"ok", qPrintable(m_record.failure));
    QCOMPARE(m_record.kind, QStringLiteral("ldap-search"));
    QCOMPARE(m_record.spec.value("agents").toObject().value("count").toInt(), 2);
    AgentStrip* strip = page.agentStrip();
    QCOMPARE(strip->rowCount(), 2);
    QCOMPARE(strip->cell(0, AgentStrip::Name), QStringLiteral("local 1"));
    QCOMPARE(strip->cell(1, AgentStrip::Name), QStringLiteral("local 2"));
    for (int r = 0; r < 2; ++r) {
        QCOMPARE(strip->cell(r, AgentStrip::State), QStringLiteral("ok"));
        QVERIFY2(figure(strip->cell(r, AgentStrip::Ok)) > 0, qPrintable(strip->cell(r, AgentStrip::Ok)));
    }
    // The merged intervals reached the charts; the status samples did not.
    QVERIFY(page.loadView()->opsChart()->pointCount(QStringLiteral("ok/s")) >= 3);

    // The record as the history keeps it: agents[] of 2 whose ok adds up to the summary's.
    qint64 id = 0;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const auto& s : saved)
                if (s.at(2).toString() == u"ok")
                    id = s.at(0).toLongLong();
            return id != 0;
        }(),
        15000);
    RunStore store;
    QVERIFY(store.open());
    const auto stored = store.load(id);
    QVERIFY(stored);
    const QJsonArray agents = stored->extra.value("agents").toArray();
    QCOMPARE(agents.size(), 2);
    double sum = 0;
    for (const auto& a : agents) {
        QVERIFY(a.toObject().value("ok").toDouble() > 0);
        sum += a.toObject().value("ok").toDouble();
    }
    QCOMPARE(sum, stored->summary.value("ok").toDouble());
    for (const auto& iv : stored->intervals)
        QVERIFY(!iv.toObject().value("series").toString().startsWith(u"status: ")); // never stored
}

void TestLdapAgents::fewerThreadsThanAgentsIsRefused()
{
    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    UiSandbox::fillSearch(&page, m_sbx.info(), 2);
    page.loadForm()->setNumber(QStringLiteral("threads"), 1);
    fillAgents(&page, QStringLiteral("local:2"));
    page.start();
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 15000); // the off-thread check said no
    QCOMPARE(page.errorField(), QStringLiteral("threads"));
    QVERIFY2(
        page.errorText().startsWith(QStringLiteral("Threads: 1 threads for 2 agents")), qPrintable(page.errorText()));
    QCOMPARE(page.findChild<QTabWidget*>("ldapFormTabs")->currentIndex(), 1); // the Load tab, where Threads is
    QCOMPARE(started.count(), 0);
    QCOMPARE(page.currentRunId(), 0);

    // "both": this machine is one more agent.
    page.agentsForm()->setSource(LdapAgentsForm::Source::Both);
    page.agentsForm()->setHosts("local:1");
    page.start();
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 15000);
    QCOMPARE(page.errorField(), QStringLiteral("threads"));
    QVERIFY2(
        page.errorText().startsWith(QStringLiteral("Threads: 1 threads for 2 agents")), qPrintable(page.errorText()));
    QCOMPARE(started.count(), 0);
    page.agentsForm()->setSource(LdapAgentsForm::Source::Hosts);

    // No host at all: the Hosts field is named, on the Hosts tab.
    page.agentsForm()->setHosts(QStringLiteral("# nothing here\n"));
    page.loadForm()->setNumber(QStringLiteral("threads"), 2);
    page.start();
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 15000);
    QCOMPARE(page.errorField(), QStringLiteral("agents"));
    QVERIFY2(page.errorText().startsWith(QStringLiteral("Hosts: no host")), qPrintable(page.errorText()));
    QCOMPARE(page.findChild<QTabWidget*>("ldapFormTabs")->currentIndex(), 2);
    QCOMPARE(started.count(), 0);
}

// The agents' command line (Agents::agentLoadArgs) for the operations but search: each agent's `ldap` parser takes
// it (an option an operation does not take would be refused), and the merged ok is the agents' sum.
void TestLdapAgents::otherOperationsFromAgents_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("mix");
    QTest::addColumn<bool>("writes");
    QTest::addColumn<QString>("kind");
    QTest::newRow("compare") << "compare"
                             << "" << false << "ldap-compare";
    QTest::newRow("adddel") << "adddel"
                            << "" << true << "ldap-adddel";
    QTest::newRow("mixed") << "mixed"
                           << "search=60,compare=20,modify=20" << true << "ldap-mixed";
}

void TestLdapAgents::otherOperationsFromAgents()
{
    QFETCH(QString, op);
    QFETCH(QString, mix);
    QFETCH(bool, writes);
    QFETCH(QString, kind);
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    QSignalSpy finished(&page, &LdapPage::runFinished);
    UiSandbox::fillSearch(&page, m_sbx.info(), 1);
    LdapLoadForm* f = page.loadForm();
    f->setOperation(op);
    f->setText("mix", mix);
    f->setText("dn", "uid=user[0-999]," + m_sbx->peopleBase);
    f->setText("attr", "description");
    f->setText("value", "dirbench agents [0-99]");
    f->setText("parent", m_sbx->peopleBase);
    f->setNumber("threads", 2);
    fillAgents(&page, "local:2");
    page.start();
    if (writes) {
        QTRY_VERIFY_WITH_TIMEOUT(page.findChild<QMessageBox*>(), 15000);
        page.findChild<QMessageBox*>()->findChild<QPushButton*>("confirmWriteButton")->click();
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 90000);
    const RunRecord rec = page.lastRecord();
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QCOMPARE(rec.kind, kind);
    const QJsonArray agents = rec.extra.value("agents").toArray();
    QCOMPARE(agents.size(), 2);
    double sum = 0;
    for (const auto& a : agents)
        sum += a.toObject().value("ok").toDouble();
    QVERIFY(sum > 0);
    QCOMPARE(sum, rec.summary.value("ok").toDouble());
}

void TestLdapAgents::checkAgentsShowsEachHost()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    UiSandbox::fillSearch(&page, m_sbx.info(), 2);
    fillAgents(&page, QStringLiteral("local:2"));
    QSignalSpy checked(page.agentsForm(), &LdapAgentsForm::checkFinished);
    auto* button = page.findChild<QPushButton*>("checkAgentsButton");
    QVERIFY(button && button->isEnabled());
    button->click();
    QVERIFY(page.agentsForm()->isChecking()); // the window goes on; the answer comes back by a signal
    QVERIFY(!button->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 60000);
    QTableWidget* t = page.agentsForm()->checkTable();
    QCOMPARE(t->rowCount(), 2);
    for (int r = 0; r < 2; ++r) {
        QCOMPARE(t->item(r, 0)->text(), QStringLiteral("local %1").arg(r + 1));
        QVERIFY(!t->item(r, 1)->text().isEmpty() && t->item(r, 1)->text() != u"–"); // version
        QVERIFY(t->item(r, 2)->text().toInt() >= 1); // CPUs
        QVERIFY(t->item(r, 3)->text() != u"–"); // clock offset
        QVERIFY(t->item(r, 4)->text() != u"–"); // round trip
        QCOMPARE(t->item(r, 5)->text(), QStringLiteral("reached"));
    }
    QVERIFY(button->isEnabled());

    // A target no agent reaches: each row says so.
    page.connectionForm()->setUri(QStringLiteral("ldap://127.0.0.1:1"));
    button->click();
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 2, 60000);
    QCOMPARE(t->rowCount(), 2);
    QVERIFY2(t->item(0, 5)->text().contains(QStringLiteral("127.0.0.1:1")), qPrintable(t->item(0, 5)->text()));
}

void TestLdapAgents::reportHasTheAgentTable()
{
    if (m_record.kind.isEmpty())
        QFAIL("no record: twoLocalAgentsRunASearchLoad did not run");
    if (QStandardPaths::findExecutable("pdftotext").isEmpty())
        QFAIL("pdftotext is not installed: scripts/deps.sh --test installs poppler-utils");
    QString error;
    const QString pdf = m_dir.filePath("agents.pdf");
    const QString html = m_dir.filePath("agents.html");
    QVERIFY2(ReportExport::exportTo({ m_record }, { "Two agents" }, pdf, &error), qPrintable(error));
    QVERIFY2(ReportExport::exportTo({ m_record }, { "Two agents" }, html, &error), qPrintable(error));
    const QString text = pdfText(pdf);
    QFile f(html);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString page = QString::fromUtf8(f.readAll());
    QVERIFY2(text.contains("Agents (2)"), qPrintable(text.left(3000)));
    QVERIFY(page.contains("Agents (2)"));
    const QJsonArray agents = m_record.extra.value("agents").toArray();
    for (const auto& v : agents) {
        const QJsonObject a = v.toObject();
        const QString name = a.value("name").toString();
        const QString ok = ReportFormat::number(a.value("ok").toDouble());
        // The agent's row: its name, its share (1 of the 2 threads) and its ok on one line of the PDF; in the HTML.
        bool row = false;
        for (const QString& line : text.split(u'\n'))
            row = row || (line.contains(name) && line.contains("1 thread") && line.contains(ok));
        QVERIFY2(row, qPrintable(name + u' ' + ok + u'\n' + text.right(3000)));
        QVERIFY2(page.contains("<td>" + name + "</td>"), qPrintable(name));
        QVERIFY2(page.contains("<td>" + ok + "</td>"), qPrintable(ok));
    }
}

QTEST_MAIN(TestLdapAgents)
#include "tst_ldapagents.moc"
