// What the window does as it starts (ui/firststart.h): the demo directory on the very first start and when asked
// for, never otherwise and never with a load; the first-start hint until it is dismissed. Settings and history are
// the test's own (uitestenv.cpp); the demo directory is a real sandbox slapd.
#include "core/run/proberunner.h"
#include "core/store/runstore.h"
#include "ui/demodirectory.h"
#include "ui/firststart.h"
#include "ui/mainwindow.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldappage.h"
#include "ui/widgets/demodirectorybox.h"
#include "ui/widgets/firststarthint.h"
#include "uisandbox.h"

#include <QPushButton>
#include <QSettings>
#include <QTest>

class TestFirstStart : public QObject
{
    Q_OBJECT
private slots:
    void whenTheDemoStarts();
    void firstStartStartsTheDemoWithoutALoad();
    void aStartKeepsNothingTheUserDidNotAskFor();
};

void TestFirstStart::whenTheDemoStarts()
{
    QVERIFY(FirstStart::demoAtStart({}, true));
    QVERIFY(!FirstStart::demoAtStart({}, false));
    QVERIFY(FirstStart::demoAtStart({ false, true, false }, false)); // --demo
    QVERIFY(!FirstStart::demoAtStart({ true, false, false }, true)); // --uri
    QVERIFY(!FirstStart::demoAtStart({ false, false, true }, true)); // --no-demo
}

// One profile, three starts: the first starts the demo directory (filled in, no load) and shows the hint; the
// second starts nothing and still shows the hint, which is dismissed; the third shows neither.
void TestFirstStart::firstStartStartsTheDemoWithoutALoad()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): the demo directory needs it");
    QVERIFY(FirstStart::isFirst());
    {
        ProbeRunner runner;
        MainWindow window(&runner);
        window.show();
        window.ldapPage()->demoBox()->setEntries(200);
        window.startUp({});
        QVERIFY(!FirstStart::isFirst());
        QVERIFY(window.firstStartHint()->isVisible());
        QCOMPARE(window.demoDirectory()->state(), DemoDirectory::State::Starting);
        QCOMPARE(window.currentPage(), static_cast<Page*>(window.ldapPage()));
        QTRY_COMPARE_WITH_TIMEOUT(window.demoDirectory()->state(), DemoDirectory::State::Running, 60000);
        const QString uri = window.ldapPage()->connectionForm()->uri();
        QVERIFY2(uri == window.demoDirectory()->info()->uri || uri == window.demoDirectory()->info()->ldapsUri,
            qPrintable(uri));
        QVERIFY(!window.ldapPage()->isRunning()); // a load would have started as the demo came up
        QTRY_COMPARE_WITH_TIMEOUT(runner.runningCount(), 0, 10000);
        QVERIFY(window.ldapPage()->lastRecord().kind.isEmpty());
        QVERIFY(window.close());
        runner.cancelAll();
        runner.waitForDone(20000);
        QVERIFY(window.demoDirectory()->stopNow());
    }
    {
        ProbeRunner runner;
        MainWindow window(&runner);
        window.show();
        window.startUp({});
        QCOMPARE(window.demoDirectory()->state(), DemoDirectory::State::Stopped);
        QVERIFY(!window.ldapPage()->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(runner.runningCount(), 0, 10000); // the only job: a look for orphaned demos
        QVERIFY(window.firstStartHint()->isVisible());
        auto* dismiss = window.firstStartHint()->findChild<QPushButton*>(QStringLiteral("hintDismissButton"));
        QVERIFY(dismiss);
        dismiss->click();
        QVERIFY(!window.firstStartHint()->isVisible());
    }
    {
        ProbeRunner runner;
        MainWindow window(&runner);
        window.show();
        window.startUp({});
        QVERIFY(!window.firstStartHint()->isVisible());
        QCOMPARE(window.demoDirectory()->state(), DemoDirectory::State::Stopped);
    }
}

// A start with the demo directory, closed again (after the starts above, with this test's own profile): the history
// holds no run the user did not start, and the remembered forms are the user's own, not the demo's URI and base.
void TestFirstStart::aStartKeepsNothingTheUserDidNotAskFor()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): the demo directory needs it");
    const QString userUri = QStringLiteral("ldaps://directory.example.org:636");
    const QString uriKey = QStringLiteral("forms/ldap-connection/uriEdit");
    QSettings().setValue(uriKey, userUri);
    QSettings().remove(QStringLiteral("forms/ldap-load"));
    QSettings().sync();
    QString demoUri;
    {
        ProbeRunner runner;
        MainWindow window(&runner);
        window.show();
        QCOMPARE(window.ldapPage()->connectionForm()->uri(), userUri); // remembered
        window.ldapPage()->demoBox()->setEntries(200);
        window.startUp({ false, true, false }); // --demo
        QTRY_COMPARE_WITH_TIMEOUT(window.demoDirectory()->state(), DemoDirectory::State::Running, 60000);
        demoUri = window.ldapPage()->connectionForm()->uri();
        QVERIFY2(demoUri != userUri, qPrintable(demoUri)); // the demo's, shown
        QTRY_COMPARE_WITH_TIMEOUT(runner.runningCount(), 0, 10000);
        QVERIFY(window.close());
        runner.cancelAll();
        runner.waitForDone(20000);
        QVERIFY(window.demoDirectory()->stopNow());
    }
    QSettings settings;
    QCOMPARE(settings.value(uriKey).toString(), userUri);
    const QStringList keys = settings.allKeys();
    for (const QString& key : keys) {
        const QString value = settings.value(key).toString();
        QVERIFY2(
            !value.contains(QStringLiteral("127.0.0.1")) && !value.contains(QStringLiteral("ou=people,dc=example")),
            qPrintable(key + QStringLiteral(" = ") + value));
    }
    RunStore store;
    QVERIFY(store.open(RunStore::defaultPath()));
    const QList<RunStore::Summary> runs = store.list();
    QStringList kinds;
    for (const auto& r : runs)
        kinds << r.kind;
    QVERIFY2(runs.isEmpty(), qPrintable(kinds.join(u',')));
}

QTEST_MAIN(TestFirstStart)
#include "tst_firststart.moc"
