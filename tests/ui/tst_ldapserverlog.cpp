// The LDAP page's "Server access log" against a real 389-ds sandbox with its access log on: a short search load
// with the field set draws the server's etime p50 and p99 beside the client's (a point per interval), and the
// record the history stores has server_log; opened again from the history the chart has them too. A path that is
// not a readable file is refused naming the field, with nothing started.
#include "core/ldap/ldaptarget.h"
#include "core/run/proberunner.h"
#include "core/sandbox/ds389sandbox.h"
#include "core/store/historyservice.h"
#include "core/store/runrecorder.h"
#include "core/store/runstore.h"
#include "ui/charts/livechartview.h"
#include "ui/demodirectory.h"
#include "ui/pages/ldapagentsform.h"
#include "ui/widgets/ldaploadview.h"
#include "ui/widgets/serverlogseries.h"
#include "uisandbox.h"

#include <QJsonArray>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TstLdapServerLog : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void badPathStartsNothing();
    void serverSeriesBesideTheClient();
    void cleanupTestCase() { m_ds.reset(); }

private:
    QTemporaryDir m_settingsDir;
    std::optional<Ds389Guard> m_ds;
};

void TstLdapServerLog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-test-ldapserverlog"));
    QVERIFY(m_settingsDir.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings().clear();
    if (const QString why = Ds389Sandbox::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable("no 389-ds: " + why));
    Ds389Options o;
    o.entries = 1000;
    o.accessLog = true;
    ProbeError e;
    m_ds.emplace(Ds389Sandbox::start(o, &e));
    QVERIFY2(m_ds->isValid(), qPrintable(e.detail));
}

void TstLdapServerLog::badPathStartsNothing()
{
    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    UiSandbox::fillSearch(&page, m_ds->info(), 1);
    for (const QString& bad : { QStringLiteral("/nonexistent/access"), m_ds->info().dir }) { // missing; a directory
        page.loadForm()->setText(QStringLiteral("server-log"), bad);
        page.start();
        QTRY_VERIFY(!page.isRunning()); // checked off the GUI thread
        QCOMPARE(started.count(), 0);
        QCOMPARE(page.errorField(), QStringLiteral("server-log"));
        QVERIFY2(page.errorText().startsWith(QStringLiteral("Server access log:")), qPrintable(page.errorText()));
    }
    // A load from agents: refused at once, naming the field.
    page.loadForm()->setText(QStringLiteral("server-log"), Ds389Sandbox::accessLogPath(m_ds->info().dir));
    page.agentsForm()->setSource(LdapAgentsForm::Source::Hosts);
    page.agentsForm()->setHosts(QStringLiteral("127.0.0.1"));
    page.start();
    QVERIFY(!page.isRunning());
    QCOMPARE(started.count(), 0);
    QCOMPARE(page.errorField(), QStringLiteral("server-log"));
}

void TstLdapServerLog::serverSeriesBesideTheClient()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    QSignalSpy finished(&page, &LdapPage::runFinished);
    QSignalSpy saved(RunRecorder::of(&runner), &RunRecorder::runSaved);
    UiSandbox::fillSearch(&page, m_ds->info(), 3);
    page.loadForm()->setNumber(QStringLiteral("rate"), 400);
    page.loadForm()->setText(QStringLiteral("server-log"), Ds389Sandbox::accessLogPath(m_ds->info().dir));
    page.start();
    QVERIFY2(page.isRunning(), qPrintable(page.errorText()));
    // Live: the server's etime appears while the load still runs (the log followed every half second).
    const LiveChartView* chart = page.loadView()->latencyChart();
    const QString liveP50 = ServerLogSeries::name(QStringLiteral("p50"));
    QTRY_VERIFY_WITH_TIMEOUT(chart->pointCount(liveP50) > 0 || !finished.isEmpty(), 30000);
    QVERIFY2(finished.isEmpty(), "the load ended before the server's etime was drawn live");
    qInfo("live: %d server etime points while %d of the client's", chart->pointCount(liveP50),
        chart->pointCount(QStringLiteral("p50")));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    const RunRecord rec = page.lastRecord();
    QCOMPARE(rec.status, QStringLiteral("ok"));
    const QJsonObject view = rec.extra.value("server_log").toObject();
    QCOMPARE(view.value("format").toString(), QStringLiteral("389-access"));
    const QJsonArray intervals = view.value("intervals").toArray();
    QCOMPARE(intervals.size(), rec.intervals.size());
    QVERIFY(intervals.size() >= 5); // 3 s at 0.5 s intervals
    int answered = 0; // intervals in which the server logged a result (a loaded host can have one without)
    for (const auto& v : intervals)
        answered += v.toObject().value("etime_ms").toObject().isEmpty() ? 0 : 1;
    QVERIFY(answered >= 3);
    // The record's own view replaced the live points: a point per interval.
    for (const char* p : { "p50", "p99" })
        QCOMPARE(chart->pointCount(ServerLogSeries::name(QLatin1String(p))), answered);
    int measured = 0; // the client's beside them: a point per interval with a latency
    for (const auto& v : rec.intervals)
        measured += v.toObject().value("latency_ms").toObject().value("p50").isDouble() ? 1 : 0;
    QCOMPARE(chart->pointCount(QStringLiteral("p50")), measured);

    // The history's copy has it, and shows it again.
    QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 10000);
    RunStore reader;
    QVERIFY(reader.open());
    const auto stored = reader.load(saved.first().at(0).toLongLong());
    QVERIFY(stored);
    QCOMPARE(stored->extra.value("server_log").toObject(), view);
    LdapPage other(&runner, &demo);
    QString error;
    QVERIFY2(other.showRecord(*stored, &error), qPrintable(error));
    QCOMPARE(other.loadView()->latencyChart()->pointCount(ServerLogSeries::name(QStringLiteral("p99"))), answered);
}

QTEST_MAIN(TstLdapServerLog)
#include "tst_ldapserverlog.moc"
