// Secrets (issue 6): after real runs with a known password — dirbench-cli probes, loads, binds, a sizing read, a
// wrong password, DIRBENCH_PASSWORD, reports, a history export; and the GUI's LDAP page with a typed password, a
// saved connection profile, a probe, a load and an exported report — every artefact is searched for the password
// (as is, base64, hex, and the PDFs' text through pdftotext): JSON, PDF, HTML, CSV, both history databases with
// their WAL files, the programs' logs (stdout and stderr), the settings. It is nowhere. The history databases and
// every exported file are private to the user (0600). The sandbox's own password file is the documented exception
// (DESIGN.md) and lives outside the scanned directory.
#include "core/run/proberunner.h"
#include "core/store/historyservice.h"
#include "core/store/runrecorder.h"
#include "ui/mainwindow.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/ldappage.h"
#include "ui/pages/ldapprofilebar.h"
#include "ui/reportexport.h"
#include "uisandbox.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestSecrets : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cliRuns();
    void guiRuns();
    void passwordIsNowhere();
    void privateFiles();

private:
    int cli(const QString& log, const QStringList& args, const QByteArray& envPassword = {});
    QString path(const QString& rel) const { return m_scratch.filePath(rel); }

    SandboxGuard m_slapd;
    QString m_why;
    QTemporaryDir m_scratch;
    QByteArray m_password;
    const QByteArray m_wrong = "Wr0ng-Secret-7731";
    QString m_pwFile;
    QString m_wrongFile;
    QProcessEnvironment m_env;
};

void TestSecrets::initTestCase()
{
    QVERIFY(m_scratch.isValid());
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(true);
    m_slapd = UiSandbox::start(300, &m_why, true);
    QVERIFY2(m_slapd, qPrintable(LdapFixture::notStarted(m_why)));
    m_password = UiSandbox::password(m_slapd.info());
    QVERIFY(m_password.size() >= 12);
    for (const char* d : { "home", "config", "data", "cache", "tmp", "out", "logs" })
        QVERIFY(QDir().mkpath(path(QLatin1String(d))));
    // The password files the user hands to --password-file live outside the scanned tree, like the sandbox's.
    m_pwFile = m_slapd->passwordFile;
    m_wrongFile = m_slapd->dir + QStringLiteral("/wrong-password");
    QFile wrong(m_wrongFile);
    QVERIFY(wrong.open(QIODevice::WriteOnly) && wrong.write(m_wrong) == m_wrong.size());
    wrong.close();
    m_env = QProcessEnvironment::systemEnvironment();
    m_env.insert(QStringLiteral("HOME"), path(QStringLiteral("home")));
    m_env.insert(QStringLiteral("XDG_CONFIG_HOME"), path(QStringLiteral("config")));
    m_env.insert(QStringLiteral("XDG_DATA_HOME"), path(QStringLiteral("data")));
    m_env.insert(QStringLiteral("XDG_CACHE_HOME"), path(QStringLiteral("cache")));
    m_env.insert(QStringLiteral("XDG_RUNTIME_DIR"), path(QStringLiteral("tmp")));
    m_env.insert(QStringLiteral("TMPDIR"), path(QStringLiteral("tmp")));
    m_env.insert(QStringLiteral("DIRBENCH_HISTORY"), path(QStringLiteral("data/cli-history.sqlite")));
    m_env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
}

void TestSecrets::cleanupTestCase()
{
    m_slapd.reset();
}

int TestSecrets::cli(const QString& log, const QStringList& args, const QByteArray& envPassword)
{
    QProcess p;
    QProcessEnvironment env = m_env;
    if (!envPassword.isEmpty())
        env.insert(QStringLiteral("DIRBENCH_PASSWORD"), QString::fromUtf8(envPassword));
    p.setProcessEnvironment(env);
    p.setStandardOutputFile(path(QStringLiteral("logs/") + log + QStringLiteral(".out")));
    p.setStandardErrorFile(path(QStringLiteral("logs/") + log + QStringLiteral(".err")));
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit)
        return -1;
    return p.exitCode();
}

void TestSecrets::cliRuns()
{
    const SandboxInfo s = m_slapd.info();
    const QStringList bind { QStringLiteral("--bind-dn"), s.bindDn, QStringLiteral("--password-file"), m_pwFile };
    const QStringList ldaps { QStringLiteral("--uri"), s.ldapsUri, QStringLiteral("--ca-file"), s.caFile };
    QCOMPARE(cli(QStringLiteral("probe"),
                 QStringList { QStringLiteral("ldap"), QStringLiteral("probe") } + ldaps + bind
                     + QStringList { QStringLiteral("--json"), path(QStringLiteral("out/probe.json")) }),
        0);
    QCOMPARE(cli(QStringLiteral("search"),
                 QStringList { QStringLiteral("ldap"), QStringLiteral("search"), QStringLiteral("--uri"), s.uri } + bind
                     + QStringList { QStringLiteral("--base"), s.peopleBase, QStringLiteral("--filter"),
                         QStringLiteral("uid=user[0-299]"), QStringLiteral("--duration"), QStringLiteral("2"),
                         QStringLiteral("--name"), QStringLiteral("secret-search"), QStringLiteral("--json"),
                         path(QStringLiteral("out/search.json")) }),
        0);
    QCOMPARE(cli(QStringLiteral("bind"),
                 QStringList { QStringLiteral("ldap"), QStringLiteral("bind"), QStringLiteral("--uri"), s.uri,
                     QStringLiteral("--password-file"), m_pwFile, QStringLiteral("--dn"),
                     QStringLiteral("uid=user[0-299],") + s.peopleBase, QStringLiteral("--duration"),
                     QStringLiteral("1"), QStringLiteral("--json"), path(QStringLiteral("out/bind.json")) }),
        0);
    // The password from the environment, and a wrong one (the failure path must not echo it).
    QCOMPARE(cli(QStringLiteral("probe-env"),
                 QStringList { QStringLiteral("ldap"), QStringLiteral("probe"), QStringLiteral("--uri"), s.uri,
                     QStringLiteral("--bind-dn"), s.bindDn, QStringLiteral("--json"),
                     path(QStringLiteral("out/probe-env.json")) },
                 m_password),
        0);
    QCOMPARE(cli(QStringLiteral("probe-wrong"),
                 QStringList { QStringLiteral("ldap"), QStringLiteral("probe"), QStringLiteral("--uri"), s.uri,
                     QStringLiteral("--bind-dn"), s.bindDn, QStringLiteral("--password-file"), m_wrongFile,
                     QStringLiteral("--json"), path(QStringLiteral("out/probe-wrong.json")) }),
        1);
    QCOMPARE(cli(QStringLiteral("sizing"),
                 QStringList { QStringLiteral("sizing"), QStringLiteral("--uri"), s.uri } + bind
                     + QStringList { QStringLiteral("--json"), path(QStringLiteral("out/sizing.json")) }),
        0);
    QCOMPARE(cli(QStringLiteral("export"),
                 { QStringLiteral("history"), QStringLiteral("export"), QStringLiteral("secret-search"),
                     QStringLiteral("--json"), path(QStringLiteral("out/export.json")) }),
        0);
    QStringList report { QStringLiteral("report") };
    for (const char* f : { "probe", "search", "bind", "probe-wrong", "sizing" })
        report << QStringLiteral("--in") << path(QStringLiteral("out/%1.json").arg(QLatin1String(f)));
    report << QStringLiteral("--history") << QStringLiteral("secret-search") << QStringLiteral("--pdf")
           << path(QStringLiteral("out/report.pdf")) << QStringLiteral("--html")
           << path(QStringLiteral("out/report.html")) << QStringLiteral("--csv")
           << path(QStringLiteral("out/report.csv"));
    QCOMPARE(cli(QStringLiteral("report"), report), 0);
}

void TestSecrets::guiRuns()
{
    qputenv("DIRBENCH_HISTORY", path(QStringLiteral("data/gui-history.sqlite")).toLocal8Bit());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, path(QStringLiteral("config")));
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-secrets-test"));
    ProbeRunner runner;
    MainWindow window(&runner);
    // The history's writes are committed on its own thread; flushed() says when (a run's record: its status).
    QSignalSpy flushed(RunRecorder::of(&runner)->service(), &HistoryService::flushed);
    auto finalWrites = [&flushed] {
        int n = 0;
        for (const QList<QVariant>& args : std::as_const(flushed))
            n += args.at(1).toString() == u"ok" ? 1 : 0;
        return n;
    };
    LdapPage* page = window.ldapPage();
    page->connectionForm()->setTarget(UiSandbox::admin(m_slapd.info())); // the password typed in
    page->connectionForm()->profileBar()->setProfileName(QStringLiteral("secret-profile"));
    page->connectionForm()->profileBar()->save();
    QSignalSpy probed(page, &LdapPage::probeFinished);
    page->probe();
    QTRY_COMPARE_WITH_TIMEOUT(probed.count(), 1, 30000);
    QCOMPARE(page->lastProbe().status, QStringLiteral("ok"));
    page->loadForm()->setText(QStringLiteral("base"), m_slapd->peopleBase);
    page->loadForm()->setText(QStringLiteral("filter"), QStringLiteral("uid=user[0-299]"));
    page->loadForm()->setNumber(QStringLiteral("duration"), 2);
    page->loadForm()->setNumber(QStringLiteral("interval"), 0.5);
    QSignalSpy finished(page, &LdapPage::runFinished);
    page->start();
    QVERIFY2(page->isRunning(), qPrintable(page->errorText()));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QCOMPARE(page->lastRecord().status, QStringLiteral("ok"));
    QString error;
    for (const char* ext : { "pdf", "html", "csv" })
        QVERIFY2(ReportExport::exportTo({ page->lastProbe(), page->lastRecord() }, {},
                     path(QStringLiteral("out/gui-report.%1").arg(QLatin1String(ext))), &error),
            qPrintable(error));
    window.saveSettings(); // what closing saves: the window and every form's last values (never a password)
    QSettings().sync();
    QTRY_COMPARE_WITH_TIMEOUT(finalWrites(), 2, 30000); // the probe's record and the load's, committed
}

void TestSecrets::passwordIsNowhere()
{
    const QList<QByteArray> forms { m_password, m_password.toBase64(), m_password.toHex(), m_wrong,
        m_wrong.toBase64() };
    // The search itself works: the sandbox's password file (outside the scanned tree) holds the password.
    QFile control(m_pwFile);
    QVERIFY(control.open(QIODevice::ReadOnly) && control.readAll().contains(m_password));
    int files = 0;
    QStringList kinds;
    QDirIterator it(m_scratch.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        QFile file(f);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(f));
        QByteArray bytes = file.readAll();
        if (f.endsWith(u".pdf")) {
            QProcess text;
            text.start(QStringLiteral("pdftotext"), { f, QStringLiteral("-") });
            QVERIFY2(text.waitForFinished(30000) && text.exitCode() == 0, "pdftotext (poppler-utils) is needed");
            bytes += text.readAllStandardOutput();
        }
        for (const QByteArray& secret : forms)
            QVERIFY2(!bytes.contains(secret), qPrintable(QStringLiteral("the password is in ") + f));
        ++files;
        const QString suffix = QFileInfo(f).suffix();
        if (!kinds.contains(suffix))
            kinds << suffix;
    }
    qInfo("%d files searched (%s)", files, qPrintable(kinds.join(u' ')));
    // The artefacts the issue names were all there to search.
    for (const char* k : { "json", "pdf", "html", "csv", "sqlite", "err", "out", "conf" })
        QVERIFY2(kinds.contains(QLatin1String(k)), k);
}

void TestSecrets::privateFiles()
{
    QStringList checked;
    QDirIterator it(m_scratch.path(), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        const bool history = f.contains(u"history.sqlite");
        const bool exported = f.contains(u"/out/");
        if (!history && !exported)
            continue;
        const auto perms = QFileInfo(f).permissions();
        QVERIFY2(!(perms
                     & (QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther
                         | QFileDevice::WriteOther)),
            qPrintable(f + QStringLiteral(" is readable by others")));
        checked << QFileInfo(f).fileName();
    }
    QVERIFY(checked.contains(QStringLiteral("cli-history.sqlite")));
    QVERIFY(checked.contains(QStringLiteral("gui-history.sqlite")));
    QVERIFY(checked.contains(QStringLiteral("report.pdf")));
    QVERIFY(checked.contains(QStringLiteral("export.json")));
    QVERIFY(checked.contains(QStringLiteral("search.json")));
}

QTEST_MAIN(TestSecrets)
#include "tst_secrets.moc"
