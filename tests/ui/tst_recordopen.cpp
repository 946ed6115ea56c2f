// Records and workloads open from outside the window: the MIME types DirBench installs (packaging/*.mime.xml, made
// into a real shared-mime-info database with update-mime-database) recognise a record written by DirBench by its
// name (*.dirbench.json, as History exports it) or, without a telling name, by its content, and a workload by its
// name, as a file manager does before a double-click; the desktop entry's Exec line
// takes files (%F) and claims both types. `dirbench FILE` (the real program, offscreen) shows a record in its page
// and says in one sentence, naming the file, why a file it cannot show is not shown; in the window, File › Open's
// path does the same for a broken file, a file that is not a record and a kind no page shows, and a workload goes
// to the Replay page's form. Every record kind DirBench writes (tests/data/records, made by its make.sh with the real
// CLI) opens in its own page, and so does a saved workload analysis.
#include "core/common/runrecord.h"
#include "core/run/proberunner.h"
#include "ui/mainwindow.h"
#include "ui/pages/advisorpage.h"
#include "ui/pages/replayform.h"
#include "ui/pages/replaypage.h"
#include "ui/pages/replicationpage.h"
#include "ui/widgets/comparisonview.h"

#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMimeDatabase>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

class TestRecordOpen : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void mimeTypesRecogniseRecordsAndWorkloads();
    void desktopEntryTakesFiles();
    void windowOpensOrSaysWhy_data();
    void windowOpensOrSaysWhy();
    void workloadGoesToTheReplayPage();
    void commandLineOpensAFile();
    void everyRecordKindOpensInItsPage_data();
    void everyRecordKindOpensInItsPage();

private:
    QString write(const QString& name, const QByteArray& bytes) const;
    static RunRecord replicationRecord();

    QTemporaryDir m_dir;
    QTemporaryDir m_mime;
};

QString TestRecordOpen::write(const QString& name, const QByteArray& bytes) const
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(bytes);
    return path;
}

RunRecord TestRecordOpen::replicationRecord()
{
    RunRecord r;
    r.kind = QStringLiteral("replication");
    r.status = QStringLiteral("ok");
    r.started = QDateTime::currentDateTimeUtc();
    for (int i = 1; i <= 3; ++i)
        r.intervals.append(QJsonObject { { QStringLiteral("t"), double(i) } });
    return r;
}

void TestRecordOpen::initTestCase()
{
    const QString update = QStandardPaths::findExecutable(QStringLiteral("update-mime-database"));
    if (update.isEmpty())
        QFAIL("update-mime-database is not installed: scripts/deps.sh --test installs shared-mime-info");
    const QString packages = m_mime.filePath(QStringLiteral("mime/packages"));
    QVERIFY(QDir().mkpath(packages));
    QVERIFY(QFile::copy(QStringLiteral(DIRBENCH_SOURCE_DIR "/packaging/io.github.dirbench.DirBench.mime.xml"),
        packages + QStringLiteral("/io.github.dirbench.DirBench.xml")));
    QVERIFY(QFile::copy(QStringLiteral("/usr/share/mime/packages/freedesktop.org.xml"),
        packages + QStringLiteral("/freedesktop.org.xml")));
    QProcess p;
    p.start(update, { m_mime.filePath(QStringLiteral("mime")) });
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    // QMimeDatabase reads the databases of the XDG data dirs when it is first used: only ours.
    qputenv("XDG_DATA_HOME", m_mime.path().toUtf8());
    qputenv("XDG_DATA_DIRS", m_mime.path().toUtf8());
}

void TestRecordOpen::mimeTypesRecogniseRecordsAndWorkloads()
{
    RunRecord r = replicationRecord();
    for (int i = 0; i < 2000; ++i) // intervals galore: the schema still comes first
        r.intervals.append(QJsonObject { { QStringLiteral("t"), double(i) } });
    const QByteArray bytes = r.toJsonBytes();
    QVERIFY2(bytes.startsWith("{\n    \"schema\": \"dirbench.run/1\",\n"), bytes.left(80).constData());
    QString error;
    const auto back = RunRecord::fromJsonBytes(bytes, &error);
    QVERIFY2(back && back->intervals.size() == r.intervals.size(), qPrintable(error));
    const QMimeDatabase db;
    QCOMPARE(db.mimeTypeForFile(write(QStringLiteral("any-name"), bytes)).name(),
        QStringLiteral("application/x-dirbench-record"));
    QCOMPARE(db.mimeTypeForFile(write(QStringLiteral("run-7.dirbench.json"), bytes)).name(),
        QStringLiteral("application/x-dirbench-record"));
    QCOMPARE(db.mimeTypeForFile(write(QStringLiteral("w.dbwl"), "{}\n")).name(),
        QStringLiteral("application/x-dirbench-workload"));
    QCOMPARE(db.mimeTypeForFile(write(QStringLiteral("other.json"), "{\n    \"a\": 1\n}\n")).name(),
        QStringLiteral("application/json"));
}

void TestRecordOpen::desktopEntryTakesFiles()
{
    QFile f(QStringLiteral(DIRBENCH_SOURCE_DIR "/packaging/io.github.dirbench.DirBench.desktop"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString entry = QString::fromUtf8(f.readAll());
    QVERIFY2(entry.contains(QStringLiteral("\nExec=dirbench %F\n")), qPrintable(entry));
    QVERIFY2(entry.contains(QStringLiteral("application/x-dirbench-record;"))
            && entry.contains(QStringLiteral("application/x-dirbench-workload;")),
        qPrintable(entry));
}

void TestRecordOpen::windowOpensOrSaysWhy_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("why"); // empty: it opens
    RunRecord unknown = replicationRecord();
    unknown.kind = QStringLiteral("no-such-kind");
    QTest::newRow("record") << "replication.json" << replicationRecord().toJsonBytes() << QString();
    QTest::newRow("broken") << "broken.json" << QByteArray("{\"schema\": \"dirbench.run/1\", \"kind\"")
                            << "not a JSON object";
    QTest::newRow("not a record") << "other.json" << QByteArray("{\"a\": 1}") << "schema";
    QTest::newRow("unknown kind") << "unknown.json" << unknown.toJsonBytes()
                                  << "no page shows a saved \"no-such-kind\"";
}

void TestRecordOpen::windowOpensOrSaysWhy()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, why);
    ProbeRunner runner;
    MainWindow window(&runner);
    QSignalSpy opened(&window, &MainWindow::recordOpened);
    window.openFile(write(name, bytes));
    QVERIFY(opened.wait(10000));
    const bool ok = opened.at(0).at(0).toBool();
    const QString message = opened.at(0).at(1).toString();
    QCOMPARE(ok, why.isEmpty());
    QVERIFY2(message.contains(name), qPrintable(message));
    if (!ok) {
        QVERIFY2(message.contains(why), qPrintable(message));
        QVERIFY2(!message.contains(u'\n'), qPrintable(message)); // one sentence
        return;
    }
    QCOMPARE(window.findChild<QTabWidget*>(QStringLiteral("pageTabs"))->currentWidget(), window.replicationPage());
}

void TestRecordOpen::workloadGoesToTheReplayPage()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    const QString path = write(QStringLiteral("saved.dbwl"), "{}\n");
    QSignalSpy opened(&window, &MainWindow::recordOpened);
    window.openFile(path);
    QCOMPARE(opened.size(), 1);
    QVERIFY(opened.at(0).at(0).toBool());
    QCOMPARE(window.findChild<QTabWidget*>(QStringLiteral("pageTabs"))->currentWidget(), window.replayPage());
    const auto* edit = qobject_cast<QLineEdit*>(window.replayPage()->form()->field(QStringLiteral("workload")));
    QVERIFY(edit);
    QCOMPARE(edit->text(), path);
    QCOMPARE(edit->property("cliOption").toString(), QStringLiteral("workload"));
}

// The real program: the sentence for a broken file on stderr, then the window closes on SIGTERM the normal way.
void TestRecordOpen::commandLineOpensAFile()
{
    const QString gui = QFileInfo(QStringLiteral(DIRBENCH_CLI_PATH)).dir().filePath(QStringLiteral("dirbench"));
    QVERIFY2(QFileInfo(gui).isExecutable(), qPrintable(gui));
    const QString broken = write(QStringLiteral("cut-short.json"), "{\"schema\": \"dirbench.run/1\"");
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("HOME"), m_dir.path()); // its settings: not the user's, and not a first start's demo
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("DIRBENCH_HISTORY"), m_dir.filePath(QStringLiteral("history.sqlite")));
    p.setProcessEnvironment(env);
    p.start(gui, { broken });
    QVERIFY(p.waitForStarted(10000));
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError()).contains("cut-short.json"), 30000);
    QVERIFY2(err.contains("dirbench: Cannot open") && err.contains("not a JSON object"), err.constData());
    p.terminate();
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    err += p.readAllStandardError();
    QVERIFY2(!err.contains("demo directory"), err.constData()); // a file given: no demo directory started
}

void TestRecordOpen::everyRecordKindOpensInItsPage_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("page");
    const QHash<QString, QString> pageOf { { QStringLiteral("disk"), QStringLiteral("diskPage") },
        { QStringLiteral("disk-under-load"), QStringLiteral("diskPage") },
        { QStringLiteral("ldap-probe"), QStringLiteral("ldapPage") },
        { QStringLiteral("ldap-search"), QStringLiteral("ldapPage") },
        { QStringLiteral("ldap-mixed"), QStringLiteral("ldapPage") },
        { QStringLiteral("ldap-agents"), QStringLiteral("ldapPage") },
        { QStringLiteral("replication"), QStringLiteral("replicationPage") },
        { QStringLiteral("replay"), QStringLiteral("replayPage") },
        { QStringLiteral("curve"), QStringLiteral("curvePage") },
        { QStringLiteral("thread-sweep"), QStringLiteral("experimentsPage") },
        { QStringLiteral("sizing"), QStringLiteral("sizingPage") },
        { QStringLiteral("cloud-compare"), QStringLiteral("advisorPage") },
        { QStringLiteral("workload-analysis"), QStringLiteral("workloadPage") } };
    const QDir dir(QStringLiteral(DIRBENCH_SOURCE_DIR "/tests/data/records"));
    const QStringList files = dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), pageOf.size()); // a new kind's record needs its page here
    for (const QString& f : files) {
        const QString kind = f.section(u'.', 0, 0);
        QVERIFY2(pageOf.contains(kind), qPrintable(f));
        QTest::newRow(qPrintable(kind)) << dir.filePath(f) << pageOf.value(kind);
    }
}

void TestRecordOpen::everyRecordKindOpensInItsPage()
{
    QFETCH(QString, path);
    QFETCH(QString, page);
    ProbeRunner runner;
    MainWindow window(&runner);
    QSignalSpy opened(&window, &MainWindow::recordOpened);
    window.openFile(path);
    QVERIFY(opened.wait(20000));
    QVERIFY2(opened.at(0).at(0).toBool(), qPrintable(opened.at(0).at(1).toString()));
    const QWidget* current = window.findChild<QTabWidget*>(QStringLiteral("pageTabs"))->currentWidget();
    QCOMPARE(current->objectName(), page);
    if (page == u"advisorPage") // the seed's table: its failed case (the P30 disk under 80 % of its ceiling) first
        QCOMPARE(window.advisorPage()->comparisonView()->verdict(), ComparisonView::Verdict::Failed);
}

QTEST_MAIN(TestRecordOpen)
#include "tst_recordopen.moc"
