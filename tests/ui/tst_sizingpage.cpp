// The Sizing page: the guide's worked example typed in gives ServerSizing::compute's numbers, updated as the user
// types (debounced); a bad value names its field; the server kind changes the apply format; Copy puts the snippet on
// the clipboard; an LDIF measure (a job) fills the entry count and the attribute table.
#include "core/common/units.h"
#include "core/run/proberunner.h"
#include "core/sizing/ldifstats.h"
#include "core/sizing/serversizing.h"
#include "core/store/runstore.h"
#include "ui/mainwindow.h"
#include "ui/pages/sizingform.h"
#include "ui/pages/sizingpage.h"
#include "ui/widgets/savedrunbanner.h"
#include "ui/widgets/sizingresultview.h"
#include "uisandbox.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

#include <cmath>
#include <optional>

namespace {

void typeInto(SizingPage* page, const char* field, const QString& text)
{
    QLineEdit* e = page->form()->edit(QString::fromLatin1(field));
    QVERIFY(e);
    e->selectAll();
    QTest::keyClick(e, Qt::Key_Backspace);
    QTest::keyClicks(e, text);
}

// A sizing record made by the real CLI (`dirbench-cli sizing ARGS --json PATH`); nullopt with `why` on failure.
std::optional<RunRecord> cliSizing(const QStringList& args, const QString& path, QString* why)
{
    QProcess cli;
    cli.start(QStringLiteral(DIRBENCH_CLI_PATH),
        QStringList { "sizing" } + args + QStringList { "--json", path, "--no-history" });
    if (!cli.waitForFinished(60000) || cli.exitCode() != 0) {
        *why = QString::fromLocal8Bit(cli.readAllStandardError());
        return std::nullopt;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = file.errorString();
        return std::nullopt;
    }
    return RunRecord::fromJsonBytes(file.readAll());
}

// Opens a saved record in a window as File → Open record… does; false with `why` when the window refused it.
bool openInWindow(MainWindow* window, const QString& path, QString* why)
{
    QSignalSpy opened(window, &MainWindow::recordOpened);
    window->openRecordFile(path);
    if (opened.isEmpty() && !opened.wait(10000)) {
        *why = QStringLiteral("no recordOpened signal");
        return false;
    }
    *why = opened.at(0).at(1).toString();
    return opened.at(0).at(0).toBool();
}

} // namespace

class TestSizingPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void guideExampleAsTyped();
    void badValueNamesItsField();
    void serverKindChangesApplyFormat();
    void copyPutsSnippetOnClipboard();
    void ldifMeasureFillsEntries();
    void serverReadFillsInputs();
    void saveInHistory();
    void savedRecordShownReadOnly();
    void savedRecordOfAnotherKindRefused();
    void savedRecordKeepsItsLdif();

private:
    QTemporaryDir m_settingsDir;
};

void TestSizingPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-test-sizing"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
    QSettings().clear();
}

void TestSizingPage::guideExampleAsTyped()
{
    ProbeRunner runner;
    SizingPage page(&runner);
    for (const char* f : { "threads", "dbcache-mb", "entries", "entry-cache-bytes-per-entry" })
        typeInto(&page, f, QString());
    QSignalSpy recomputed(&page, &SizingPage::recomputed);
    QTRY_VERIFY(recomputed.count() >= 1);
    recomputed.clear();
    typeInto(&page, "threads", QStringLiteral("8"));
    typeInto(&page, "dbcache-mb", QStringLiteral("685"));
    typeInto(&page, "entries", QStringLiteral("250,000"));
    typeInto(&page, "entry-cache-bytes-per-entry", QStringLiteral("3000"));
    QCOMPARE(recomputed.count(), 0); // debounced: nothing yet
    QTRY_COMPARE_WITH_TIMEOUT(recomputed.count(), 1, 2000);

    SizingInput in;
    in.server = SizingServer::Ds389;
    in.threads = 8;
    in.dbcacheMb = 685;
    in.entries = 250000;
    in.entryCacheBytesPerEntry = 3000;
    ProbeError err;
    const auto expected = ServerSizing::compute(in, &err);
    QVERIFY(expected);
    const double total = expected->terms.value(QStringLiteral("total_ram_mb")).toDouble();
    QVERIFY(std::abs(total - 2926.8) < 1e-6);
    QVERIFY(page.result());
    QCOMPARE(page.result()->terms, expected->terms);
    QCOMPARE(page.resultView()->totalText(), QStringLiteral("Total RAM: 2,926.8 MB"));
    const QString terms = page.resultView()->termsText();
    QVERIFY2(terms.contains(QStringLiteral("dbcache 685 MB"))
            && terms.contains(QStringLiteral("2.3 × entry caches 750 MB"))
            && terms.contains(QStringLiteral("base 29 MB")),
        qPrintable(terms));
    QCOMPARE(page.resultView()->recommendationCount(), int(expected->recommendations.size()));
    const QString html = page.resultView()->recommendationsHtml();
    QVERIFY(html.contains(QStringLiteral("nsslapd-cachememsize")));
    QVERIFY(html.contains(QStringLiteral("typed"))); // the inputs' origin
    QVERIFY(html.contains(QStringLiteral("page 5"))); // the source
    QVERIFY(page.resultView()->applyText().contains(QStringLiteral("--cache-memsize=750000000 userRoot")));
    QCOMPARE(page.record().kind, QStringLiteral("sizing"));
}

void TestSizingPage::badValueNamesItsField()
{
    ProbeRunner runner;
    SizingPage page(&runner);
    page.show();
    typeInto(&page, "dbcache-mb", QStringLiteral("lots"));
    QTRY_COMPARE_WITH_TIMEOUT(page.errorField(), QStringLiteral("dbcache-mb"), 2000);
    QVERIFY(page.errorText().startsWith(QStringLiteral("DB cache (MB)")));
    QVERIFY(page.form()->edit(QStringLiteral("dbcache-mb"))->styleSheet().contains(QStringLiteral("#c62828")));
    // the result of the earlier inputs goes: its numbers and its change belong to them
    QVERIFY2(!page.resultView()->totalText().contains(QStringLiteral("2,926.8")),
        qPrintable(page.resultView()->totalText()));
    QVERIFY(page.resultView()->applyText().isEmpty());
    QVERIFY(!page.resultView()->copyButton()->isEnabled());
    QVERIFY(!page.result().has_value());
    QVERIFY(page.record().kind.isEmpty());
    typeInto(&page, "dbcache-mb", QStringLiteral("685"));
    QTRY_VERIFY_WITH_TIMEOUT(page.errorField().isEmpty(), 2000);
    QVERIFY(page.form()->edit(QStringLiteral("dbcache-mb"))->styleSheet().isEmpty());
    // a range error from SizingInput::validate() names its field too
    typeInto(&page, "threads", QStringLiteral("0"));
    QTRY_COMPARE_WITH_TIMEOUT(page.errorField(), QStringLiteral("threads"), 2000);
    QVERIFY2(page.errorText().contains(QStringLiteral("between 1 and 4096")), qPrintable(page.errorText()));
}

void TestSizingPage::serverKindChangesApplyFormat()
{
    ProbeRunner runner;
    SizingPage page(&runner);
    QVERIFY(page.resultView()->applyFormatText().contains(QStringLiteral("dsconf")));
    QVERIFY(page.resultView()->applyText().contains(QStringLiteral("dsconf")));
    QSignalSpy recomputed(&page, &SizingPage::recomputed);
    page.form()->setServer(SizingServer::OpenLdap); // needs the size of data.mdb (or an LDIF): named
    QTRY_COMPARE_WITH_TIMEOUT(recomputed.count(), 1, 2000);
    QCOMPARE(page.errorField(), QStringLiteral("db-size-mb"));
    // the 389-ds result and its dsconf commands are gone; the error speaks of the form's fields, not CLI options
    QVERIFY2(
        !page.resultView()->applyText().contains(QStringLiteral("dsconf")), qPrintable(page.resultView()->applyText()));
    QVERIFY(!page.resultView()->recommendationsHtml().contains(QStringLiteral("nsslapd")));
    QVERIFY(page.resultView()->recommendationCount() == 0);
    QVERIFY2(page.errorText().contains(QStringLiteral("“DB files (MB)”")), qPrintable(page.errorText()));
    QVERIFY2(page.errorText().contains(QStringLiteral("LDIF")), qPrintable(page.errorText()));
    QVERIFY2(!page.errorText().contains(QStringLiteral("--")), qPrintable(page.errorText()));
    typeInto(&page, "db-size-mb", QStringLiteral("1200"));
    QTRY_COMPARE_WITH_TIMEOUT(recomputed.count(), 2, 2000);
    QVERIFY2(page.resultView()->applyFormatText().contains(QStringLiteral("cn=config")),
        qPrintable(page.resultView()->applyFormatText() + QStringLiteral(" / ") + page.errorText()));
    QVERIFY(page.resultView()->applyText().contains(QStringLiteral("olcDbMaxSize")));
    QVERIFY(!page.form()->edit(QStringLiteral("dbcache-mb"))->isEnabled()); // 389 only
    page.form()->setServer(SizingServer::EDirectory);
    QTRY_COMPARE_WITH_TIMEOUT(recomputed.count(), 3, 2000);
    QVERIFY2(page.resultView()->applyFormatText().contains(QStringLiteral("_ndsdb.ini")), qPrintable(page.errorText()));
}

void TestSizingPage::copyPutsSnippetOnClipboard()
{
    ProbeRunner runner;
    SizingPage page(&runner);
    QApplication::clipboard()->clear();
    QVERIFY(page.resultView()->copyButton()->isEnabled());
    QTest::mouseClick(page.resultView()->copyButton(), Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), page.resultView()->applyText());
    QVERIFY(QApplication::clipboard()->text().contains(QStringLiteral("nsslapd-cachememsize: 750000000")));
}

void TestSizingPage::ldifMeasureFillsEntries()
{
    const QString path = QStringLiteral(DIRBENCH_SOURCE_DIR "/tests/data/sizing/mixed.ldif");
    ProbeError err;
    const auto stats = LdifScanner::readFile(path, &err);
    QVERIFY(stats);
    ProbeRunner runner;
    SizingPage page(&runner);
    typeInto(&page, "entries", QString());
    QSignalSpy measured(&page, &SizingPage::ldifMeasured);
    QSignalSpy running(&page, &Page::runningChanged);
    page.measureLdif(path);
    QVERIFY(page.isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(measured.count(), 1, 10000);
    QCOMPARE(measured.at(0).at(0).toBool(), true);
    QVERIFY(!page.isRunning());
    QCOMPARE(running.count(), 2);
    QCOMPARE(page.form()->text(QStringLiteral("entries")), QString::number(stats->entries));
    QCOMPARE(page.resultView()->attributeRows(), int(stats->attributes.size()));
    QVERIFY(page.result());
    // the entry count's origin is the LDIF
    SizingInput in;
    QVERIFY(!page.form()->readInput(&in).isError());
    QCOMPARE(in.originOf(QStringLiteral("entries")), QStringLiteral("ldif"));
    QVERIFY(page.resultView()->recommendationsHtml().contains(QStringLiteral("ldif")));

    page.measureLdif(QStringLiteral("/nonexistent/file.ldif"));
    QTRY_COMPARE_WITH_TIMEOUT(measured.count(), 2, 10000);
    QCOMPARE(measured.at(1).at(0).toBool(), false);
}

void TestSizingPage::serverReadFillsInputs()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    QString why;
    SandboxGuard slapd = UiSandbox::start(1500, &why);
    QVERIFY2(slapd, qPrintable(LdapFixture::notStarted(why)));
    const LdapTarget admin = UiSandbox::admin(slapd.info());
    qint64 counted = 0;
    {
        LdapSession s;
        QVERIFY(!s.open(admin).isError());
        QList<LdapSession::Entry> all;
        QVERIFY(!s.search(slapd->base, LdapSession::Subtree, QStringLiteral("(objectClass=*)"),
                      { QStringLiteral("1.1") }, &all)
                     .isError());
        counted = all.size();
    }
    ProbeRunner runner;
    SizingPage page(&runner);
    QCOMPARE(page.form()->text(QStringLiteral("entries")), QStringLiteral("250000")); // the guide's example
    QSignalSpy read(&page, &SizingPage::serverRead);
    page.readServer(admin, QString());
    QVERIFY(page.isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(read.count(), 1, 20000);
    QCOMPARE(read.at(0).at(0).toBool(), true);
    QVERIFY(!page.isRunning());
    // The server said what it is and how many entries it holds; the typed example gave way to the reading.
    QCOMPARE(
        page.findChild<QComboBox*>(QStringLiteral("serverCombo"))->currentData().toInt(), int(SizingServer::OpenLdap));
    QCOMPARE(page.form()->text(QStringLiteral("entries")), QString());
    const RunRecord rec = page.record();
    QCOMPARE(qint64(rec.spec.value(u"entries").toDouble()), counted);
    QCOMPARE(rec.server.toObject().value(u"kind").toString(), QStringLiteral("openldap"));
    QCOMPARE(
        qint64(
            rec.extra.value(u"server_inventory").toObject().value(u"values").toObject().value(u"entries").toDouble()),
        counted);
    QVERIFY(page.resultView()->recommendationsHtml().contains(QStringLiteral("monitor")));
    QVERIFY(page.findChild<QLabel*>(QStringLiteral("serverLabel"))->text().contains(slapd->base));

    LdapTarget gone;
    gone.uri = QStringLiteral("ldap://127.0.0.1:1");
    gone.networkTimeoutMs = 2000;
    page.readServer(gone, QString());
    QTRY_COMPARE_WITH_TIMEOUT(read.count(), 2, 20000);
    QCOMPARE(read.at(1).at(0).toBool(), false);
    QVERIFY(page.findChild<QLabel*>(QStringLiteral("serverLabel"))->text().startsWith(u"Could not read"));
}

void TestSizingPage::saveInHistory()
{
    ProbeRunner runner;
    SizingPage page(&runner);
    QSignalSpy saved(&page, &SizingPage::savedInHistory);
    QVERIFY(page.saveInHistory()); // written on the history's thread
    QTRY_COMPARE(saved.count(), 1);
    const qint64 id = saved.first().at(0).toLongLong();
    QVERIFY(id > 0);
    RunStore store;
    QVERIFY(store.open());
    const auto rec = store.load(id);
    QVERIFY(rec);
    QCOMPARE(rec->kind, QStringLiteral("sizing"));
    QCOMPARE(rec->summary.value(u"total_ram_mb").toDouble(), page.record().summary.value(u"total_ram_mb").toDouble());
    QVERIFY(rec->summary.value(u"total_ram_mb").toDouble() > 0);
    // Nothing valid on screen: nothing saved.
    typeInto(&page, "threads", QStringLiteral("x"));
    page.recompute();
    QVERIFY(!page.saveInHistory());
}

// A record dirbench-cli made, opened with File → Open record…: the form holds its spec, read-only, the view its
// figures; Start makes a new sizing from those inputs, with the same figures.
// A sizing made from an LDIF file shows, saved, what that file held: its sizes under the form and the attribute
// table (the record keeps the 40 most frequent attributes and the index candidates).
void TestSizingPage::savedRecordKeepsItsLdif()
{
    QTemporaryDir dir;
    const QString ldif = dir.filePath(QStringLiteral("people.ldif"));
    QFile out(ldif);
    QVERIFY(out.open(QIODevice::WriteOnly));
    for (int i = 0; i < 50; ++i)
        out.write(
            QStringLiteral("dn: uid=u%1,ou=people,dc=example,dc=com\nobjectClass: inetOrgPerson\nuid: u%1\ncn: User "
                           "%1\nsn: %1\n%2\n")
                .arg(i)
                .arg(i % 2 ? QStringLiteral("mail: u%1@example.com\n").arg(i) : QString())
                .toUtf8());
    out.close();
    const QString path = dir.filePath(QStringLiteral("sizing.json"));
    QString why;
    const auto rec = cliSizing({ "--server", "389ds", "--ldif", ldif }, path, &why);
    QVERIFY2(rec, qPrintable(why));
    const QJsonObject saved = rec->summary.value("ldif").toObject();
    QCOMPARE(saved.value("entries").toInt(), 50);
    const QJsonArray attrs = saved.value("attributes").toArray();
    QVERIFY(attrs.size() >= 5);

    ProbeRunner runner;
    MainWindow window(&runner);
    QVERIFY2(openInWindow(&window, path, &why), qPrintable(why));
    auto* page = window.findChild<SizingPage*>();
    QVERIFY(page->form()->ldifStats());
    QCOMPARE(page->form()->ldifStats()->entries, qint64(50));
    QCOMPARE(page->form()->ldifStats()->maxEntryBytes, qint64(saved.value("max_entry_bytes").toDouble()));
    auto* table = page->resultView()->findChild<QTableWidget*>("attributeTable");
    QVERIFY(table);
    QCOMPARE(table->rowCount(), int(attrs.size()));
    QStringList names;
    for (int r = 0; r < table->rowCount(); ++r)
        names << table->item(r, 0)->text();
    for (const QJsonValue& a : attrs)
        QVERIFY2(names.contains(a.toObject().value("name").toString()), qPrintable(names.join(", ")));
    // the saved result, not one computed again from the form
    const double total = rec->summary.value("total_ram_mb").toDouble();
    QCOMPARE(page->resultView()->totalText(),
        "Total RAM: " + Units::formatNumber(total, total == std::round(total) ? 0 : 1) + " MB");
}

void TestSizingPage::savedRecordShownReadOnly()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sizing.json"));
    QString why;
    const auto rec = cliSizing({ "--server", "389ds", "--threads", "16", "--dbcache-mb", "1200", "--entries", "400000",
                                   "--entry-cache-bytes-per-entry", "2500", "--import-cache-mb", "0" },
        path, &why);
    QVERIFY2(rec, qPrintable(why));
    QCOMPARE(rec->kind, QStringLiteral("sizing"));

    ProbeRunner runner;
    QSignalSpy started(&runner, &ProbeRunner::started);
    MainWindow window(&runner);
    QVERIFY2(openInWindow(&window, path, &why), qPrintable(why));
    auto* page = window.findChild<SizingPage*>();
    QVERIFY(page);
    QCOMPARE(window.currentPage(), page);

    // The form: the record's spec (the page's own example has 8 threads and a 685 MB dbcache).
    QCOMPARE(page->form()->server(), SizingServer::Ds389);
    QCOMPARE(page->form()->text("threads"), QStringLiteral("16"));
    QCOMPARE(page->form()->text("dbcache-mb"), QStringLiteral("1200"));
    for (const char* f : { "threads", "dbcache-mb", "entry-cache-mb", "import-cache-mb", "entries",
             "entry-cache-bytes-per-entry", "db-size-mb", "users" }) {
        const QJsonValue v = rec->spec.value(SizingForm::specKey(QString::fromLatin1(f)));
        const QString text = page->form()->text(QString::fromLatin1(f));
        if (v.isDouble())
            QVERIFY2(text.toDouble() == v.toDouble(), f);
        else
            QVERIFY2(text.isEmpty(), f);
    }
    // The view: the record's figures.
    const QJsonObject& s = rec->summary;
    SizingResultView* view = page->resultView();
    QCOMPARE(view->applyText(), s.value("apply").toObject().value("text").toString());
    const QJsonArray recs = s.value("recommendations").toArray();
    QCOMPARE(view->recommendationCount(), int(recs.size()));
    QTextDocument shown;
    shown.setHtml(view->recommendationsHtml());
    for (const QJsonValue& r : recs) {
        const QString line = r.toObject().value("name").toString() + ": ";
        QVERIFY2(shown.toPlainText().contains(line), qPrintable(line));
        QVERIFY(shown.toPlainText().contains(r.toObject().value("computation").toString()));
    }
    const double total = s.value("total_ram_mb").toDouble();
    QVERIFY(total > 0);
    QCOMPARE(view->totalText(), "Total RAM: " + Units::formatNumber(total, total == std::round(total) ? 0 : 1) + " MB");

    // Read-only: nothing ran, nothing saved, the banner says so.
    QVERIFY(!page->form()->isEnabled());
    QVERIFY(!page->findChild<QPushButton*>("saveHistoryButton")->isEnabled());
    QVERIFY(!page->saveInHistory());
    QCOMPARE(started.count(), 0);
    QVERIFY(page->lastRecord().kind.isEmpty());
    QVERIFY(!window.savedRunBanner()->isHidden());
    QVERIFY(window.savedRunBanner()->text().contains("sizing.json"));

    // Close: the user's own inputs back (the page's example), editable, no banner, nothing ran.
    QVERIFY(page->closeSavedButton()->isVisible() || !page->isVisible());
    QVERIFY(!page->closeSavedButton()->isHidden());
    page->closeSavedButton()->click();
    QVERIFY(!page->showingSaved());
    QVERIFY(page->form()->isEnabled());
    QCOMPARE(page->form()->text("threads"), QStringLiteral("8"));
    QCOMPARE(page->form()->text("dbcache-mb"), QStringLiteral("685"));
    QVERIFY(page->closeSavedButton()->isHidden());
    QVERIFY(window.savedRunBanner()->isHidden());
    QCOMPARE(started.count(), 0);
    QVERIFY(page->resultView()->totalText().contains(QStringLiteral("2,926.8")));

    // Start on the saved sizing: a sizing made now from those inputs (the same figures), editable, no banner.
    QVERIFY2(openInWindow(&window, path, &why), qPrintable(why));
    QVERIFY(page->showingSaved());
    page->start();
    QVERIFY(page->form()->isEnabled());
    QVERIFY(!page->showingSaved());
    QVERIFY(window.savedRunBanner()->isHidden());
    QCOMPARE(page->lastRecord().summary.value("total_ram_mb").toDouble(), total);
    QCOMPARE(page->resultView()->applyText(), s.value("apply").toObject().value("text").toString());
}

void TestSizingPage::savedRecordOfAnotherKindRefused()
{
    ProbeRunner runner;
    SizingPage page(&runner);
    RunRecord disk;
    disk.kind = "disk";
    QString why;
    QVERIFY(!page.showRecord(disk, &why));
    QVERIFY2(why.contains("\"disk\" record, not a sizing"), qPrintable(why));
    QVERIFY(page.form()->isEnabled());
    QCOMPARE(page.form()->text("threads"), QStringLiteral("8")); // untouched
    RunRecord empty;
    empty.kind = "sizing";
    QVERIFY(!page.showRecord(empty, &why));
    QVERIFY2(why.contains("no recommendations"), qPrintable(why));
    QVERIFY(!page.showingSaved());
}

QTEST_MAIN(TestSizingPage)
#include "tst_sizingpage.moc"
