// The LDAP page's connection side: profiles saved without the password, the OS keyring (skipped where there is
// none), the demo directory (a real sandbox slapd: skipped when slapd is not installed) and its stop at exit.
#include "core/run/proberunner.h"
#include "ui/demodirectory.h"
#include "ui/mainwindow.h"
#include "ui/models/connectionprofiles.h"
#include "ui/pages/ldapprofilebar.h"
#include "ui/widgets/demodirectorybox.h"
#include "uisandbox.h"

#include <QDir>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

LdapTarget labTarget()
{
    LdapTarget t;
    t.uri = QStringLiteral("ldap://ldap.example.com:389");
    t.auth = LdapTarget::Auth::Simple;
    t.bindDn = QStringLiteral("cn=admin,dc=example,dc=com");
    return t;
}

} // namespace

#define SKIP_WITHOUT_SLAPD()                                                                                           \
    do {                                                                                                               \
        if (SlapdSandbox::slapdProgram().isEmpty())                                                                    \
            QSKIP("slapd is not installed (apt-get install slapd): the demo directory needs it");                      \
    } while (false)

class TestLdapConnection : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void profilesAreSavedWithoutPassword();
    void keyringRemembersThePassword();
    void demoDirectoryFillsTheForm();
    void exitStopsTheDemo();

private:
    QTemporaryDir m_settingsDir;
};

void TestLdapConnection::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-test-connection"));
    QVERIFY(m_settingsDir.isValid());
    // Every QSettings of this test goes to a temporary directory, never the user's.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings().clear();
}

void TestLdapConnection::profilesAreSavedWithoutPassword()
{
    const QByteArray secret = "Pr0file-Secret-9f3a";
    {
        ProbeRunner runner;
        DemoDirectory demo(&runner);
        LdapPage page(&runner, &demo);
        LdapTarget t = labTarget();
        t.password = secret;
        t.startTls = false;
        t.opTimeoutMs = 4000;
        page.connectionForm()->setTarget(t);
        LdapProfileBar* bar = page.connectionForm()->profileBar();
        bar->setRememberPassword(false);
        bar->setProfileName(QStringLiteral("lab server"));
        bar->save();
        QVERIFY2(bar->message().contains(QStringLiteral("saved")), qPrintable(bar->message()));
    }
    QSettings settings;
    settings.sync();
    // Nowhere in the settings: neither in a value nor in the file.
    const QStringList keys = settings.allKeys();
    QVERIFY(!keys.isEmpty());
    for (const QString& k : keys) {
        QVERIFY2(!settings.value(k).toString().contains(QString::fromLatin1(secret)), qPrintable(k));
        QVERIFY(!k.contains(QStringLiteral("password"), Qt::CaseInsensitive)
            || k.endsWith(QStringLiteral("rememberPassword")));
    }
    QFile file(settings.fileName());
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(settings.fileName()));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.contains("lab server"));
    QVERIFY(!bytes.contains(secret));

    // Loading it back restores everything but the password.
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    page.connectionForm()->profileBar()->load(QStringLiteral("lab server"));
    LdapTarget back;
    page.connectionForm()->readTarget(&back);
    QCOMPARE(back.uri, labTarget().uri);
    QCOMPARE(back.bindDn, labTarget().bindDn);
    QCOMPARE(back.auth, LdapTarget::Auth::Simple);
    QCOMPARE(back.opTimeoutMs, 4000);
    QVERIFY(back.password.isEmpty());

    page.connectionForm()->profileBar()->remove();
    QVERIFY(!QSettings().value(QStringLiteral("ldap/profiles/1/name")).isValid());
}

void TestLdapConnection::keyringRemembersThePassword()
{
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    LdapProfileBar* bar = page.connectionForm()->profileBar();
    QSignalSpy answered(bar, &LdapProfileBar::keyringAnswered);
    LdapTarget t = labTarget();
    t.password = "Keyring-Secret-7c1e";
    page.connectionForm()->setTarget(t);
    bar->setProfileName(QStringLiteral("keyring test"));
    bar->setRememberPassword(true);
    bar->save();
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, 20000);
    if (!answered.at(0).at(0).toBool()) {
        // The page said so and went on: the profile is saved, the password was not.
        QVERIFY(bar->message().startsWith(QStringLiteral("Keyring:")));
        QVERIFY(ConnectionProfiles::load(QStringLiteral("keyring test")).has_value());
        ConnectionProfiles::remove(QStringLiteral("keyring test"));
        const QString reason = answered.at(0).at(1).toString();
        QSKIP(qPrintable(QStringLiteral("no OS keyring (Secret Service) here: ") + reason));
    }
    LdapPage other(&runner, &demo);
    LdapProfileBar* otherBar = other.connectionForm()->profileBar();
    QSignalSpy read(otherBar, &LdapProfileBar::keyringAnswered);
    otherBar->load(QStringLiteral("keyring test"));
    QTRY_COMPARE_WITH_TIMEOUT(read.count(), 1, 20000);
    QVERIFY(read.at(0).at(0).toBool());
    LdapTarget back;
    other.connectionForm()->readTarget(&back);
    QCOMPARE(back.password, t.password);
    otherBar->remove();
    QTRY_COMPARE_WITH_TIMEOUT(read.count(), 2, 20000);
}

void TestLdapConnection::demoDirectoryFillsTheForm()
{
    SKIP_WITHOUT_SLAPD();
    ProbeRunner runner;
    DemoDirectory demo(&runner);
    LdapPage page(&runner, &demo);
    QSignalSpy started(&demo, &DemoDirectory::started);
    QSignalSpy stopped(&demo, &DemoDirectory::stopped);
    page.demoBox()->setEntries(500);
    page.findChild<QPushButton*>(QStringLiteral("startDemoButton"))->click();
    QCOMPARE(demo.state(), DemoDirectory::State::Starting);
    QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("startDemoButton"))->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 60000);
    const SandboxInfo info = *demo.info();
    QVERIFY(QDir(info.dir).exists());

    LdapTarget t;
    page.connectionForm()->readTarget(&t);
    QCOMPARE(t.uri, info.uri);
    QCOMPARE(t.bindDn, info.bindDn);
    QCOMPARE(t.auth, LdapTarget::Auth::Simple);
    QCOMPARE(t.password, UiSandbox::password(info));
    QVERIFY(!t.password.isEmpty());
    QCOMPARE(page.loadForm()->text(QStringLiteral("base")), info.peopleBase);
    QCOMPARE(page.loadForm()->text(QStringLiteral("filter")), QStringLiteral("(uid=user[0-499])"));
    QVERIFY(page.demoBox()->statusText().contains(info.uri));

    page.findChild<QPushButton*>(QStringLiteral("stopDemoButton"))->click();
    QCOMPARE(demo.state(), DemoDirectory::State::Stopping);
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 30000);
    QCOMPARE(demo.state(), DemoDirectory::State::Stopped);
    QVERIFY(!QDir(info.dir).exists());
    QVERIFY(demo.stopNow()); // nothing left to stop
}

// What app/gui/main.cpp does at exit: the window closes (cancelling what runs), the runner finishes, and the demo
// directory the window started is stopped, whether it was up or still starting.
void TestLdapConnection::exitStopsTheDemo()
{
    SKIP_WITHOUT_SLAPD();
    QTemporaryDir parent; // the sandboxes go under $TMPDIR: here, to see that nothing is left behind
    QVERIFY(parent.isValid());
    const QByteArray oldTmp = qgetenv("TMPDIR");
    qputenv("TMPDIR", QFile::encodeName(parent.path()));
    const auto leftovers = [&parent] { return QDir(parent.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot); };
    {
        ProbeRunner runner;
        MainWindow window(&runner);
        window.show();
        window.ldapPage()->demoBox()->setEntries(200);
        window.startDemo();
        QTRY_COMPARE_WITH_TIMEOUT(window.demoDirectory()->state(), DemoDirectory::State::Running, 60000);
        const QString dir = window.demoDirectory()->info()->dir;
        QVERIFY(dir.startsWith(parent.path()));
        QVERIFY(window.close());
        runner.cancelAll();
        runner.waitForDone(20000);
        QVERIFY(window.demoDirectory()->stopNow());
        QVERIFY(!QDir(dir).exists());
    }
    {
        ProbeRunner runner;
        MainWindow window(&runner);
        window.show();
        window.ldapPage()->demoBox()->setEntries(200);
        window.startDemo();
        QCOMPARE(window.demoDirectory()->state(), DemoDirectory::State::Starting);
        QVERIFY(!window.close()); // the start is cancelled first
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 30000);
        runner.cancelAll();
        runner.waitForDone(20000);
        QVERIFY(window.demoDirectory()->stopNow());
    }
    if (oldTmp.isNull())
        qunsetenv("TMPDIR");
    else
        qputenv("TMPDIR", oldTmp);
    QVERIFY2(leftovers().isEmpty(), qPrintable(leftovers().join(u' ')));
}

QTEST_MAIN(TestLdapConnection)
#include "tst_ldapconnection.moc"
