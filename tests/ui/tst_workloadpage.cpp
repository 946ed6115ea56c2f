// The Workload page on a generated 389-ds access log (real files on disk, a gzip'd copy too): Analyze runs
// WorkloadAnalyze::run as a job; the templates table, the mix chart and the figures are the analysis's; bad input is
// named before anything runs; Save writes a workload WorkloadFile::read accepts; Export JSON writes the analysis; the
// fitted skew reaches the Curve page through the main window.
#include "core/common/units.h"
#include "core/run/proberunner.h"
#include "core/workload/workloadanalyze.h"
#include "core/workload/workloadfile.h"
#include "ui/charts/livechartview.h"
#include "ui/mainwindow.h"
#include "ui/models/workloadtemplatemodel.h"
#include "ui/pages/curvepage.h"
#include "ui/pages/replicationpage.h"
#include "ui/pages/workloadform.h"
#include "ui/pages/workloadpage.h"
#include "ui/widgets/curvepredictor.h"
#include "workloadlog.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

namespace {

// A uniform-access curve record (h(c) = c), as tst_curvepage makes it: t_hit 100 µs, t_miss 500 µs, 10,000 entries.
RunRecord uniformCurveRecord()
{
    RunRecord r;
    r.kind = QStringLiteral("curve");
    r.started = QDateTime::currentDateTimeUtc();
    QJsonArray pts;
    for (const double c : { 0.01, 0.1, 0.25, 0.5, 0.75, 1.0 }) {
        const double ops = 1.0 / (500e-6 - 400e-6 * c);
        pts.append(QJsonObject { { QStringLiteral("target"), c }, { QStringLiteral("coverage"), c },
            { QStringLiteral("hit_ratio"), c }, { QStringLiteral("ok_per_s"), ops },
            { QStringLiteral("ops_per_s"), ops } });
    }
    r.summary.insert(QStringLiteral("points"), pts);
    r.summary.insert(QStringLiteral("entries"), 10000.0);
    r.summary.insert(QStringLiteral("access"), QStringLiteral("uniform"));
    r.extra.insert(QStringLiteral("bytes_per_entry"), 3000.0);
    return r;
}

bool analyze(WorkloadPage* page)
{
    QSignalSpy done(page, &WorkloadPage::analyzed);
    QTest::mouseClick(page->findChild<QPushButton*>(QStringLiteral("workloadAnalyzeButton")), Qt::LeftButton);
    if (!page->isRunning())
        return false;
    return done.wait(60000) && done.first().first().toBool();
}

} // namespace

class TstWorkloadPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void tableIsTheAnalysis();
    void badInputNamedNothingStarts();
    void saveAndExport();
    void cancelDropsTheResult();
    void skewReachesCurvePage();

private:
    QTemporaryDir m_dir;
    QString m_log;
    QString m_gz;
};

void TstWorkloadPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.path());
    qputenv("DIRBENCH_HISTORY", m_dir.filePath(QStringLiteral("history.sqlite")).toLocal8Bit());
    m_log = m_dir.filePath(QStringLiteral("access"));
    QFile f(m_log);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const QByteArray log = WorkloadLog::generate389(60, 0.6);
    QVERIFY(f.write(log) == log.size());
    f.close();
    // The same log split in two, the second part gzip'd (a rotated pair).
    const qsizetype cut = log.indexOf('\n', log.size() / 2) + 1;
    QFile a(m_dir.filePath(QStringLiteral("access.20261201")));
    QVERIFY(a.open(QIODevice::WriteOnly));
    a.write(log.left(cut));
    a.close();
    QFile b(m_dir.filePath(QStringLiteral("access.20261202")));
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write(log.mid(cut));
    b.close();
    QCOMPARE(QProcess::execute(QStringLiteral("gzip"), { b.fileName() }), 0);
    m_gz = b.fileName() + QStringLiteral(".gz");
    QVERIFY(QFile::exists(m_gz));
}

void TstWorkloadPage::tableIsTheAnalysis()
{
    ProbeRunner runner;
    WorkloadPage page(&runner);
    QAbstractItemModelTester tester(page.templateModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    page.form()->setFiles({ m_log });
    QVERIFY(analyze(&page));

    AnalyzeOptions o;
    o.logs = { m_log };
    const AnalyzeResult expected = WorkloadAnalyze::run(o);
    QVERIFY2(expected.error.isEmpty(), qPrintable(expected.error));
    const QJsonArray templates = expected.analysis.value(QStringLiteral("templates")).toArray();
    WorkloadTemplateModel* m = page.templateModel();
    QCOMPARE(m->rowCount(), int(templates.size()));
    QVERIFY(m->rowCount() >= 4); // bind, the two searches, the modify
    // The templates' column has room for them (at least 160 px), not what nine fitted figure columns leave over.
    auto* table = page.findChild<QTableView*>(QStringLiteral("workloadTemplates"));
    QVERIFY(table);
    QVERIFY2(table->columnWidth(WorkloadTemplateModel::Template) >= 160,
        qPrintable(QString::number(table->columnWidth(WorkloadTemplateModel::Template))));
    for (int r = 0; r < m->rowCount(); ++r) {
        const QJsonObject t = templates.at(r).toObject();
        QCOMPARE(m->index(r, WorkloadTemplateModel::Template).data().toString(),
            t.value(QStringLiteral("template")).toString());
        QCOMPARE(m->index(r, WorkloadTemplateModel::Count).data(WorkloadTemplateModel::SortRole).toDouble(),
            t.value(QStringLiteral("count")).toDouble());
    }
    const int uid = [&] {
        for (int r = 0; r < m->rowCount(); ++r)
            if (m->index(r, 0).data().toString().contains(QStringLiteral("uid=")))
                return r;
        return -1;
    }();
    QVERIFY(uid >= 0);
    QCOMPARE(m->index(uid, WorkloadTemplateModel::Count).data(WorkloadTemplateModel::SortRole).toDouble(), 1200.0);
    const QString skew = m->index(uid, WorkloadTemplateModel::Skew).data().toString();
    qInfo("uid template: %s, skew %s", qPrintable(m->index(uid, 0).data().toString()), qPrintable(skew));
    QVERIFY2(skew.startsWith(QStringLiteral("Zipf α")) || skew.startsWith(QStringLiteral("hot set")), qPrintable(skew));
    // The mail search is the unindexed one.
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, 0).data().toString().contains(QStringLiteral("mail=")))
            QCOMPARE(m->index(r, WorkloadTemplateModel::Unindexed).data().toString(), QStringLiteral("100.0 %"));

    // Sorting by count ascending puts the smallest count first (through the view's proxy).
    QTableView* view = page.templateView();
    view->sortByColumn(WorkloadTemplateModel::Count, Qt::AscendingOrder);
    double prev = -1;
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const double n
            = view->model()->index(r, WorkloadTemplateModel::Count).data(WorkloadTemplateModel::SortRole).toDouble();
        QVERIFY(n >= prev);
        prev = n;
    }
    // The mix chart: a series per kind, a point per second, and operations in flight.
    LiveChartView* chart = page.mixChart();
    const QStringList series = chart->seriesNames();
    QVERIFY2(series.contains(QStringLiteral("search")) && series.contains(QStringLiteral("bind")),
        qPrintable(series.join(u',')));
    const int buckets = int(expected.analysis.value(QStringLiteral("per_second")).toArray().size());
    QVERIFY(buckets >= 30);
    QCOMPARE(chart->pointCount(QStringLiteral("search")), buckets);
    QVERIFY(chart->hasRightAxis());
    QVERIFY2(page.summaryText().contains(QStringLiteral("60 connections")), qPrintable(page.summaryText()));
    QVERIFY2(page.figuresText().contains(QStringLiteral("60 connects")), qPrintable(page.figuresText()));

    // The rotated pair, one part gzip'd, gives the same counts.
    page.form()->setFiles({ m_gz, m_dir.filePath(QStringLiteral("access.20261201")) });
    QVERIFY(analyze(&page));
    QCOMPARE(page.analysis().value(QStringLiteral("operations_total")),
        expected.analysis.value(QStringLiteral("operations_total")));
    QCOMPARE(page.templateModel()->rowCount(), int(templates.size()));
}

void TstWorkloadPage::badInputNamedNothingStarts()
{
    ProbeRunner runner;
    WorkloadPage page(&runner);
    QSignalSpy started(&runner, &ProbeRunner::started);
    auto* button = page.findChild<QPushButton*>(QStringLiteral("workloadAnalyzeButton"));
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(page.errorField(), QStringLiteral("log"));
    QVERIFY2(page.errorText().startsWith(QStringLiteral("Log files:")), qPrintable(page.errorText()));

    page.form()->setFiles({ m_dir.filePath(QStringLiteral("no-such-log")) });
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(page.errorField(), QStringLiteral("log"));
    QVERIFY2(page.errorText().contains(QStringLiteral("no-such-log")), qPrintable(page.errorText()));

    page.form()->setFiles({ m_log });
    page.form()->setText(QStringLiteral("from"), QStringLiteral("yesterday"));
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(page.errorField(), QStringLiteral("from"));
    page.form()->setText(QStringLiteral("from"), QString());
    page.form()->setText(QStringLiteral("operations"), QStringLiteral("search,frobnicate"));
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(page.errorField(), QStringLiteral("operations"));
    QVERIFY(page.errorText().contains(QStringLiteral("frobnicate")));
    QCOMPARE(started.count(), 0);
    QVERIFY(!page.isRunning());

    // A filter that reads: searches only.
    page.form()->setText(QStringLiteral("operations"), QStringLiteral("search"));
    QVERIFY(analyze(&page));
    QVERIFY(page.errorField().isEmpty());
    QCOMPARE(page.analysis().value(QStringLiteral("operations")).toObject().keys(),
        QStringList { QStringLiteral("search") });
}

void TstWorkloadPage::saveAndExport()
{
    ProbeRunner runner;
    WorkloadPage page(&runner);
    QString error;
    QVERIFY(!page.saveWorkload(m_dir.filePath(QStringLiteral("early.dbwl")), &error)); // nothing analysed yet
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("early.dbwl"))));
    page.form()->setFiles({ m_log });
    QVERIFY(analyze(&page));
    QVERIFY(page.findChild<QPushButton*>(QStringLiteral("workloadSaveButton"))->isEnabled());
    const QString path = m_dir.filePath(QStringLiteral("w.dbwl"));
    QVERIFY2(page.saveWorkload(path, &error), qPrintable(error));
    const auto w = WorkloadFile::read(path, &error);
    QVERIFY2(w, qPrintable(error));
    QFile raw(path);
    QVERIFY(raw.open(QIODevice::ReadOnly));
    const QByteArray bytes = raw.readAll();
    QVERIFY(!bytes.contains("user7")); // anonymised: no logged value
    QVERIFY(!bytes.contains("127.0.0.2"));

    const QString json = m_dir.filePath(QStringLiteral("a.json"));
    QVERIFY2(page.exportJson(json, &error), qPrintable(error));
    QFile j(json);
    QVERIFY(j.open(QIODevice::ReadOnly));
    const QJsonObject back = QJsonDocument::fromJson(j.readAll()).object();
    QCOMPARE(back.value(QStringLiteral("schema")).toString(), QStringLiteral("dirbench.workload/1"));
    QCOMPARE(back, page.analysis());

    // Keep values: the logged values are in the saved workload.
    page.form()->setKeepValues(true);
    QVERIFY(analyze(&page));
    QVERIFY(page.saveWorkload(path, &error));
    QVERIFY(WorkloadFile::read(path, &error));
    QFile kept(path);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QVERIFY(kept.readAll().contains("user"));
}

// Cancel stops the read (the job asks the run's stop flag after each 4 MiB it reads) and the page lets go at once:
// the job ends "stopped", long before the end of a 40 MB log, and its result is dropped.
void TstWorkloadPage::cancelDropsTheResult()
{
    const QString big = m_dir.filePath(QStringLiteral("big-access"));
    QFile f(big);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const QByteArray log = WorkloadLog::generate389(10000, 0.3);
    QVERIFY(log.size() > 10 * (4 << 20));
    QVERIFY(f.write(log) == log.size());
    f.close();
    ProbeRunner runner;
    WorkloadPage page(&runner);
    QSignalSpy analyzed(&page, &WorkloadPage::analyzed);
    QSignalSpy finished(&runner, &ProbeRunner::finished);
    page.form()->setFiles({ big });
    page.start();
    QVERIFY(page.isRunning());
    page.cancel();
    QVERIFY(!page.isRunning());
    QCOMPARE(analyzed.count(), 1);
    QCOMPARE(analyzed.first().first().toBool(), false);
    QVERIFY(finished.wait(60000));
    const RunRecord rec = finished.first().at(1).value<RunRecord>();
    QCOMPARE(rec.status, QStringLiteral("failed"));
    QCOMPARE(rec.failure, QStringLiteral("stopped"));
    QCOMPARE(analyzed.count(), 1);
    QVERIFY(page.analysis().isEmpty());
    QCOMPARE(page.templateModel()->rowCount(), 0);
    QVERIFY(page.findChild<QPushButton*>(QStringLiteral("workloadAnalyzeButton"))->isEnabled());
}

void TstWorkloadPage::skewReachesCurvePage()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    WorkloadPage* page = window.workloadPage();
    QVERIFY(page);
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("pageTabs"));
    QVERIFY(tabs);
    QCOMPARE(tabs->indexOf(page), tabs->indexOf(window.replicationPage()) + 1);
    page->form()->setFiles({ m_log });
    QVERIFY(analyze(page));
    QString origin;
    const auto skew = page->curveSkew(&origin);
    QVERIFY2(skew, "the uid search has a fitted skew");
    auto* button = page->findChild<QPushButton*>(QStringLiteral("workloadSkewButton"));
    QVERIFY(button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    CurvePage* curve = window.curvePage();
    QVERIFY(curve->trafficAccess());
    QCOMPARE(curve->trafficAccess()->toString(), skew->toString());
    QVERIFY2(curve->trafficText().contains(QStringLiteral("uid=")), qPrintable(curve->trafficText()));

    // A sweep's fit (uniform access): the predictor now maps coverage with the traffic's skew, which at 10 %
    // coverage hits far more often than uniform's 10 %, so the same RAM predicts more ops/s.
    QVERIFY(curve->showRecord(uniformCurveRecord()));
    QVERIFY(curve->fit() && curve->predictionFit());
    QCOMPARE(curve->fit()->access.toString(), QStringLiteral("uniform"));
    QCOMPARE(curve->predictionFit()->access.toString(), skew->toString());
    const double uniformOps = curve->fit()->opsAt(0.1), trafficOps = curve->predictionFit()->opsAt(0.1);
    qInfo("ops/s at 10 %% coverage: uniform %.0f, traffic's %s %.0f", uniformOps, qPrintable(skew->toString()),
        trafficOps);
    QVERIFY(trafficOps > uniformOps * 1.2);
    curve->predictor()->setRamText(QStringLiteral("3")); // 1,000 entries of 3,000 bytes: 10 % coverage
    QVERIFY2(curve->predictor()->opsForRamText().contains(Units::formatNumber(trafficOps, 0)),
        qPrintable(curve->predictor()->opsForRamText()));
}

QTEST_MAIN(TstWorkloadPage)
#include "tst_workloadpage.moc"
