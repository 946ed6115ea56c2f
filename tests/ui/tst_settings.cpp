// QSettings round trip: the window's size and last page and each form's last values come back in the next window;
// the LDAP password never reaches the settings file. The text size for projectors is applied and kept.
// Settings live in this test's own temporary directory (tests/ui/uitestenv.cpp).
#include "core/run/proberunner.h"
#include "ui/mainwindow.h"
#include "ui/pages/advisorneedform.h"
#include "ui/pages/advisorpage.h"
#include "ui/pages/curveform.h"
#include "ui/pages/curvepage.h"
#include "ui/pages/diskpage.h"
#include "ui/pages/experimentform.h"
#include "ui/pages/experimentspage.h"
#include "ui/pages/ldapagentsform.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/ldappage.h"
#include "ui/textsize.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

class TestSettings : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void formsAndWindowComeBackWithoutThePassword();
    void textSizeAppliesAndIsKept();

private:
    static QString line(const QWidget* form, const char* name)
    {
        const auto* e = form->findChild<QLineEdit*>(QString::fromLatin1(name));
        return e ? e->text() : QStringLiteral("<no %1>").arg(QString::fromLatin1(name));
    }
    QTemporaryDir m_dir;
};

void TestSettings::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The settings file is this test's own, in a fresh directory, empty at start.
    const QString file = QSettings().fileName();
    qInfo("settings file: %s", qPrintable(file));
    QVERIFY2(!file.startsWith(QDir::homePath() + "/.config"), qPrintable(file));
    QVERIFY(QSettings().allKeys().isEmpty());
}

void TestSettings::formsAndWindowComeBackWithoutThePassword()
{
    const QString secret = QStringLiteral("Projector-Secret-7781");
    {
        ProbeRunner runner;
        MainWindow w(&runner);
        w.resize(700, 520); // within the offscreen screen: a saved size larger than the screen is not restored
        w.diskPage()->setDirectory(m_dir.path());
        w.diskPage()->setProfile(DiskProfile::RandRead);
        w.diskPage()->setSizeText("48M");
        LdapTarget t;
        t.uri = "ldap://127.0.0.1:38999";
        t.auth = LdapTarget::Auth::Simple;
        t.bindDn = "cn=projector,dc=example,dc=com";
        t.password = secret.toUtf8();
        w.ldapPage()->connectionForm()->setTarget(t);
        w.ldapPage()->connectionForm()->findChild<QCheckBox*>("insecureCheck")->setChecked(true);
        w.ldapPage()->loadForm()->setText("filter", "(uid=projector[0-9])");
        w.ldapPage()->agentsForm()->findChild<QPlainTextEdit*>("agentHostsEdit")->setPlainText("load1\nlocal:2");
        w.ldapPage()->agentsForm()->findChild<QComboBox*>("loadSourceCombo")->setCurrentIndex(2); // both
        w.curvePage()->form()->setPointsText("0,50,100");
        w.experimentsPage()->form()->setText("points", "1,3,9");
        w.advisorPage()->needForm()->findChild<QLineEdit*>("needMbps")->setText("275");
        w.findChild<QTabWidget*>("pageTabs")->setCurrentWidget(w.curvePage());
        QVERIFY(w.close()); // nothing runs: closes at once, and saves
    }
    QSettings().sync();
    QFile file(QSettings().fileName());
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    const QByteArray bytes = file.readAll();
    QVERIFY2(bytes.contains("(uid=projector[0-9])"), bytes.constData()); // the right file, and forms are in it
    QVERIFY2(!bytes.contains(secret.toUtf8()), "the LDAP password is in the settings file");
    QVERIFY2(!bytes.toLower().contains("passwordedit"), bytes.constData());

    ProbeRunner runner;
    MainWindow w(&runner);
    QCOMPARE(w.size(), QSize(700, 520));
    QCOMPARE(w.currentPage(), w.curvePage());
    QCOMPARE(w.diskPage()->form()->directory(), m_dir.path());
    QCOMPARE(w.diskPage()->form()->profile(), DiskProfile::RandRead);
    QCOMPARE(line(w.diskPage()->form(), "sizeEdit"), QStringLiteral("48M"));
    LdapTarget t;
    w.ldapPage()->connectionForm()->readTarget(&t);
    QCOMPARE(t.uri, QStringLiteral("ldap://127.0.0.1:38999"));
    QCOMPARE(t.bindDn, QStringLiteral("cn=projector,dc=example,dc=com"));
    QVERIFY(t.password.isEmpty()); // typed again (or from the keyring), never from the settings
    // Trusting any certificate is chosen anew each session.
    QVERIFY(!w.ldapPage()->connectionForm()->findChild<QCheckBox*>("insecureCheck")->isChecked());
    QCOMPARE(w.ldapPage()->loadForm()->text("filter"), QStringLiteral("(uid=projector[0-9])"));
    QCOMPARE(w.ldapPage()->agentsForm()->hostsText(), QStringLiteral("load1\nlocal:2")); // the host list
    QCOMPARE(w.ldapPage()->agentsForm()->findChild<QComboBox*>("loadSourceCombo")->currentIndex(), 2);
    QCOMPARE(line(w.curvePage()->form(), "pointsEdit"), QStringLiteral("0,50,100"));
    QCOMPARE(w.experimentsPage()->form()->edit("points")->text(), QStringLiteral("1,3,9"));
    QCOMPARE(line(w.advisorPage()->needForm(), "needMbps"), QStringLiteral("275"));
}

void TestSettings::textSizeAppliesAndIsKept()
{
    const QFont before = QApplication::font();
    QVERIFY(before.pointSizeF() > 0);
    {
        ProbeRunner runner;
        MainWindow w(&runner);
        auto* large = w.findChild<QAction*>("textSize1Action");
        QVERIFY(large);
        large->trigger();
        QCOMPARE(QApplication::font().pointSizeF(), before.pointSizeF() * 1.25);
        // Every widget that does not set its own font follows (Qt delivers the change as an event).
        const auto* label = w.diskPage()->findChild<QLabel*>("latencyLabel");
        QVERIFY(label);
        QTRY_COMPARE(label->font().pointSizeF(), before.pointSizeF() * 1.25);
    }
    QCOMPARE(TextSize::current(), TextSize::Level::Large);
    {
        ProbeRunner runner;
        MainWindow w(&runner);
        QVERIFY(w.findChild<QAction*>("textSize1Action")->isChecked());
        QVERIFY(!w.findChild<QAction*>("textSize0Action")->isChecked());
        w.findChild<QAction*>("textSize0Action")->trigger();
    }
    QCOMPARE(QApplication::font().pointSizeF(), before.pointSizeF());
    QCOMPARE(TextSize::current(), TextSize::Level::Normal);
}

QTEST_MAIN(TestSettings)
#include "tst_settings.moc"
