// Engines on the server's own machine, over ssh (issue 26): `dirbench-cli disk --host HOST` against a host
// namespace of the multi-host topology (netnstopology.h; its own sshd, reached as a1). The test streams its
// intervals while it runs, its record names the host and carries the environment measured there (the address
// ssh reached it on); a cancelled test leaves no agent and no file on the host; ssh that cannot reach the host, a
// program missing there and a directory the host refuses each give their own sentence.
#include "netnstopology.h"
#include "tests/common/clirun.h"
#include "tests/common/processalive.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace {

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

// Reads the CLI's stdout until an interval line ("... MB/s") arrived while it still runs.
bool intervalWhileRunning(QProcess& cli, QByteArray* out)
{
    if (!cli.waitForStarted())
        return false;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && cli.state() == QProcess::Running) {
        cli.waitForReadyRead(200);
        *out += cli.readAllStandardOutput();
        if (out->contains("MB/s") && cli.state() == QProcess::Running)
            return true;
    }
    return false;
}

} // namespace

class TstRemoteHost : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void diskOnHostStreamsAndNamesIt();
    void cancelledOnHostLeavesNothing();
    void failuresSayWhich_data();
    void failuresSayWhich();
    void logAnalysedOnHostEqualsLocal();

private:
    QStringList hostArgs(const QString& host, const QString& dir) const;
    QTemporaryDir m_tmp;
    std::unique_ptr<Topology> m_topo;
    QString m_dir; // the directory tested on the host (the namespaces share this file system)
};

void TstRemoteHost::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    QString why;
    bool skip = false;
    m_topo = Topology::upIn(m_tmp.filePath(QStringLiteral("netns")), &why, &skip);
    if (skip)
        QSKIP(qPrintable(why));
    QVERIFY2(m_topo, qPrintable(why));
    m_dir = m_tmp.filePath(QStringLiteral("disk"));
    QVERIFY(QDir().mkpath(m_dir));
}

void TstRemoteHost::cleanupTestCase()
{
    m_topo.reset();
}

QStringList TstRemoteHost::hostArgs(const QString& host, const QString& dir) const
{
    return { QStringLiteral("disk"), QStringLiteral("--host"), host, QStringLiteral("--ssh-option"),
        QStringLiteral("-F") + m_topo->sshConfig(), QStringLiteral("--agent-command"),
        QStringLiteral(DIRBENCH_CLI_PATH), QStringLiteral("--dir"), dir, QStringLiteral("--no-history") };
}

void TstRemoteHost::diskOnHostStreamsAndNamesIt()
{
    const QString json = m_tmp.filePath(QStringLiteral("host.json"));
    QProcess cli;
    cli.start(QStringLiteral(DIRBENCH_CLI_PATH),
        hostArgs(QStringLiteral("a1"), m_dir)
            + QStringList { QStringLiteral("--profile"), QStringLiteral("seq-write"), QStringLiteral("--size"),
                QStringLiteral("16M"), QStringLiteral("--duration"), QStringLiteral("3"), QStringLiteral("--interval"),
                QStringLiteral("0.25"), QStringLiteral("--json"), json });
    QByteArray out;
    QVERIFY2(intervalWhileRunning(cli, &out), cli.readAllStandardError().constData());
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    const QJsonObject rec = readJson(json);
    QCOMPARE(rec.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    QCOMPARE(
        rec.value(QStringLiteral("spec")).toObject().value(QStringLiteral("host")).toString(), QStringLiteral("a1"));
    QCOMPARE(rec.value(QStringLiteral("spec")).toObject().value(QStringLiteral("dir")).toString(), m_dir);
    // The environment was measured on the host: the agent there was reached over ssh at a1's address.
    const QJsonObject env = rec.value(QStringLiteral("environment")).toObject();
    QCOMPARE(
        env.value(QStringLiteral("reached_over_ssh")).toObject().value(QStringLiteral("server_address")).toString(),
        QStringLiteral("10.231.7.11"));
    QCOMPARE(env.value(QStringLiteral("filesystem")).toObject().value(QStringLiteral("path")).toString(), m_dir);
    const QJsonObject remote = rec.value(QStringLiteral("remote")).toObject();
    QCOMPARE(remote.value(QStringLiteral("via")).toString(), QStringLiteral("ssh"));
    QVERIFY(remote.value(QStringLiteral("agent_pid")).toDouble() > 0);
    // What streamed is what the record keeps: as many interval lines as intervals, and bytes were written.
    const QJsonArray intervals = rec.value(QStringLiteral("intervals")).toArray();
    QVERIFY2(intervals.size() >= 4, qPrintable(QString::number(intervals.size())));
    out += cli.readAllStandardOutput();
    QCOMPARE(out.count(" t= "), intervals.size());
    QVERIFY(rec.value(QStringLiteral("summary")).toObject().value(QStringLiteral("bytes")).toDouble()
        >= 16.0 * 1024 * 1024);
    QVERIFY(QDir(m_dir).isEmpty());
}

void TstRemoteHost::cancelledOnHostLeavesNothing()
{
    const QString json = m_tmp.filePath(QStringLiteral("cancel.json"));
    QProcess cli;
    cli.start(QStringLiteral(DIRBENCH_CLI_PATH),
        hostArgs(QStringLiteral("a2"), m_dir)
            + QStringList { QStringLiteral("--profile"), QStringLiteral("rand-write"), QStringLiteral("--size"),
                QStringLiteral("32M"), QStringLiteral("--duration"), QStringLiteral("120"), QStringLiteral("--json"),
                json });
    QByteArray out;
    QVERIFY2(intervalWhileRunning(cli, &out), cli.readAllStandardError().constData());
    ::kill(pid_t(cli.processId()), SIGINT);
    QVERIFY(cli.waitForFinished(30000));
    const QJsonObject rec = readJson(json);
    QCOMPARE(rec.value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));
    QVERIFY(!rec.value(QStringLiteral("intervals")).toArray().isEmpty()); // what was measured is kept
    const qint64 agent
        = qint64(rec.value(QStringLiteral("remote")).toObject().value(QStringLiteral("agent_pid")).toDouble());
    QVERIFY(agent > 0);
    QVERIFY(!processAlive(agent)); // it sent its record, then ended
    QVERIFY(QDir(m_dir).isEmpty());
}

void TstRemoteHost::failuresSayWhich_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("dir");
    QTest::addColumn<QString>("sentence");
    // dbt-srv has no sshd: the connection is refused.
    QTest::newRow("ssh cannot reach") << "root@10.231.7.1"
                                      << ""
                                      << ""
                                      << "cannot reach root@10.231.7.1 over ssh: ";
    QTest::newRow("program missing") << "a3"
                                     << "/nonexistent/dirbench-cli"
                                     << ""
                                     << "/nonexistent/dirbench-cli is not installed on a3";
    QTest::newRow("directory refused there") << "a3"
                                             << ""
                                             << "/nonexistent-dir"
                                             << "on a3: --dir: /nonexistent-dir does not exist";
}

void TstRemoteHost::failuresSayWhich()
{
    QFETCH(QString, host);
    QFETCH(QString, command);
    QFETCH(QString, dir);
    QFETCH(QString, sentence);
    QStringList args = hostArgs(host, dir.isEmpty() ? m_dir : dir);
    if (!command.isEmpty())
        args[args.indexOf(QStringLiteral(DIRBENCH_CLI_PATH))] = command;
    const QString json = m_tmp.filePath(QStringLiteral("fail.json"));
    QProcess cli;
    cli.start(QStringLiteral(DIRBENCH_CLI_PATH), args + QStringList { QStringLiteral("--json"), json });
    QVERIFY(cli.waitForFinished(60000));
    const QString all = QString::fromUtf8(cli.readAllStandardOutput() + cli.readAllStandardError());
    QCOMPARE(cli.exitCode(), 1);
    const QJsonObject rec = readJson(json);
    QCOMPARE(rec.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
    QVERIFY2(rec.value(QStringLiteral("failure")).toString().contains(sentence),
        qPrintable(rec.value(QStringLiteral("failure")).toString()));
    QVERIFY2(all.contains(sentence), qPrintable(all));
}

// `workload analyze HOST:/path`: the log is read and parsed on a1 (a wildcard matched there: the log and its
// rotation); the analysis equals the local one of the same files, and the saved workload came over whole.
void TstRemoteHost::logAnalysedOnHostEqualsLocal()
{
    const QString logDir = m_tmp.filePath(QStringLiteral("logs"));
    QVERIFY(QDir().mkpath(logDir));
    const QString source = QStringLiteral(DIRBENCH_SOURCE_DIR "/tests/data/logs/389-ds-1.4.4-access.log");
    QVERIFY(QFile::copy(source, logDir + QStringLiteral("/access")));
    QVERIFY(QFile::copy(source, logDir + QStringLiteral("/access.20261201-000000")));
    const QStringList ssh { QStringLiteral("--ssh-option"), QStringLiteral("-F") + m_topo->sshConfig(),
        QStringLiteral("--agent-command"), QStringLiteral(DIRBENCH_CLI_PATH) };
    const QString local = m_tmp.filePath(QStringLiteral("local-analysis.json"));
    const QString remote = m_tmp.filePath(QStringLiteral("host-analysis.json"));
    const QString saved = m_tmp.filePath(QStringLiteral("host.dbwl"));
    const CliRun::Result here = CliRun::run({ QStringLiteral("workload"), QStringLiteral("analyze"),
        QStringLiteral("--log"), logDir + QStringLiteral("/access"), logDir + QStringLiteral("/access.20261201-000000"),
        QStringLiteral("--json"), local });
    QVERIFY2(here.code == 0, here.err.constData());
    const CliRun::Result there
        = CliRun::run(QStringList { QStringLiteral("workload"), QStringLiteral("analyze"), QStringLiteral("--log"),
                          QStringLiteral("a1:") + logDir + QStringLiteral("/access*"), QStringLiteral("--json"), remote,
                          QStringLiteral("--save"), saved }
            + ssh);
    QVERIFY2(there.code == 0, there.err.constData());
    const QJsonObject a = readJson(local), b = readJson(remote);
    QVERIFY(a.value(QStringLiteral("operations_total")).toDouble() > 0);
    QCOMPARE(b, a);
    QVERIFY2(there.out.contains("saved 12 operations"), there.out.constData());
    QVERIFY(QFileInfo(saved).size() > 0);

    // A log the host does not have: named, from there.
    const CliRun::Result missing = CliRun::run(QStringList { QStringLiteral("workload"), QStringLiteral("analyze"),
                                                   QStringLiteral("--log"), QStringLiteral("a1:/nonexistent/access") }
        + ssh);
    QCOMPARE(missing.code, 1);
    QVERIFY2(missing.err.contains("on a1: --log: /nonexistent/access"), missing.err.constData());
}

QTEST_GUILESS_MAIN(TstRemoteHost)
#include "tst_remotehost.moc"
