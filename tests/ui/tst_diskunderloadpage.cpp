// The Disk page's "Under LDAP load": the LDAP page's load comes through a provider, the record has the idle and
// loaded disk tests and the change, a second chart shows the LDAP ok/s on the same time axis. Scripted runs check
// the page; one real run (sandbox slapd + a real disk test) checks the whole way.
#include "core/ldap/loadresult.h"
#include "core/run/proberunner.h"
#include "core/run/runcontext.h"
#include "ui/charts/livechartview.h"
#include "ui/mainwindow.h"
#include "ui/models/diskresultmodel.h"
#include "ui/pages/diskpage.h"
#include "ui/widgets/diskldapview.h"
#include "ui/widgets/writeconfirmation.h"
#include "uisandbox.h"

#include <QCheckBox>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

namespace {

LdapLoadSpec someLoad()
{
    LdapLoadSpec s;
    s.target.uri = QStringLiteral("ldap://127.0.0.1:389");
    s.base = QStringLiteral("ou=people,dc=example,dc=com");
    s.filter = QStringLiteral("(uid=user[0-99])");
    return s;
}

// An LDAP interval as the load engine writes it: 0.5 s, `okPerS` successes/s and 10 failed operations/s more.
QJsonObject ldapInterval(double okPerS)
{
    LoadInterval i;
    i.seconds = 0.5;
    i.all.okPerS = okPerS;
    i.all.opsPerS = okPerS + 10;
    i.all.ok = okPerS / 2;
    i.all.errors = 5;
    i.all.ops = i.all.ok + i.all.errors;
    return i.toJson();
}

Sample sample(const QString& series, double t, const QJsonObject& values)
{
    Sample s;
    s.series = series;
    s.t = t;
    s.values = values;
    s.values.insert(QStringLiteral("series"), series);
    s.values.insert(QStringLiteral("t"), t);
    return s;
}

QJsonObject ldapSummary()
{
    LoadSummary s;
    s.seconds = 4;
    s.all.okPerS = 5003.5;
    s.all.opsPerS = 5013.5;
    s.all.ok = 20014;
    s.all.errors = 40;
    s.all.ops = 20054;
    s.all.latencyMs.p99 = 1.25;
    return s.toJson();
}

// What Experiments::runDiskUnderLoad produces, in small: idle disk, then LDAP alone, then the loaded disk beside it.
RunRecord scriptedUnderLoad(RunContext& ctx)
{
    RunRecord r;
    r.kind = QStringLiteral("disk-under-load");
    auto add = [&](const Sample& s) {
        r.intervals.append(s.values);
        ctx.addSample(s);
        QThread::msleep(30);
    };
    for (int i = 1; i <= 4; ++i)
        add(sample(QStringLiteral("disk (idle)"), i * 0.25,
            { { QStringLiteral("mb_per_s"), 300.0 }, { QStringLiteral("iops"), 300.0 } }));
    for (int i = 0; i < 8; ++i)
        add(sample(QStringLiteral("ldap"), 2.0 + i * 0.5, ldapInterval(5000.0 + i)));
    for (int i = 1; i <= 4; ++i)
        add(sample(QStringLiteral("disk (under load)"), 3.0 + i * 0.25,
            { { QStringLiteral("mb_per_s"), 290.0 }, { QStringLiteral("iops"), 290.0 } }));
    const QJsonObject lat { { QStringLiteral("p50"), 800.0 }, { QStringLiteral("p99"), 2000.0 } };
    r.summary = { { QStringLiteral("disk_idle"),
                      QJsonObject { { QStringLiteral("mb_per_s"), 300.0 }, { QStringLiteral("iops"), 300.0 },
                          { QStringLiteral("latency_us"), lat } } },
        { QStringLiteral("disk_loaded"),
            QJsonObject { { QStringLiteral("mb_per_s"), 290.0 }, { QStringLiteral("iops"), 290.0 },
                { QStringLiteral("latency_us"), lat } } },
        { QStringLiteral("ldap"), ldapSummary() },
        { QStringLiteral("change"),
            QJsonObject { { QStringLiteral("mb_per_s_pct"), -3.3 }, { QStringLiteral("iops_pct"), -3.3 },
                { QStringLiteral("p99_pct"), 0.0 } } } };
    return r;
}

} // namespace

class TestDiskUnderLoadPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void checkboxNeedsAProvider();
    void scriptedRunShowsBothChartsAndTheChange();
    void providerErrorStartsNothing();
    void writeLoadAsksFirst();
    void realRunAgainstTheSandbox();

private:
    QTemporaryDir m_settingsDir;
};

void TestDiskUnderLoadPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-test-underload"));
    QVERIFY(m_settingsDir.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
}

void TestDiskUnderLoadPage::checkboxNeedsAProvider()
{
    ProbeRunner runner;
    DiskPage page(&runner);
    auto* check = page.findChild<QCheckBox*>(QStringLiteral("underLdapLoadCheck"));
    QVERIFY(check);
    QVERIFY(!check->isEnabled());
    page.setLdapLoadProvider([](QString*) { return std::optional<LdapLoadSpec>(someLoad()); });
    QVERIFY(check->isEnabled());
}

void TestDiskUnderLoadPage::scriptedRunShowsBothChartsAndTheChange()
{
    QTemporaryDir tmp;
    ProbeRunner runner;
    DiskPage page(&runner);
    QSignalSpy finished(&page, &DiskPage::runFinished);
    page.setLdapLoadProvider([](QString*) { return std::optional<LdapLoadSpec>(someLoad()); });
    DiskUnderLoadSpec seen;
    page.setUnderLoadJobFactory([&seen](const DiskUnderLoadSpec& u) -> ProbeRunner::Job {
        seen = u;
        return scriptedUnderLoad;
    });
    page.setDirectory(tmp.path());
    page.setProfile(DiskProfile::SeqWrite);
    page.setSizeText(QStringLiteral("16M"));
    page.setDurationText(QStringLiteral("1"));
    page.setUnderLdapLoad(true);
    page.start();
    QVERIFY2(page.isRunning(), qPrintable(page.errorText()));
    QTRY_VERIFY2(page.currentRunId() > 0, qPrintable(page.errorText())); // once the directory check has passed
    QCOMPARE(seen.load.base, someLoad().base);
    QCOMPARE(seen.disk.dir, tmp.path());
    QVERIFY(!page.ldapView()->isHidden());
    QTRY_VERIFY_WITH_TIMEOUT(page.ldapChartPointCount() > 0, 10000); // live
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);

    QCOMPARE(page.ldapChartPointCount(), 8);
    QCOMPARE(page.chartPointCount(), 8); // disk series only
    auto* diskChart = page.findChild<LiveChartView*>(QStringLiteral("liveChart"));
    QVERIFY(!diskChart->seriesNames().contains(QStringLiteral("ldap")));
    QCOMPARE(diskChart->xRange(), page.ldapView()->chart()->xRange()); // one time axis
    // Successes per second first, completed operations beside them.
    const QString ldap = page.ldapView()->summaryText();
    QVERIFY2(ldap.contains(QStringLiteral("5,003.5 ok/s (5,013.5 ops/s completed), p99 1.25 ms, 40 errors")),
        qPrintable(ldap));
    QCOMPARE(page.ldapView()->chart()->pointCount(QStringLiteral("LDAP ok/s")), 8);
    QCOMPARE(page.ldapView()->chart()->yRange().second >= 5007.0, true); // ok/s drawn, not 0
    auto* status = page.findChild<QLabel*>(QStringLiteral("statusLabel"));
    QVERIFY2(status->text().contains(QStringLiteral("290.0 MB/s under LDAP load, 300.0 MB/s idle (-3.3 %)")),
        qPrintable(status->text()));
    QVERIFY(page.findChild<QLabel*>(QStringLiteral("latencyLabel"))->text().contains(QStringLiteral("see the table")));

    const DiskResultModel* model = page.resultModel();
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->index(0, DiskResultModel::Name).data().toString(), QStringLiteral("disk (idle)"));
    QCOMPARE(model->index(1, DiskResultModel::Name).data().toString(), QStringLiteral("disk (under load)"));
    QCOMPARE(model->index(2, DiskResultModel::MbPerSec).data().toString(), QStringLiteral("-3.3 %"));
    QCOMPARE(model->index(2, DiskResultModel::P99).data().toString(), QStringLiteral("0.0 %"));
    QCOMPARE(model->index(2, DiskResultModel::P50).data().toString(), QStringLiteral("–"));

    // Unticked, the next run is a plain disk test again and the LDAP chart goes away.
    page.setUnderLdapLoad(false);
    page.setJobFactory([](const DiskSpec&) -> ProbeRunner::Job { return [](RunContext&) { return RunRecord(); }; });
    page.start();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
    QVERIFY(page.ldapView()->isHidden());
}

void TestDiskUnderLoadPage::providerErrorStartsNothing()
{
    QTemporaryDir tmp;
    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    DiskPage page(&runner);
    page.setLdapLoadProvider([](QString* error) {
        *error = QStringLiteral("Filter: unbalanced parentheses");
        return std::optional<LdapLoadSpec>();
    });
    page.setDirectory(tmp.path());
    page.setUnderLdapLoad(true);
    page.start();
    QVERIFY(!page.isRunning());
    QCOMPARE(started.count(), 0);
    QCOMPARE(page.errorField(), QStringLiteral("ldap-load"));
    QVERIFY2(page.errorText().startsWith(QStringLiteral("LDAP load: Filter:")), qPrintable(page.errorText()));
}

void TestDiskUnderLoadPage::writeLoadAsksFirst()
{
    QTemporaryDir tmp;
    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    DiskPage page(&runner);
    page.setLdapLoadProvider([](QString*) {
        LdapLoadSpec s = someLoad();
        s.mix = { { LdapOpKind::AddDelete, 100 } };
        s.parentDn = QStringLiteral("ou=people,dc=example,dc=com");
        return std::optional<LdapLoadSpec>(s);
    });
    page.setUnderLoadJobFactory([](const DiskUnderLoadSpec&) -> ProbeRunner::Job { return scriptedUnderLoad; });
    page.setDirectory(tmp.path());
    page.setProfile(DiskProfile::SeqWrite);
    page.setSizeText(QStringLiteral("16M"));
    page.setUnderLdapLoad(true);
    page.start();
    // Asked once the directory check (off the GUI thread) has passed.
    QTRY_VERIFY(page.findChild<QMessageBox*>(QString::fromLatin1(WriteConfirmation::kObjectName)));
    auto* box = page.findChild<QMessageBox*>(QString::fromLatin1(WriteConfirmation::kObjectName));
    QVERIFY(box->informativeText().contains(QStringLiteral("ou=people,dc=example,dc=com")));
    QVERIFY(!page.isRunning());
    box->findChild<QPushButton*>(QStringLiteral("cancelWriteButton"))->click();
    QVERIFY(!page.isRunning());
    QCOMPARE(started.count(), 0);
}

void TestDiskUnderLoadPage::realRunAgainstTheSandbox()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd)");
    QString why;
    SandboxGuard sbx = UiSandbox::start(1000, &why);
    QVERIFY2(sbx, qPrintable(why));
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    ProbeRunner runner;
    MainWindow window(&runner);
    UiSandbox::fillSearch(window.ldapPage(), sbx.info(), 10);
    DiskPage* page = window.diskPage();
    QSignalSpy finished(page, &DiskPage::runFinished);
    page->setDirectory(tmp.path());
    page->setProfile(DiskProfile::SeqWrite);
    page->setSizeText(QStringLiteral("16M"));
    page->setBlockText(QStringLiteral("1M"));
    page->setDurationText(QStringLiteral("1"));
    page->setUnderLdapLoad(true);
    page->start();
    QVERIFY2(page->isRunning(), qPrintable(page->errorText()));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);

    const RunRecord rec = page->lastRecord();
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QCOMPARE(rec.kind, QStringLiteral("disk-under-load"));
    QVERIFY(page->ldapChartPointCount() > 0);
    QVERIFY(page->chartPointCount() > 0);
    const DiskResultModel* model = page->resultModel();
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->index(1, DiskResultModel::Name).data().toString(), QStringLiteral("disk (under load)"));
    QVERIFY(model->index(1, DiskResultModel::MbPerSec).data(DiskResultModel::ValueRole).toDouble() > 0);
    QVERIFY(model->index(2, DiskResultModel::MbPerSec).data().toString().endsWith(QStringLiteral(" %")));
}

QTEST_MAIN(TestDiskUnderLoadPage)
#include "tst_diskunderloadpage.moc"
