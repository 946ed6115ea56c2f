// The Replication page and the replication report, against a real OpenLDAP pair (core/sandbox, one syncrepl
// consumer): the page runs the marker probe for a few seconds, its consumer's chart gets points while it runs and
// the summary shows (topology, verdict sentence); bad input names its field and starts nothing; a saved record
// opens read-only through the main window (the History page's "open"); the demo directory started "with a replica"
// fills the form. The report of the record the page made (a real run, not a fixture) is written as PDF and read
// back with pdftotext (section title, consumer URI, verdict sentence on the summary page), as HTML and as CSV; the
// same record with what other parts add (knee, vendor figures, a per-consumer method) shows them on page and report.
#include "core/experiments/replicationfigures.h"
#include "core/run/proberunner.h"
#include "core/sandbox/demosandbox.h"
#include "core/sandbox/slapdconfig.h"
#include "ui/charts/livechartview.h"
#include "ui/demodirectory.h"
#include "ui/mainwindow.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/replicationform.h"
#include "ui/pages/replicationloadform.h"
#include "ui/pages/replicationpage.h"
#include "ui/report/report.h"
#include "ui/widgets/demodirectorybox.h"
#include "ui/widgets/replicationlagcharts.h"
#include "ui/widgets/replicationtopologyview.h"
#include "uisandbox.h"

#include <QCheckBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

class TestReplicationPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void runsTheProbeAgainstARealPair();
    void badInputNamesTheField();
    void opensTheSavedRecord();
    void reportOfTheRecord();
    void readsTheFieldsOthersAdd();
    void aLowerBoundShowsAsOne();
    void demoWithAReplicaFillsTheForm();
    void demo389WithAReplicaRunsTheProbe();
    void writeRampFindsTheKnee();
    void optionsThatDoNotApplyAreDisabled();

private:
    QString consumer() const { return m_pair->replicas.constFirst().uri; }
    static QString pdfText(const QString& pdf);

    QTemporaryDir m_parent;
    SandboxGuard m_pair;
    RunRecord m_record; // made by the page in runsTheProbeAgainstARealPair
};

void TestReplicationPage::initTestCase()
{
    if (const QString why = LdapFixture::replicasUnavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    ProbeError e;
    m_pair.reset(LdapFixture::startReplicated(m_parent.path(), 1, &e));
    QVERIFY2(m_pair.isValid(), qPrintable(e.message()));
}

void TestReplicationPage::cleanupTestCase()
{
    m_pair.reset();
}

void TestReplicationPage::runsTheProbeAgainstARealPair()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    ReplicationPage page(&runner, &demo);
    page.resize(1200, 700);
    page.show();
    page.form()->fillFrom(m_pair.info(), UiSandbox::password(m_pair.info()));
    page.form()->setRate(20);
    page.form()->setDuration(3);
    page.form()->setMaxLagMs(1000);
    QSignalSpy done(&page, &ReplicationPage::runFinished);
    page.start();
    QVERIFY(page.isRunning());
    // Live: the consumer's chart gets its first points while the probe still runs (1 s intervals of a 3 s run).
    QTRY_VERIFY_WITH_TIMEOUT(page.lagCharts()->chartOf(consumer())
            && page.lagCharts()->chartOf(consumer())->pointCount(ReplicationLagCharts::writesName()) > 0,
        15000);
    const bool live = page.isRunning() || done.isEmpty();
    QVERIFY2(live, "the first points came only with the end of the run");
    QVERIFY(done.wait(60000));
    m_record = done.takeFirst().at(0).value<RunRecord>();
    QCOMPARE(m_record.kind, QStringLiteral("replication"));
    QCOMPARE(m_record.status, QStringLiteral("ok"));
    LiveChartView* chart = page.lagCharts()->chartOf(consumer());
    QVERIFY(chart->pointCount(ReplicationLagCharts::p50Name()) >= 2);
    QVERIFY(chart->pointCount(ReplicationLagCharts::p99Name()) >= 2);
    QVERIFY(chart->hasRightAxis());
    QCOMPARE(page.topology()->stateOf(consumer()), QStringLiteral("in step"));
    QVERIFY2(page.verdictText().contains(QStringLiteral("consumer %1: p99 lag").arg(consumer())),
        qPrintable(page.verdictText()));
    QVERIFY2(page.verdictText().contains(QStringLiteral("within 1,000 ms")), qPrintable(page.verdictText()));
    QCOMPARE(page.lastRecord().kind, QStringLiteral("replication"));
}

void TestReplicationPage::badInputNamesTheField()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    ReplicationPage page(&runner, &demo);
    page.form()->fillFrom(m_pair.info(), UiSandbox::password(m_pair.info()));
    page.form()->setMarkerDn(QStringLiteral("not a dn"));
    page.start();
    QTRY_VERIFY(!page.isRunning()); // the check runs off the GUI thread, then refuses
    QCOMPARE(page.form()->errorField(), QStringLiteral("marker-dn"));
    QCOMPARE(runner.runningCount(), 0);
    page.form()->setMarkerDn(QStringLiteral("cn=dirbench-marker,dc=example,dc=com"));
    page.form()->setConsumers({ m_pair->uri }); // the supplier itself
    page.start();
    QTRY_VERIFY(!page.isRunning());
    QCOMPARE(page.form()->errorField(), QStringLiteral("consumer"));
    QVERIFY(page.lastRecord().kind.isEmpty());
}

void TestReplicationPage::opensTheSavedRecord()
{
    if (m_record.kind.isEmpty())
        QFAIL("no record: runsTheProbeAgainstARealPair failed first");
    ProbeRunner runner;
    MainWindow window(&runner);
    QString error;
    QVERIFY2(window.showSavedRecord(m_record, QStringLiteral("saved.json"), &error), qPrintable(error));
    ReplicationPage* page = window.replicationPage();
    QCOMPARE(window.findChild<QTabWidget*>(QStringLiteral("pageTabs"))->currentWidget(), page);
    LiveChartView* chart = page->lagCharts()->chartOf(consumer());
    QVERIFY(chart);
    // Every interval's writes/s but a tail shorter than half a second (the run's end, once the consumer caught up).
    const int writes = chart->pointCount(ReplicationLagCharts::writesName());
    QVERIFY2(writes == m_record.intervals.size() || writes == m_record.intervals.size() - 1,
        qPrintable(QString::number(writes)));
    QVERIFY(writes >= 3);
    QVERIFY(chart->pointCount(ReplicationLagCharts::p99Name()) >= 2);
    QCOMPARE(page->topology()->stateOf(consumer()), QStringLiteral("in step"));
    QVERIFY(page->verdictText().contains(consumer()));
    // Another kind is refused by this page, saying so.
    RunRecord other = m_record;
    other.kind = QStringLiteral("disk");
    QVERIFY(!page->showRecord(other, &error));
    QVERIFY(error.contains(QStringLiteral("\"disk\"")));
}

QString TestReplicationPage::pdfText(const QString& pdf)
{
    QProcess t;
    t.start(QStringLiteral("pdftotext"), { pdf, QStringLiteral("-") });
    if (!t.waitForFinished(30000) || t.exitCode() != 0)
        return {};
    return QString::fromUtf8(t.readAllStandardOutput()).simplified();
}

void TestReplicationPage::reportOfTheRecord()
{
    if (m_record.kind.isEmpty())
        QFAIL("no record: runsTheProbeAgainstARealPair failed first");
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
        QFAIL("pdftotext is not installed: scripts/deps.sh --test installs poppler-utils");
    const ReportDocument doc = Report::build({ m_record });
    const QString sentence = m_record.summary.value("verdict_sentences").toArray().at(0).toString();
    QVERIFY(sentence.startsWith(QStringLiteral("consumer ") + consumer()));
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("replication.pdf"));
    QString error;
    QVERIFY2(Report::writePdf(doc, pdf, &error), qPrintable(error));
    const QString text = pdfText(pdf);
    QVERIFY2(!text.isEmpty(), "pdftotext read nothing");
    QVERIFY(text.contains(QStringLiteral("Replication lag per consumer (ms)")));
    QVERIFY(text.contains(QStringLiteral("Run 1: replication #1 (replication)")));
    QVERIFY(text.contains(consumer()));
    QVERIFY2(text.contains(sentence), qPrintable(sentence));
    // The summary page (before the runs' details) holds the verdict sentence with its run.
    const qsizetype details = text.indexOf(QStringLiteral("Runs and verdicts"));
    const qsizetype onSummary = text.indexOf(QStringLiteral("replication #1: ") + sentence);
    QVERIFY2(onSummary >= 0 && onSummary < details, qPrintable(text.left(1500)));
    QVERIFY(text.contains(QStringLiteral("-625 and -626")));
    const QString html = Report::htmlOf(doc);
    QVERIFY(html.contains(QStringLiteral("Replication lag per consumer (ms)")));
    QVERIFY(html.contains(QStringLiteral("<svg")));
    const QString csv = Report::csvOf({ m_record }, {});
    const QString column = QStringLiteral("consumers.") + consumer() + QStringLiteral(".lag_ms.p99");
    const QStringList lines = csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    const int at = int(lines.constFirst().split(u',').indexOf(column + QStringLiteral(" [ms]")));
    const int plain = int(lines.constFirst().split(u',').indexOf(column));
    const int col = at >= 0 ? at : plain;
    QVERIFY2(col >= 0, qPrintable(lines.constFirst()));
    int numbers = 0; // an interval in which no marker arrived has no lag: its cell is empty
    for (qsizetype i = 1; i < lines.size(); ++i) {
        bool number = false;
        const double p99 = lines.at(i).split(u',').value(col).toDouble(&number);
        numbers += number && p99 >= 0 ? 1 : 0;
    }
    QVERIFY2(numbers >= 2, qPrintable(csv));
}

// The page's own record with what other parts add to it (never required): the knee of a write ramp, the vendor's
// figures and a per-consumer method. The page and the report show each.
void TestReplicationPage::readsTheFieldsOthersAdd()
{
    if (m_record.kind.isEmpty())
        QFAIL("no record: runsTheProbeAgainstARealPair failed first");
    RunRecord r = m_record;
    QJsonObject consumers = r.summary.value("consumers").toObject();
    QJsonObject c = consumers.value(consumer()).toObject();
    c.insert("method", "sync");
    // The vendor's figures are the real ones: the page's own run read the pair's contextCSN.
    QVERIFY2(c.value("vendor").toObject().value("lag_p99_ms").isDouble(), "the run's record has the vendor's lag");
    consumers.insert(consumer(), c);
    r.summary.insert("consumers", consumers);
    r.summary.insert("knee_write_rate", 15);
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    ReplicationPage page(&runner, &demo);
    QString error;
    QVERIFY2(page.showRecord(r, &error), qPrintable(error));
    LiveChartView* chart = page.lagCharts()->chartOf(consumer());
    QCOMPARE(chart->pointCount(ReplicationLagCharts::kneeName(15)), 2);
    QVERIFY(page.verdictText().contains(QStringLiteral("knee 15 writes/s")));
    const int row = page.topology()->rowOf(consumer());
    QCOMPARE(page.topology()->item(row, 3)->text(), QStringLiteral("sync"));
    QVERIFY2(page.topology()->item(row, 6)->text().startsWith(QStringLiteral("contextCSN lag p99 ")),
        qPrintable(page.topology()->item(row, 6)->text()));
    // The report's consumers table (what the PDF and the HTML print), then the PDF itself.
    const ReportDocument doc = Report::build({ r });
    QStringList cells;
    for (const ReportSection& section : doc.sections)
        for (const ReportBlock& b : section.blocks)
            if (b.kind == ReportBlock::Kind::Table && b.table.header.value(0) == u"consumer")
                cells = b.table.rows.value(0);
    QCOMPARE(cells.value(0), consumer());
    QCOMPARE(cells.value(1), QStringLiteral("sync"));
    QVERIFY2(cells.constLast().startsWith(QStringLiteral("contextCSN lag p99 ")), qPrintable(cells.join(" | ")));
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("others.pdf"));
    QVERIFY2(Report::writePdf(doc, pdf, &error), qPrintable(error));
    const QString text = pdfText(pdf);
    QVERIFY(text.contains(QStringLiteral("knee 15 writes/s")));
    QVERIFY(text.contains(QStringLiteral("contextCSN lag p99")));
}

// A consumer whose p99 falls among markers it never showed: the page's table, the report's table and the history's
// headline print the figure as the lower bound it is ("> 6,500.3"), never as a plain number.
void TestReplicationPage::aLowerBoundShowsAsOne()
{
    if (m_record.kind.isEmpty())
        QSKIP("no record: runsTheProbeAgainstARealPair failed first");
    RunRecord r = m_record;
    QJsonObject consumers = r.summary.value("consumers").toObject();
    QJsonObject c = consumers.value(consumer()).toObject();
    QJsonObject lag = c.value("lag_ms").toObject();
    lag.insert("p99", 6500.3);
    lag.insert("max", 6900.0);
    lag.insert("p99_at_least", true);
    lag.insert("max_at_least", true);
    c.insert("lag_ms", lag);
    c.insert("unseen", 121);
    consumers.insert(consumer(), c);
    r.summary.insert("consumers", consumers);
    const QString headline = ReplicationFigures::headline(r);
    QVERIFY2(headline.startsWith(QStringLiteral("p99 lag > 6,500.3 ms")), qPrintable(headline));
    QVERIFY2(headline.contains(QStringLiteral("121 unseen")), qPrintable(headline));
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    ReplicationPage page(&runner, &demo);
    QString error;
    QVERIFY2(page.showRecord(r, &error), qPrintable(error));
    const QString cell = page.topology()->item(page.topology()->rowOf(consumer()), 5)->text(); // the lag column
    QVERIFY2(cell.contains(QStringLiteral("> 6,500.3")) && cell.contains(QStringLiteral("> 6,900")), qPrintable(cell));
    const ReportDocument doc = Report::build({ r });
    QStringList cells;
    for (const ReportSection& section : doc.sections)
        for (const ReportBlock& b : section.blocks)
            if (b.kind == ReportBlock::Kind::Table && b.table.header.value(0) == u"consumer")
                cells = b.table.rows.value(0);
    QCOMPARE(cells.value(3), QStringLiteral("> 6,500.3"));
}

void TestReplicationPage::demoWithAReplicaFillsTheForm()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    DemoDirectoryBox* box = window.ldapPage()->demoBox();
    box->setEntries(100);
    box->setReplica(true);
    auto* tls = box->findChild<QCheckBox*>(QStringLiteral("demoTlsCheck"));
    QVERIFY(tls && !tls->isEnabled()); // a replicated demo has no TLS
    DemoDirectory* demo = window.ldapPage()->demo();
    QString why;
    const std::optional<SandboxInfo> started = UiSandbox::startDemo(box, demo, &why);
    QVERIFY2(started, qPrintable(why));
    const SandboxInfo info = *started;
    QCOMPARE(info.replicas.size(), 1);
    ReplicationForm* form = window.replicationPage()->form();
    QCOMPARE(form->connection()->uri(), info.uri);
    QCOMPARE(form->consumers(), QStringList { info.replicas.constFirst().uri });
    QVERIFY(box->statusText().contains(info.replicas.constFirst().uri));
    QVERIFY2(demo->stopNow(&why), qPrintable(why));
}

// The demo directory as a 389 Directory Server with a consumer, chosen in the box: the Replication page is filled
// in with its supplier and consumer and its marker probe runs against them (389's own replication agreement).
void TestReplicationPage::demo389WithAReplicaRunsTheProbe()
{
    if (const QString why = DemoSandbox::unavailableReason(DemoSandbox::Server::Ds389); !why.isEmpty())
        QSKIP(qPrintable(why));
    ProbeRunner runner;
    MainWindow window(&runner);
    DemoDirectoryBox* box = window.ldapPage()->demoBox();
    box->setServer(DemoSandbox::Server::Ds389);
    box->setEntries(100);
    box->setTopology(SandboxTopology::withReplicas(2)); // not offered by 389-ds: one consumer instead
    auto* tls = box->findChild<QCheckBox*>(QStringLiteral("demoTlsCheck"));
    QVERIFY(tls && !tls->isEnabled());
    DemoDirectory* demo = window.ldapPage()->demo();
    QString why;
    const std::optional<SandboxInfo> started = UiSandbox::startDemo(box, demo, &why);
    QVERIFY2(started, qPrintable(why));
    const SandboxInfo info = *started;
    QVERIFY(info.is389ds());
    QCOMPARE(info.replicas.size(), 1);
    QVERIFY2(box->statusText().contains(QStringLiteral("389-ds running at ")), qPrintable(box->statusText()));
    ReplicationPage* page = window.replicationPage();
    QCOMPARE(page->form()->connection()->uri(), info.uri);
    QCOMPARE(page->form()->consumers(), QStringList { info.replicas.constFirst().uri });
    page->form()->setRate(10);
    page->form()->setDuration(3);
    page->form()->setMaxLagMs(5000);
    QSignalSpy done(page, &ReplicationPage::runFinished);
    page->start();
    QVERIFY(done.wait(90000));
    const RunRecord record = done.takeFirst().at(0).value<RunRecord>();
    QVERIFY2(record.status == u"ok", qPrintable(record.status + u' ' + record.failure));
    QCOMPARE(page->topology()->stateOf(info.replicas.constFirst().uri), QStringLiteral("in step"));
    QVERIFY2(demo->stopNow(&why), qPrintable(why));
    QVERIFY(!QFileInfo::exists(info.dir));
}

// A write ramp from the page (modify load beside the markers) on the pair, its consumer stopped (SIGSTOP) when the
// ramp's last step begins and let go only after the run (the probe's grace ends with markers it never saw): the
// consumer falls behind at that step and stays behind, which is the knee; the page draws it and names it, and the
// record says the same.
void TestReplicationPage::writeRampFindsTheKnee()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    ReplicationPage page(&runner, &demo);
    page.resize(1200, 700);
    page.show();
    page.form()->fillFrom(m_pair.info(), UiSandbox::password(m_pair.info()));
    page.form()->setRate(20);
    page.form()->setWatch(QStringLiteral("poll"));
    ReplicationLoadForm* load = page.form()->loadForm();
    load->setOn(true);
    load->setText(QStringLiteral("ramp"), QStringLiteral("rate:20,40,80@2"));
    load->setNumber(QStringLiteral("threads"), 1);
    load->setNumber(QStringLiteral("connections"), 1);
    QVERIFY(!load->field(QStringLiteral("rate"))->isEnabled()); // the ramp sets the rate
    const auto consumerPid = pid_t(m_pair->replicas.constFirst().pid);
    bool stopped = false;
    double stoppedAt = -1;
    // The consumer's fault follows the run's own clock: stopped once the last step (t > 4 s) begins.
    connect(&runner, &ProbeRunner::samplesArrived, &page, [&](int, const SampleBatch& batch) {
        for (const Sample& smp : batch)
            if (!stopped && smp.t >= 4.0) {
                stopped = ::kill(consumerPid, SIGSTOP) == 0;
                stoppedAt = smp.t;
            }
    });
    QSignalSpy done(&page, &ReplicationPage::runFinished);
    page.start();
    const bool finished = done.wait(120000);
    if (stopped)
        ::kill(consumerPid, SIGCONT);
    QVERIFY(finished);
    QVERIFY(stopped);
    const RunRecord rec = done.takeFirst().at(0).value<RunRecord>();
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QVERIFY(rec.spec.value("load").isObject());
    const auto knee = ReplicationFigures::kneeRate(rec.summary);
    QVERIFY2(knee.has_value(),
        qPrintable(QStringLiteral("stopped at %1 s: ").arg(stoppedAt)
            + QString::fromUtf8(
                QJsonDocument(rec.summary.value("steps").toArray().last().toObject()).toJson(QJsonDocument::Compact))));
    QCOMPARE(rec.summary.value("knee_step").toInt(), 2); // steps count from 0: the third
    LiveChartView* chart = page.lagCharts()->chartOf(consumer());
    QVERIFY(chart->seriesNames().contains(ReplicationLagCharts::kneeName(*knee)));
    QVERIFY2(page.verdictText().contains(QStringLiteral("The knee of the write ramp")), qPrintable(page.verdictText()));
}

// What does not apply is disabled with the reason, as the command line refuses it; the watch and the consumers'
// own bind reach the spec; a load that does not write is refused naming the mix.
void TestReplicationPage::optionsThatDoNotApplyAreDisabled()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    ReplicationPage page(&runner, &demo);
    ReplicationForm* form = page.form();
    form->fillFrom(m_pair.info(), UiSandbox::password(m_pair.info()));
    ReplicationLoadForm* load = form->loadForm();
    load->setOn(true);
    load->setText(QStringLiteral("mix"), QStringLiteral("adddel=1"));
    QVERIFY(!load->field(QStringLiteral("dn"))->isEnabled());
    QVERIFY(load->field(QStringLiteral("dn"))->toolTip().contains(QStringLiteral("modify")));
    QVERIFY(load->field(QStringLiteral("parent"))->isEnabled());
    form->setWatch(QStringLiteral("push"));
    form->setConsumerBind(QStringLiteral("cn=reader,dc=example,dc=com"), "secret");
    ReplicationSpec spec;
    form->readSpec(&spec);
    QCOMPARE(spec.watch, QStringLiteral("push"));
    QCOMPARE(spec.consumers.constFirst().bindDn, QStringLiteral("cn=reader,dc=example,dc=com"));
    QCOMPARE(spec.consumers.constFirst().password, QByteArray("secret"));
    QCOMPARE(spec.supplier.bindDn, m_pair->bindDn);
    QVERIFY(spec.load.has_value());
    QCOMPARE(spec.load->target.uri, spec.supplier.uri);
    QCOMPARE(spec.load->sizeLimit, 0); // the defaults of `ldap mixed`: no size limit, errors never stop the run
    QCOMPARE(spec.load->maxErrors, 0);
    QCOMPARE(spec.load->outstanding, 4);
    form->setConsumerBind({}, {});
    load->setText(QStringLiteral("mix"), QStringLiteral("search=1"));
    page.start();
    QTRY_VERIFY(!page.isRunning());
    QCOMPARE(form->errorField(), QStringLiteral("mix"));
    QCOMPARE(runner.runningCount(), 0);
}

QTEST_MAIN(TestReplicationPage)
#include "tst_replicationpage.moc"
