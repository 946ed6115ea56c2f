// The main window: it fits a 1366 x 768 laptop screen (each page's minimum size is printed, so a page that grows
// too wide is named); its menus and shortcuts (no Esc for cancel); Help → About names the versions and the history;
// File → Open record shows real records (made by dirbench-cli) read-only in the Disk and the LDAP page (the Sizing
// page: tst_sizingpage), and refuses a kind no page shows.
#include "core/common/buildinfo.h"
#include "core/ldap/ldapsession.h"
#include "core/run/proberunner.h"
#include "core/store/runstore.h"
#include "tests/ui/uisandbox.h"
#include "ui/charts/livechartview.h"
#include "ui/mainwindow.h"
#include "ui/models/diskresultmodel.h"
#include "ui/pages/diskpage.h"
#include "ui/pages/ldappage.h"
#include "ui/pages/replicationpage.h"
#include "ui/widgets/ldaploadview.h"
#include "ui/widgets/probeview.h"
#include "ui/widgets/savedrunbanner.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void fitsALaptopScreen();
    void menusAndShortcuts();
    void aboutShowsTheVersions();
    void openRecordShowsADiskRunReadOnly();
    void openRecordShowsAnLdapRunReadOnly();
    void openRecordRefusesWhatNoPageShows();
    void wheelScrollsTheFormNotItsFields();

private:
    static QAction* action(const MainWindow& w, const char* name);
    static QStringList runCli(const QStringList& args);
    QTemporaryDir m_dir;
};

void TestMainWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

QAction* TestMainWindow::action(const MainWindow& w, const char* name)
{
    return w.findChild<QAction*>(QString::fromLatin1(name));
}

// Runs dirbench-cli; returns its stderr on failure (empty on success).
QStringList TestMainWindow::runCli(const QStringList& args)
{
    QProcess p;
    p.start(DIRBENCH_CLI_PATH, args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0)
        return { QString::fromLocal8Bit(p.readAllStandardError()) + "(exit " + QString::number(p.exitCode()) + ")" };
    return {};
}

void TestMainWindow::fitsALaptopScreen()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("pageTabs"));
    QVERIFY(tabs);
    QVERIFY(tabs->count() >= 7);
    QStringList tooBig;
    for (int i = 0; i < tabs->count(); ++i) {
        const QSize min = tabs->widget(i)->minimumSizeHint().expandedTo(tabs->widget(i)->minimumSize());
        qInfo("%-14s minimum %d x %d", qPrintable(tabs->tabText(i)), min.width(), min.height());
        if (min.width() > 1300 || min.height() > 640)
            tooBig << tabs->tabText(i);
    }
    QVERIFY2(tooBig.isEmpty(), qPrintable(tooBig.join(u", ")));
    const QSize min = window.minimumSizeHint();
    qInfo("window minimum %d x %d", min.width(), min.height());
    QVERIFY(min.width() <= 1340 && min.height() <= 740);
}

void TestMainWindow::menusAndShortcuts()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    QStringList titles;
    for (const QAction* a : window.menuBar()->actions())
        titles << a->text().remove(u'&');
    QCOMPARE(titles, QStringList({ "File", "Run", "View", "Help" }));

    const QList<std::pair<const char*, QKeySequence>> shortcuts
        = { { "openRecordAction", QKeySequence("Ctrl+O") }, { "importAction", QKeySequence() },
              { "exportReportAction", QKeySequence("Ctrl+E") }, { "quitAction", QKeySequence("Ctrl+Q") },
              { "startAction", QKeySequence("Ctrl+R") }, { "cancelAction", QKeySequence("Ctrl+.") },
              { "aboutAction", QKeySequence() }, { "userGuideAction", QKeySequence(QKeySequence::HelpContents) } };
    for (const auto& [name, keys] : shortcuts) {
        QAction* a = action(window, name);
        QVERIFY2(a, name);
        QCOMPARE(a->shortcut(), keys);
    }
    // Esc ends nothing: a 30-minute sweep must survive someone closing a popup.
    for (const QAction* a : window.findChildren<QAction*>())
        QVERIFY2(!a->shortcuts().contains(QKeySequence(Qt::Key_Escape)), qPrintable(a->text()));

    // View: a page each, Ctrl+1 … Ctrl+9, Ctrl+0 in the tabs' order, and they switch the page.
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("pageTabs"));
    for (int i = 0; i < tabs->count(); ++i) {
        auto* a = window.findChild<QAction*>(tabs->widget(i)->objectName() + "Action");
        QVERIFY2(a, qPrintable(tabs->tabText(i)));
        QCOMPARE(a->text(), tabs->tabText(i));
        QCOMPARE(a->shortcut(), QKeySequence(Qt::CTRL | Qt::Key(i < 9 ? Qt::Key_1 + i : Qt::Key_0)));
        a->trigger();
        QCOMPARE(tabs->currentIndex(), i);
    }
    auto* textSize = window.findChild<QMenu*>(QStringLiteral("textSizeMenu"));
    QVERIFY(textSize);
    QCOMPARE(textSize->actions().size(), 3);
}

void TestMainWindow::aboutShowsTheVersions()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    action(window, "aboutAction")->trigger();
    auto* box = window.findChild<QMessageBox*>(QStringLiteral("aboutBox"));
    QVERIFY(box);
    QVERIFY(box->isVisible());
    const QString text = box->text();
    qInfo("%s", qPrintable(text));
    QVERIFY(text.contains("DirBench " DIRBENCH_VERSION));
    QVERIFY(text.contains(QString::fromLatin1(qVersion())));
    const QString ldap = LdapSession::libraryVersion();
    static const QRegularExpression openldap("^OpenLDAP \\d+\\.\\d+\\.\\d+$");
    QVERIFY2(openldap.match(ldap).hasMatch(), qPrintable(ldap));
    QVERIFY(text.contains(ldap));
    const QString uring = BuildInfo::liburingVersion();
    static const QRegularExpression version("^\\d+\\.\\d+");
    QVERIFY2(version.match(uring).hasMatch(), qPrintable(uring));
    QVERIFY(text.contains("liburing</td><td>" + uring));
    // The history named is the one this process uses (tests/ui/uitestenv.cpp points it at a temporary file).
    QCOMPARE(RunStore::defaultPath(), qEnvironmentVariable("DIRBENCH_HISTORY"));
    QVERIFY(text.contains(RunStore::defaultPath().toHtmlEscaped()));
    box->close();
}

void TestMainWindow::openRecordShowsADiskRunReadOnly()
{
    const QString path = m_dir.filePath("disk.json");
    const QStringList err = runCli({ "disk", "--dir", m_dir.path(), "--profile", "seq-write", "--size", "16M",
        "--duration", "1", "--json", path, "--no-history", "--quiet" });
    QVERIFY2(err.isEmpty(), qPrintable(err.join("")));

    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    MainWindow window(&runner);
    QSignalSpy opened(&window, &MainWindow::recordOpened);
    window.openRecordFile(path);
    QTRY_COMPARE(opened.count(), 1);
    QVERIFY2(opened.at(0).at(0).toBool(), qPrintable(opened.at(0).at(1).toString()));

    DiskPage* page = window.diskPage();
    QCOMPARE(window.currentPage(), page);
    QVERIFY(page->resultModel()->rowCount() >= 1);
    QVERIFY(page->resultModel()->index(0, DiskResultModel::MbPerSec).data(DiskResultModel::ValueRole).toDouble() > 0);
    QVERIFY(page->chartPointCount() > 0);
    auto* banner = window.savedRunBanner();
    QVERIFY(!banner->isHidden());
    QVERIFY2(banner->text().startsWith("Viewing a saved run from "), qPrintable(banner->text()));
    QVERIFY(banner->text().contains("disk.json"));
    // Read-only: nothing ran, nothing became the page's own run (so nothing of it is saved or reported as made).
    QCOMPARE(started.count(), 0);
    QVERIFY(!page->isRunning());
    QVERIFY(page->lastRecord().kind.isEmpty());
    // Another page: its own banner (none); back on Disk, the banner is there again.
    window.findChild<QTabWidget*>("pageTabs")->setCurrentWidget(window.ldapPage());
    QVERIFY(banner->isHidden());
    window.findChild<QTabWidget*>("pageTabs")->setCurrentWidget(page);
    QVERIFY(!banner->isHidden());
}

void TestMainWindow::openRecordShowsAnLdapRunReadOnly()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    QString why;
    SandboxGuard sbx = UiSandbox::start(500, &why);
    QVERIFY2(sbx, qPrintable(LdapFixture::notStarted(why)));
    const QString load = m_dir.filePath("search.json");
    const QString probe = m_dir.filePath("probe.json");
    QStringList err = runCli({ "ldap", "search", "--uri", sbx->uri, "--bind-dn", sbx->bindDn, "--password-file",
        sbx->passwordFile, "--base", sbx->peopleBase, "--filter", "uid=user[0-499]", "--duration", "2", "--threads",
        "1", "--json", load, "--no-history" });
    QVERIFY2(err.isEmpty(), qPrintable(err.join("")));
    err = runCli({ "ldap", "probe", "--uri", sbx->uri, "--bind-dn", sbx->bindDn, "--password-file", sbx->passwordFile,
        "--json", probe, "--no-history" });
    QVERIFY2(err.isEmpty(), qPrintable(err.join("")));

    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    MainWindow window(&runner);
    QSignalSpy opened(&window, &MainWindow::recordOpened);
    window.openRecordFile(load);
    QTRY_COMPARE(opened.count(), 1);
    QVERIFY2(opened.at(0).at(0).toBool(), qPrintable(opened.at(0).at(1).toString()));
    LdapPage* page = window.ldapPage();
    QCOMPARE(window.currentPage(), page);
    QVERIFY(page->loadView()->opsChart()->pointCount() > 0);
    QVERIFY(!page->loadView()->summaryText().isEmpty());
    QVERIFY(!window.savedRunBanner()->isHidden());

    window.openRecordFile(probe);
    QTRY_COMPARE(opened.count(), 2);
    QVERIFY2(opened.at(1).at(0).toBool(), qPrintable(opened.at(1).at(1).toString()));
    QVERIFY2(page->probeView()->serverText().contains("OpenLDAP", Qt::CaseInsensitive),
        qPrintable(page->probeView()->serverText()));
    QCOMPARE(started.count(), 0);
    QVERIFY(page->lastRecord().kind.isEmpty());
    QVERIFY(page->lastProbe().kind.isEmpty());
}

void TestMainWindow::openRecordRefusesWhatNoPageShows()
{
    // A real record made under a kind no page shows ("ldif-stats", the Sizing page's own LDIF job; the Sizing page
    // shows "sizing" records, tst_sizingpage).
    const QString made = m_dir.filePath("sizing.json");
    const QStringList err = runCli(
        { "sizing", "--server", "openldap", "--db-size-mb", "1200", "--threads", "4", "--json", made, "--no-history" });
    QVERIFY2(err.isEmpty(), qPrintable(err.join("")));
    QFile in(made);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject json = QJsonDocument::fromJson(in.readAll()).object();
    QCOMPARE(json.value("kind").toString(), QStringLiteral("sizing"));
    json.insert("kind", "ldif-stats");
    const QString path = m_dir.filePath("ldif-stats.json");
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(json).toJson());
    out.close();
    ProbeRunner runner;
    MainWindow window(&runner);
    QSignalSpy opened(&window, &MainWindow::recordOpened);
    window.openRecordFile(path);
    QTRY_COMPARE(opened.count(), 1);
    QVERIFY(!opened.at(0).at(0).toBool());
    const QString message = opened.at(0).at(1).toString();
    QVERIFY2(message.contains("ldif-stats"), qPrintable(message));
    QVERIFY(window.savedRunBanner()->isHidden());

    window.openRecordFile(m_dir.filePath("missing.json"));
    QTRY_COMPARE(opened.count(), 2);
    QVERIFY(!opened.at(1).at(0).toBool());
    QVERIFY2(opened.at(1).at(1).toString().contains("missing.json"), qPrintable(opened.at(1).at(1).toString()));
}

// A wheel over a spin box or a combo box of a scrolled form scrolls the form and leaves the value as it was (the
// Replication form's connect timeout and watch were changed by a scroll); once the field has the focus, it is the
// field's again.
void TestMainWindow::wheelScrollsTheFormNotItsFields()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    window.resize(1366, 560); // low: the Replication form scrolls
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.findChild<QTabWidget*>(QStringLiteral("pageTabs"))->setCurrentWidget(window.replicationPage());
    auto* spin = window.replicationPage()->findChild<QDoubleSpinBox*>(QStringLiteral("markerRateSpin"));
    auto* combo = window.replicationPage()->findChild<QComboBox*>(QStringLiteral("watchCombo"));
    QVERIFY(spin && combo);
    QScrollArea* area = nullptr;
    for (QWidget* p = spin->parentWidget(); p && !area; p = p->parentWidget())
        area = qobject_cast<QScrollArea*>(p);
    QVERIFY(area && area->verticalScrollBar()->maximum() > 0);
    const auto wheel = [](QWidget* target) {
        const QPointF at(target->width() / 2.0, target->height() / 2.0);
        QWheelEvent down(at, target->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(target, &down);
    };
    for (const QAbstractSpinBox* s : window.findChildren<QAbstractSpinBox*>())
        QVERIFY2(!s->isVisible() || s->focusPolicy() == Qt::StrongFocus, qPrintable(s->objectName()));
    for (const QComboBox* c : window.findChildren<QComboBox*>())
        QVERIFY2(!c->isVisible() || c->focusPolicy() == Qt::StrongFocus, qPrintable(c->objectName()));
    const double rate = spin->value();
    const int watch = combo->currentIndex();
    const int before = area->verticalScrollBar()->value();
    wheel(spin);
    wheel(combo);
    QCOMPARE(spin->value(), rate);
    QCOMPARE(combo->currentIndex(), watch);
    QVERIFY2(area->verticalScrollBar()->value() > before, "the form did not scroll");
    QCOMPARE(spin->focusPolicy(), Qt::StrongFocus);
    spin->setFocus();
    QTRY_VERIFY(spin->hasFocus());
    wheel(spin);
    QVERIFY(spin->value() < rate); // focused: the wheel is the field's
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
