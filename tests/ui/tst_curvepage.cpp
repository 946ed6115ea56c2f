// The Curve page: a curve record opened from a file (no server) shows the measured points, the fit with its band,
// the guide's reference overlay and a target line; the predictor answers "RAM for this target" and "ops/s for
// this RAM". With slapd installed, a 2-point working-set sweep runs through the page against a sandbox.
#include "core/common/units.h"
#include "core/run/proberunner.h"
#include "core/sizing/referencecurve.h"
#include "ui/charts/curvechartview.h"
#include "ui/charts/livechartview.h"
#include "ui/demodirectory.h"
#include "ui/mainwindow.h"
#include "ui/pages/curveform.h"
#include "ui/pages/curvepage.h"
#include "ui/widgets/curvepredictor.h"
#include "ui/widgets/demodirectorybox.h"
#include "ui/widgets/savedruninputs.h"
#include "uisandbox.h"

#include <QFile>
#include <QJsonArray>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

// A curve record as dirbench-cli curve --json writes it: uniform access, so h(c) = c, and
// ok/s = 1 / (t_miss − (t_miss − t_hit)·c) times a small wobble; a fifth more operations completed (they failed).
// `older`: a record made before points had ok_per_s, whose ops_per_s is that curve.
RunRecord curveRecord(
    double tHit, double tMiss, qint64 entries, double wobble, double bytesPerEntry, bool older = false)
{
    RunRecord r;
    r.kind = QStringLiteral("curve");
    r.started = QDateTime::currentDateTimeUtc();
    QJsonArray pts;
    const QList<double> cov { 0.01, 0.1, 0.25, 0.5, 0.75, 1.0 };
    for (int i = 0; i < cov.size(); ++i) {
        const double c = cov[i];
        const double ops = 1.0 / (tMiss - (tMiss - tHit) * c) * (1.0 + wobble * ((i % 2) ? 1 : -1));
        QJsonObject p { { QStringLiteral("target"), c }, { QStringLiteral("coverage"), c },
            { QStringLiteral("hit_ratio"), c }, { QStringLiteral("series"), QStringLiteral("point %1/6").arg(i + 1) } };
        if (older) {
            p.insert(QStringLiteral("ops_per_s"), std::round(ops * 10) / 10);
        } else {
            p.insert(QStringLiteral("ok_per_s"), std::round(ops * 10) / 10);
            p.insert(QStringLiteral("ops_per_s"), std::round(ops * 12) / 10);
        }
        pts.append(p);
    }
    r.summary.insert(QStringLiteral("points"), pts);
    r.summary.insert(QStringLiteral("entries"), double(entries));
    r.summary.insert(QStringLiteral("access"), QStringLiteral("uniform"));
    r.spec = QJsonObject { { QStringLiteral("mode"), QStringLiteral("working-set") },
        { QStringLiteral("points"), QJsonArray { 0.01, 0.1, 0.25, 0.5, 0.75, 1.0 } } };
    if (bytesPerEntry > 0)
        r.extra.insert(QStringLiteral("bytes_per_entry"), bytesPerEntry);
    return r;
}

QString writeRecord(const QTemporaryDir& dir, const RunRecord& r)
{
    const QString path = dir.filePath(QStringLiteral("curve.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(r.toJsonBytes()) <= 0)
        return {};
    return path;
}

} // namespace

class TestCurvePage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void openRecordShowsFit();
    void olderRecordFallsBackToOpsPerS();
    void notACurveIsRefused();
    void movedPointIsDrawnWhereMeasuredAndLabelled();
    void workingSetSweepThroughThePage();
    void defaultsWorkAgainstTheDemo();

private:
    QTemporaryDir m_settingsDir;
    QTemporaryDir m_files;
};

void TestCurvePage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-test-curve"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings().clear();
}

void TestCurvePage::openRecordShowsFit()
{
    ProbeRunner runner;
    CurvePage page(&runner);
    page.resize(1200, 800);
    page.show();
    // Before any curve of its own: the guide's Figure 3, labelled as the guide's, not an empty 0-100 chart.
    QVERIFY(page.isGuideCurveShown());
    QVERIFY(!page.curveChart()->isPlaceholderVisible());
    QCOMPARE(page.curveChart()->referenceCount(), 51);
    QCOMPARE(page.curveChart()->measuredCount(), 0);
    QVERIFY(page.curveChart()->referenceName().contains(QStringLiteral("guide Fig. 3")));
    QVERIFY(page.curveChart()->title().contains(QStringLiteral("guide's Figure 3")));
    QVERIFY(page.curveChart()->yRange().second > 1000); // the guide's searches/s set the scale, not 0-100
    QVERIFY2(page.fitText().contains(QStringLiteral("HP-UX Directory Server 8.1")), qPrintable(page.fitText()));
    const QString path = writeRecord(m_files, curveRecord(100e-6, 500e-6, 10000, 0, 0));
    QString why;
    QVERIFY2(page.openRecordFile(path, &why), qPrintable(why));
    QVERIFY(page.fit());
    QVERIFY(std::abs(page.fit()->tHit - 100e-6) < 1e-6);
    QVERIFY(std::abs(page.fit()->tMiss - 500e-6) < 1e-6);
    // The sentence the report's summary and the CLI say, fitted to ok/s (not ops/s).
    const QString fit = page.fitText();
    QVERIFY2(fit.contains(QStringLiteral(" ok/s with no entry cached to 10,000")), qPrintable(fit));
    QVERIFY2(fit.contains(QStringLiteral(" ok/s with every entry cached (the fit's t_miss 500")), qPrintable(fit));
    QVERIFY2(fit.contains(QStringLiteral(", t_hit 100")), qPrintable(fit));
    QVERIFY(!page.fitText().contains(QStringLiteral("predate")));
    CurveChartView* chart = page.curveChart();
    QVERIFY(!chart->isPlaceholderVisible());
    QCOMPARE(chart->measuredCount(), 6);
    QCOMPARE(chart->fitCount(), 51);
    QCOMPARE(chart->referenceCount(), 51);
    QVERIFY(chart->referenceName().contains(QStringLiteral("guide Fig. 3")));
    QVERIFY(!page.isGuideCurveShown());
    QVERIFY(chart->title().isEmpty());
    QVERIFY(!chart->hasTarget());

    // RAM for a target, with the typed 3000 bytes per entry: the fit's own answer, and it follows the target
    CurvePredictor* p = page.predictor();
    p->setTargetText(QStringLiteral("5000"));
    QVERIFY(chart->hasTarget());
    QCOMPARE(chart->target(), 5000.0);
    const auto need = page.fit()->cacheBytesFor(5000, 3000);
    QVERIFY(need && *need > 0);
    const QString first = p->ramForTargetText();
    QVERIFY2(first.contains(Units::formatNumber(*need / 1e6, 1) + QStringLiteral(" MB")), qPrintable(first));
    p->setTargetText(QStringLiteral("8000"));
    QVERIFY(p->ramForTargetText() != first);
    QVERIFY(p->ramForTargetText().contains(Units::formatNumber(*page.fit()->cacheBytesFor(8000, 3000) / 1e6, 1)));
    QCOMPARE(chart->target(), 8000.0);
    p->setTargetText(QStringLiteral("20000")); // above 1/t_hit
    const QString reach = p->ramForTargetText();
    QVERIFY2(reach.startsWith(QStringLiteral("out of reach: ")), qPrintable(reach));
    QVERIFY2(reach.count(QStringLiteral("out of reach")) == 1, qPrintable(reach)); // once, not "out of reach: out of…"
    QVERIFY2(
        reach.contains(Units::formatNumber(1.0 / page.fit()->tHit, 1) + QStringLiteral(" ops/s")), qPrintable(reach));
    p->setTargetText(QStringLiteral("1000")); // below 1/t_miss: no cache needed, said in words, not "0.0 – 0.0 MB"
    QVERIFY2(p->ramForTargetText().startsWith(QStringLiteral("none: the fit gives 2,000 ok/s with no entry cached")),
        qPrintable(p->ramForTargetText()));
    // and the other way
    p->setRamText(QStringLiteral("15"));
    QVERIFY(p->opsForRamText().contains(Units::formatNumber(page.fit()->opsForCacheBytes(15e6, 3000), 0)));

    // bytes per entry from a cache-sweep record
    QVERIFY(page.showRecord(curveRecord(100e-6, 500e-6, 10000, 0.02, 4200)));
    p->setTargetText(QStringLiteral("5000"));
    QVERIFY(p->ramForTargetText().contains(Units::formatNumber(*page.fit()->cacheBytesFor(5000, 4200) / 1e6, 1)));
    QVERIFY(chart->hasBand()); // noisy points: a band of non-zero width
    // a prediction is the band's range, not one figure: low ≤ the fit's line ≤ high, all three shown
    const CurveFit::BytesRange range = page.fit()->cacheBytesRangeFor(5000, 4200);
    const double line = *page.fit()->cacheBytesFor(5000, 4200);
    QVERIFY(range.low && *range.low < line);
    QVERIFY(!range.high || *range.high > line);
    const QString ram = p->ramForTargetText();
    QVERIFY2(
        ram.contains(QStringLiteral("within the fit's band")) && !ram.contains(QStringLiteral("<b>")), qPrintable(ram));
    QVERIFY2(ram.contains(Units::formatNumber(*range.low / 1e6, 1)), qPrintable(ram));
    p->setRamText(QStringLiteral("15"));
    const CurveFit::Band band = page.fit()->opsBandForCacheBytes(15e6, 4200);
    QVERIFY(band.low < page.fit()->opsForCacheBytes(15e6, 4200));
    QVERIFY2(p->opsForRamText().contains(Units::formatNumber(band.low, 0) + QStringLiteral(" – ")),
        qPrintable(p->opsForRamText()));

    // A saved run shows its own inputs read-only where the form was, and Start waits until it is closed.
    QVERIFY(page.isShowingSaved());
    QVERIFY(page.savedInputs()->isVisible() && !page.form()->isVisible());
    QVERIFY(page.savedInputs()->rowCount() > 0);
    QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("startButton"))->isEnabled());
    page.savedInputs()->closeButton()->click();
    QVERIFY(!page.isShowingSaved());
    QVERIFY(page.form()->isVisible() && !page.savedInputs()->isVisible());
    QVERIFY(page.isGuideCurveShown() && !page.fit());
    QCOMPARE(page.curveChart()->measuredCount(), 0);
    QVERIFY(page.findChild<QPushButton*>(QStringLiteral("startButton"))->isEnabled());
}

// A point the server moved (asked 1 %, the cache could not be that small: measured at 12 %): drawn at 12 %, ringed
// and labelled, and named under the chart.
void TestCurvePage::movedPointIsDrawnWhereMeasuredAndLabelled()
{
    ProbeRunner runner;
    CurvePage page(&runner);
    RunRecord r = curveRecord(100e-6, 500e-6, 10000, 0, 0);
    QJsonArray pts = r.summary.value(QStringLiteral("points")).toArray();
    QJsonObject first = pts.at(0).toObject();
    first.insert(QStringLiteral("coverage"), 0.12);
    pts.replace(0, first);
    r.summary.insert(QStringLiteral("points"), pts);
    QString why;
    QVERIFY2(page.showRecord(r, &why), qPrintable(why));
    QCOMPARE(page.curveChart()->measuredCount(), 6);
    QCOMPARE(page.curveChart()->movedCount(), 1);
    QVERIFY2(
        page.movedText().contains(QStringLiteral("asked 1.0 %, measured at 12.0 %")), qPrintable(page.movedText()));
    QVERIFY(page.showRecord(curveRecord(100e-6, 500e-6, 10000, 0, 0), &why)); // none moved: nothing said
    QCOMPARE(page.curveChart()->movedCount(), 0);
    QVERIFY(page.movedText().isEmpty());
}

void TestCurvePage::olderRecordFallsBackToOpsPerS()
{
    ProbeRunner runner;
    CurvePage page(&runner);
    QVERIFY(page.showRecord(curveRecord(100e-6, 500e-6, 10000, 0, 0, true)));
    QVERIFY(page.fit());
    QVERIFY(std::abs(page.fit()->tHit - 100e-6) < 1e-6); // its ops/s, the only rate it has
    QCOMPARE(page.curveChart()->measuredCount(), 6);
    QVERIFY2(page.fitText().contains(QStringLiteral(" ops/s with every entry cached")), qPrintable(page.fitText()));
    QVERIFY(page.fitText().contains(QStringLiteral("predate ok/s")));
}

void TestCurvePage::notACurveIsRefused()
{
    ProbeRunner runner;
    CurvePage page(&runner);
    RunRecord r;
    r.kind = QStringLiteral("disk");
    QString why;
    QVERIFY(!page.showRecord(r, &why));
    QVERIFY(why.contains(QStringLiteral("not a curve")));
    QVERIFY(!page.openRecordFile(QStringLiteral("/nonexistent.json"), &why));
    // Start without an LDAP load names it
    page.start();
    QVERIFY(!page.isRunning());
    QCOMPARE(page.errorField(), QStringLiteral("ldap-load"));
}

void TestCurvePage::workingSetSweepThroughThePage()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    QString why;
    SandboxGuard sbx = UiSandbox::start(1000, &why);
    QVERIFY2(sbx, qPrintable(LdapFixture::notStarted(why)));
    ProbeRunner runner;
    MainWindow window(&runner);
    UiSandbox::fillSearch(window.ldapPage(), sbx.info(), 1);
    CurvePage* page = window.curvePage();
    page->form()->setMode(CurveSpec::Mode::WorkingSet);
    page->form()->setPointsText(QStringLiteral("10,100"));
    page->form()->setSecondsPerPoint(1);
    page->form()->setWarmup(0);
    page->form()->setCacheEntries(100);
    QSignalSpy done(page, &CurvePage::runFinished);
    page->start();
    QVERIFY2(page->isRunning(), qPrintable(page->errorText()));
    QTRY_VERIFY_WITH_TIMEOUT(page->liveChart()->pointCount() > 0, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    const RunRecord rec = page->lastRecord();
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QCOMPARE(rec.summary.value(QStringLiteral("points")).toArray().size(), 2);
    QCOMPARE(page->curveChart()->measuredCount(), 2);
    QVERIFY(!page->isRunning());
}

// DirBench's own demo directory (a private slapd), the Curve page as it comes (its mode, points and cache entries),
// only shorter per point: a curve, not an error; and the guide's figure never leaves an empty chart behind.
void TestCurvePage::defaultsWorkAgainstTheDemo()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    ProbeRunner runner;
    MainWindow window(&runner);
    window.ldapPage()->demoBox()->setEntries(1000);
    window.ldapPage()->demoBox()->startDemo();
    QTRY_COMPARE_WITH_TIMEOUT(window.demoDirectory()->state(), DemoDirectory::State::Running, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(runner.runningCount(), 0, 10000);
    CurvePage* page = window.curvePage();
    page->form()->setSecondsPerPoint(1);
    page->form()->setWarmup(0);
    QSignalSpy done(page, &CurvePage::runFinished);
    page->start();
    QVERIFY2(page->isRunning(), qPrintable(page->errorText()));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 120000);
    const RunRecord rec = page->lastRecord();
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QVERIFY(page->curveChart()->measuredCount() >= 2);
    QVERIFY(page->fit());
    runner.waitForDone(20000);
    QVERIFY(window.demoDirectory()->stopNow());
}

QTEST_MAIN(TestCurvePage)
#include "tst_curvepage.moc"
