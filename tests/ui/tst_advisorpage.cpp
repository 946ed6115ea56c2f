// The Cloud advisor page, offscreen: the evaluation of the picked disk, "what do I need" as two charts, the seed's
// table and a real disk record (dirbench-cli disk on a temp directory) beside a catalog entry with flags, a newer
// catalog accepted or refused naming the field; and the tab in the main window.
#include "core/catalog/need.h"
#include "core/run/proberunner.h"
#include "core/store/runrecorder.h"
#include "core/store/runstore.h"
#include "ui/charts/barchartview.h"
#include "ui/mainwindow.h"
#include "ui/pages/advisorevalform.h"
#include "ui/pages/advisorneedform.h"
#include "ui/pages/advisorpage.h"
#include "ui/widgets/comparisonview.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using Tone = BarChartView::Tone;

namespace {

void typeInto(QLineEdit* e, const QString& text)
{
    e->selectAll();
    QTest::keyClick(e, Qt::Key_Backspace);
    QTest::keyClicks(e, text);
}

int indexOfLabel(const BarChartView* chart, const QString& start)
{
    const QStringList labels = chart->labels();
    for (int i = 0; i < labels.size(); ++i)
        if (labels.at(i).startsWith(start))
            return i;
    return -1;
}

} // namespace

class TstAdvisorPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void evaluationOfThePickedDisk();
    void needCharts();
    void seedExample();
    void realDiskRecord();
    void newerCatalog();
    void tabInMainWindow();

private:
    QTemporaryDir m_dir;
};

void TstAdvisorPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("DirBench");
    QCoreApplication::setApplicationName("dirbench-test-advisor");
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.filePath("settings"));
}

void TstAdvisorPage::evaluationOfThePickedDisk()
{
    AdvisorPage page;
    page.show();
    // starts on the seed's final setup: P30-sized Premium SSD on Standard_DS13_v2
    const auto& e = page.evalForm()->evaluation();
    QVERIFY(e);
    QCOMPARE(e->raw.tier, QString("P30"));
    QCOMPARE(*e->diskLimit.mbps, 200.0);
    QCOMPARE(*e->vmLimit.mbps, 384.0);
    QString text = page.evalForm()->resultText();
    QVERIFY2(text.contains("200 MB/s sustained (P30)") && text.contains("384 MB/s"), qPrintable(text));
    // The provider's own page by title and publisher, never the address of the copy the catalog read it from.
    QVERIFY2(text.contains("href='https://learn.microsoft.com/") && text.contains("Microsoft"), qPrintable(text));
    QVERIFY2(!text.contains(">github.com<"), qPrintable(text));
    // pick gp2 at 100 GiB through the widgets: its 3,000-IOPS burst lasts 33.3 minutes
    AdvisorEvalForm* form = page.evalForm();
    form->providerCombo()->setCurrentIndex(form->providerCombo()->findData("aws"));
    QCOMPARE(form->diskCombo()->count(), 7); // the list follows the provider
    form->diskCombo()->setCurrentIndex(form->diskCombo()->findData("aws-ebs-gp2"));
    form->sizeSpin()->setValue(100);
    QCOMPARE(form->evaluation()->disk->id, QString("aws-ebs-gp2"));
    text = form->resultText();
    QVERIFY2(text.contains("3,000 IOPS") && text.contains("for 33.3 min"), qPrintable(text));
    QCOMPARE(form->vm(), nullptr); // DS13_v2 is not an AWS VM: the list follows the provider
    // 4 KiB at queue depth 1: gp2's 300 IOPS bind (1.2 MB/s), not the 1 ms ceiling (4.1 MB/s)
    form->setWorkload(1, 4);
    QCOMPARE(form->evaluation()->binding, QString("disk"));
    QVERIFY(std::abs(*form->evaluation()->effective.mbps - 1.2288) < 1e-9);
    // gp3 (125 MiB/s included) at queue depth 1 × 64 KiB: the Little's-law ceiling binds (65.5 MB/s)
    form->diskCombo()->setCurrentIndex(form->diskCombo()->findData("aws-ebs-gp3"));
    form->setWorkload(1, 64);
    QCOMPARE(form->evaluation()->binding, QString("queue-depth"));
    QVERIFY(form->resultText().contains("Queue depth"));
}

void TstAdvisorPage::needCharts()
{
    AdvisorPage page;
    page.show();
    // the default requirement is the seed's 100 MB/s
    BarChartView* sizes = page.sizesChart();
    QCOMPARE(sizes->barCount(), page.catalog().disks.size());
    const int p = indexOfLabel(sizes, "Premium_LRS:");
    QVERIFY(p >= 0);
    QCOMPARE(sizes->labels().at(p), QString("Premium_LRS: P10 128 GiB"));
    QCOMPARE(sizes->values().at(p), 128.0);
    QCOMPARE(sizes->tones().at(p), Tone::Good);
    const int gp2 = indexOfLabel(sizes, "gp2:");
    QCOMPARE(sizes->values().at(gp2), 128.0);
    BarChartView* vms = page.vmChart();
    QCOMPARE(vms->target(), 100.0);
    QCOMPARE(vms->tones().at(indexOfLabel(vms, "Standard_DS11_v2")), Tone::Bad);
    QCOMPARE(vms->tones().at(indexOfLabel(vms, "t3.medium")), Tone::Warn);
    QCOMPARE(vms->tones().at(indexOfLabel(vms, "r5ad.2xlarge")), Tone::Good);

    // 3,000 IOPS at 4 KiB on AWS: typed, debounced
    QSignalSpy spy(&page, &AdvisorPage::needRecomputed);
    AdvisorNeedForm* f = page.needForm();
    typeInto(f->edit("mbps"), "");
    typeInto(f->edit("iops"), "3000");
    f->providerCombo()->setCurrentIndex(f->providerCombo()->findData("aws"));
    QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 1, 2000);
    QTRY_COMPARE_WITH_TIMEOUT(sizes->barCount(), 7, 2000);
    QCOMPARE(sizes->values().at(indexOfLabel(sizes, "gp2:")), 1000.0);
    const int st1 = indexOfLabel(sizes, "st1:");
    QCOMPARE(sizes->tones().at(st1), Tone::Bad);
    QCOMPARE(sizes->labels().at(st1), QString("st1: none"));
    QCOMPARE(vms->target(), 0.0); // no MB/s in the requirement
    // a bad value names its field and leaves the charts as they were
    typeInto(f->edit("iops"), "lots");
    QTRY_COMPARE_WITH_TIMEOUT(page.needError().left(5), QString("iops:"), 2000);
    QCOMPARE(sizes->barCount(), 7);
    QVERIFY(f->edit("iops")->styleSheet().contains("#c62828"));
}

void TstAdvisorPage::seedExample()
{
    AdvisorPage page;
    page.show();
    page.showSeedCase("aws-t3.medium");
    // the picker now shows the entry the article names
    QCOMPARE(page.evalForm()->diskType()->id, QString("aws-ebs-io1"));
    QCOMPARE(page.evalForm()->sizeGib(), 1000.0);
    QCOMPARE(page.evalForm()->vm()->id, QString("t3.medium"));
    ComparisonView* v = page.comparisonView();
    QVERIFY(v->flagCodes().contains("above-published-max"));
    BarChartView* chart = v->chart();
    QCOMPARE(chart->labels().constFirst(), QString("measured: 438 MB/s"));
    QCOMPARE(chart->tones().constFirst(), Tone::Bad);
    QVERIFY(indexOfLabel(chart, "VM burst: 260.6 MB/s") >= 0);
    QVERIFY(indexOfLabel(chart, "disk listed: 524.3 MB/s") >= 0);
    QVERIFY(v->headline().contains("1.22511 s, 438 MB/s")); // the article's own words
    const RunRecord rec = page.comparisonRecord();
    QCOMPARE(rec.kind, QString("cloud-compare"));
    QVERIFY(rec.hasWarning("above-published-max"));
    // a sanity check is a warning, never a verdict: the record's only verdict is the ceiling's
    for (const Verdict& verdict : rec.verdicts)
        QCOMPARE(verdict.requirementId, QString("cloud-near-ceiling"));
    // above the published maximum it did not measure the cloud disk: not judged, never a pass
    QVERIFY(rec.verdicts.isEmpty());
    QCOMPARE(v->verdict(), ComparisonView::Verdict::None);
    QVERIFY2(v->headline().contains("not judged"), qPrintable(v->headline()));
    // the P30 case: far below the listed 200 MB/s, and its verdict fails on the bound "< 50"
    page.showSeedCase("azure-p30");
    QVERIFY(v->flagCodes().contains("far-below-listed"));
    QVERIFY(!v->flagCodes().contains("above-published-max"));
    QCOMPARE(chart->labels().constFirst(), QString("measured: < 50 MB/s"));
    QCOMPARE(chart->tones().constFirst(), Tone::Warn);
    QCOMPARE(v->verdict(), ComparisonView::Verdict::Failed);
    QVERIFY2(
        v->headline().contains("FAIL") && v->headline().contains("delivers &lt; 50 MB/s"), qPrintable(v->headline()));
    const RunRecord p30 = page.comparisonRecord();
    QCOMPARE(p30.verdicts.size(), 1);
    QVERIFY(!p30.verdicts.first().passed);
    QVERIFY(p30.verdicts.first().measuredIsUpperBound);
    // changing the size on the left re-compares: a P4 lists 25 MB/s, so 50 is now above it
    page.evalForm()->sizeSpin()->setValue(32);
    QVERIFY(indexOfLabel(chart, "disk listed: 25 MB/s") >= 0);
    QVERIFY(!v->flagCodes().contains("far-below-listed"));
}

void TstAdvisorPage::realDiskRecord()
{
    const QString runJson = m_dir.filePath("run.json");
    QProcess p;
    p.start(DIRBENCH_CLI_PATH,
        { "disk", "--dir", m_dir.path(), "--profile", "seq-write", "--size", "32M", "--duration", "1", "--qd", "2",
            "--json", runJson, "--no-history", "--quiet" });
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    QFile f(runJson);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const double measured
        = QJsonDocument::fromJson(f.readAll()).object().value("summary").toObject().value("mb_per_s").toDouble();
    QVERIFY(measured > 0);

    AdvisorPage page;
    page.show();
    page.evalForm()->select("aws-ebs-gp3", 500, "t3.medium");
    QString error;
    QVERIFY2(page.openRecord(runJson, &error), qPrintable(error));
    QCOMPARE(page.evalForm()->queueDepthSpin()->value(), 2); // the record's workload
    ComparisonView* v = page.comparisonView();
    QCOMPARE(v->chart()->values().first(), measured);
    // gp3's 125 MiB/s = 131 MB/s; t3.medium's burst 260.57: above the smaller maximum means not the cloud disk
    QCOMPARE(v->flagCodes().contains("above-published-max"), measured > 131.072 * 1.05);
    QCOMPARE(page.comparisonRecord().summary.value("measured_mb_per_s").toDouble(), measured);

    // a record that is not a disk test is refused with the reason
    const QString other = m_dir.filePath("sizing.json");
    QFile o(other);
    QVERIFY(o.open(QIODevice::WriteOnly));
    o.write(R"({"schema": "dirbench.run/1", "kind": "sizing", "summary": {}})");
    o.close();
    QVERIFY(!page.openRecord(other, &error));
    QVERIFY2(error.contains("not a disk test"), qPrintable(error));
}

void TstAdvisorPage::newerCatalog()
{
    AdvisorPage page;
    QFile builtIn(":/dirbench/catalog/cloud-disks.json");
    QVERIFY(builtIn.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(builtIn.readAll()).object();
    QJsonArray disks = root.value("disk_types").toArray();
    QJsonObject gp3 = disks.at(1).toObject();
    QJsonObject params = gp3.value("parameters").toObject();
    params["included_mbps"] = 250; // "a newer limit"
    gp3["parameters"] = params;
    disks[1] = gp3;
    root["disk_types"] = disks;
    const QString good = m_dir.filePath("newer.json");
    QFile g(good);
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write(QJsonDocument(root).toJson());
    g.close();
    QString error;
    QVERIFY2(page.loadCatalogFile(good, &error), qPrintable(error));
    QVERIFY(page.catalogText().startsWith(good));
    page.evalForm()->select("aws-ebs-gp3", 100, QString());
    QCOMPARE(*page.evalForm()->evaluation()->diskLimit.mbps, 250 * 1.048576);

    gp3["performance_model"] = "magic";
    disks[1] = gp3;
    root["disk_types"] = disks;
    const QString bad = m_dir.filePath("bad.json");
    QFile b(bad);
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write(QJsonDocument(root).toJson());
    b.close();
    QVERIFY(!page.loadCatalogFile(bad, &error));
    QCOMPARE(error, QString("disk_types[1].performance_model: unknown model 'magic'"));
    QVERIFY(page.catalogText().startsWith(good)); // the catalog in use stays
}

void TstAdvisorPage::tabInMainWindow()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    auto* tabs = window.findChild<QTabWidget*>("pageTabs");
    QVERIFY(tabs);
    QStringList titles;
    for (int i = 0; i < tabs->count(); ++i)
        titles << tabs->tabText(i);
    QVERIFY2(titles.contains("Cloud advisor"), qPrintable(titles.join(", ")));
    auto* page = window.findChild<AdvisorPage*>("advisorPage");
    QVERIFY(page);
    // "Save in history" keeps the comparison on screen as a cloud-compare run.
    page->showSeedCase("aws-t3.medium");
    QSignalSpy saved(RunRecorder::of(&runner), &RunRecorder::runSaved);
    page->findChild<QPushButton*>("saveComparisonButton")->click();
    QTRY_COMPARE(saved.count(), 1); // written on the history's thread
    RunStore store;
    QVERIFY(store.open());
    const auto runs = store.list();
    QVERIFY(!runs.isEmpty());
    QCOMPARE(runs.first().kind, QStringLiteral("cloud-compare"));
    const auto rec = store.load(runs.first().id);
    QVERIFY(rec);
    QCOMPARE(rec->toJson().value("summary"), page->comparisonRecord().toJson().value("summary"));
}

QTEST_MAIN(TstAdvisorPage)
#include "tst_advisorpage.moc"
