// The GUI process killed during a run: a window (tests/integration/guikill_child.cpp: MainWindow as the dirbench
// program builds it) starts its demo directory and a search load, which the history database receives as it goes;
// SIGKILL mid-run leaves the database intact with the last intervals in it (a crash loses at most about a second),
// and the demo slapd the dead window could not stop is stopped by the next start of the real `dirbench` — a plain
// start, without a demo directory of its own. Every process runs with HOME, TMPDIR and the history in a scratch
// directory.
#include "core/sandbox/slapdsandbox.h"
#include "core/sandbox/slapdtools.h"
#include "core/store/runstore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace {

QString childPath()
{
#ifdef GUIKILL_CHILD_PATH
    return QStringLiteral(GUIKILL_CHILD_PATH);
#else
    return {}; // no GUI built
#endif
}

QString guiPath()
{
    return QFileInfo(QStringLiteral(DIRBENCH_CLI_PATH)).absolutePath() + QStringLiteral("/dirbench");
}

// The newest run of the history and how many intervals it holds so far; {0, 0} when there is none yet.
std::pair<qint64, int> newestRun(const QString& path, QString* kind, QString* status)
{
    RunStore store;
    if (!store.open(path))
        return { 0, 0 };
    const auto runs = store.list();
    for (const auto& r : runs) {
        if (!r.kind.startsWith(u"ldap-search"))
            continue;
        const auto rec = store.load(r.id);
        if (kind)
            *kind = r.kind;
        if (status)
            *status = r.status;
        return { r.id, rec ? int(rec->intervals.size()) : 0 };
    }
    return { 0, 0 };
}

QStringList demoDirs(const QString& tmp)
{
    return QDir(tmp).entryList({ QStringLiteral("dirbench-sandbox-*") }, QDir::Dirs | QDir::NoDotAndDotDot);
}

} // namespace

class TstGuiKill : public QObject
{
    Q_OBJECT
private slots:
    void killedMidRunKeepsTheHistory();
};

void TstGuiKill::killedMidRunKeepsTheHistory()
{
    if (!QFileInfo(guiPath()).isExecutable() || childPath().isEmpty())
        QSKIP("the GUI is not built (DIRBENCH_BUILD_GUI=OFF)");
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed: the GUI's demo directory needs it");
    QTemporaryDir scratch;
    QVERIFY(scratch.isValid());
    const QString tmp = scratch.filePath(QStringLiteral("tmp"));
    const QString home = scratch.filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(tmp) && QDir().mkpath(home));
    const QString history = scratch.filePath(QStringLiteral("history.sqlite"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("TMPDIR"), tmp);
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), tmp);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/.local/share"));
    env.insert(QStringLiteral("DIRBENCH_HISTORY"), history);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));

    QProcess gui;
    gui.setProcessEnvironment(env);
    gui.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    gui.start(childPath(), {});
    QVERIFY2(gui.waitForStarted(10000), qPrintable(gui.errorString()));
    QElapsedTimer t;
    t.start();
    while (!gui.canReadLine() && gui.state() == QProcess::Running && t.elapsed() < 90000)
        gui.waitForReadyRead(1000);
    const QByteArray line = gui.readLine().trimmed();
    QCOMPARE(line, QByteArray("load started: running"));

    // Wait for the search load to have a few intervals in the history.
    t.restart();
    std::pair<qint64, int> run { 0, 0 };
    while (t.elapsed() < 60000 && run.second < 4) {
        QTest::qWait(250);
        run = newestRun(history, nullptr, nullptr);
        QVERIFY2(gui.state() == QProcess::Running, "the GUI exited early");
    }
    QVERIFY2(
        run.second >= 4, qPrintable(QStringLiteral("%1 intervals after %2 s").arg(run.second).arg(t.elapsed() / 1000)));
    const int before = run.second;
    QTest::qWait(2500); // more intervals, then the kill
    const qint64 guiPid = gui.processId();
    ::kill(pid_t(guiPid), SIGKILL);
    QVERIFY(gui.waitForFinished(10000));
    QCOMPARE(gui.exitStatus(), QProcess::CrashExit);

    // The database: intact, the run there with the intervals of the last seconds.
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
        db.setDatabaseName(history);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("PRAGMA integrity_check")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("check"));
    QString kind, status;
    const auto after = newestRun(history, &kind, &status);
    QCOMPARE(after.first, run.first);
    // 2.5 s at one interval a second: at least one more interval than before, whatever the flush timing.
    QVERIFY2(after.second > before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after.second)));
    QVERIFY2(status != u"ok", qPrintable(status)); // it never finished
    qInfo("killed after %d intervals were seen; the history holds %d (%s, status %s)", before, after.second,
        qPrintable(kind), qPrintable(status));

    // The dead GUI's demo slapd is still running: nobody could stop it...
    const QStringList orphans = demoDirs(tmp);
    QCOMPARE(orphans.size(), 1);
    const auto info = SlapdSandbox::load(tmp + u'/' + orphans.first());
    QVERIFY(info);
    QVERIFY(SlapdTools::processAlive(info->pid));
    QCOMPARE(info->ownerPid, guiPid);
    // ...until the next GUI starts, though not its first start and without a demo directory of its own.
    QProcess next;
    next.setProcessEnvironment(env);
    next.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    next.start(guiPath(), {});
    QVERIFY(next.waitForStarted(10000));
    t.restart();
    while (t.elapsed() < 30000 && (SlapdTools::processAlive(info->pid) || QFileInfo::exists(info->dir)))
        QTest::qWait(200);
    const bool orphanStopped = !SlapdTools::processAlive(info->pid) && !QFileInfo::exists(info->dir);
    // The second GUI closes on SIGTERM; it started no demo directory, and none is left.
    ::kill(pid_t(next.processId()), SIGTERM);
    QVERIFY(next.waitForFinished(40000));
    if (!orphanStopped)
        SlapdSandbox::stop(*info, nullptr);
    QVERIFY2(orphanStopped, "the orphaned demo slapd was not stopped by the next GUI");
    QCOMPARE(next.exitStatus(), QProcess::NormalExit);
    QTRY_VERIFY_WITH_TIMEOUT(demoDirs(tmp).isEmpty(), 20000);
}

QTEST_GUILESS_MAIN(TstGuiKill)
#include "tst_guikill.moc"
