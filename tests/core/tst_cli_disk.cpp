// dirbench-cli disk, run as a user or a script would: exit codes, messages that name the argument, JSON on stdout.
#include "core/common/reportformat.h"
#include "core/disk/diskspec.h"
#include "core/store/runstore.h"
#include "diskfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace DiskFixture;

class TstCliDisk : public QObject
{
    Q_OBJECT
private slots:
    void versionAndHelp();
    void badArguments_data();
    void badArguments();
    void helpAndRefusalsFollowTheProfileTable();
    void jsonOnStdoutIsPureJson();
    void humanOutputAndJsonFile();
    void dataAndCommitRegimeInTheRecord();
    void ddRunsTheSeedCommand();
    void sigintCancelsAndKeepsTheRecord();
    void runsAreSavedInTheHistory();

private:
    struct Result
    {
        int code = -1;
        QByteArray out, err;
    };
    static Result run(const QStringList& args, int timeoutMs = 120000);
    QTemporaryDir m_dir;
};

TstCliDisk::Result TstCliDisk::run(const QStringList& args, int timeoutMs)
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

void TstCliDisk::versionAndHelp()
{
    auto r = run({ QStringLiteral("--version") });
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.startsWith("dirbench-cli " DIRBENCH_VERSION));
    r = run({ QStringLiteral("--help") });
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("disk"));
    r = run({ QStringLiteral("disk"), QStringLiteral("--help") });
    QCOMPARE(r.code, 0);
    for (const char* opt : { "--dir", "--profile", "--size", "--block", "--qd", "--duration", "--repeat", "--data",
             "--json", "--engine", "--buffered", "directory", "commit", "rand-read", "--commit-append", "unique",
             "One pass = every block once", "commit_regime" })
        QVERIFY2(r.out.contains(opt), opt);
    r = run({});
    QCOMPARE(r.code, 2);
    r = run({ QStringLiteral("frobnicate") });
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("frobnicate"));
}

void TstCliDisk::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("named");
    const QString d = m_dir.path();
    auto disk = [&](QStringList extra) { return QStringList { QStringLiteral("disk") } + extra; };
    QTest::newRow("no dir") << disk({ "--profile", "seq-write" }) << "--dir";
    QTest::newRow("missing dir") << disk({ "--dir", d + "/nope" }) << "--dir";
    QTest::newRow("device") << disk({ "--dir", "/dev/null" }) << "--dir";
    QTest::newRow("bad profile") << disk({ "--dir", d, "--profile", "fast" }) << "--profile";
    QTest::newRow("bad size") << disk({ "--dir", d, "--size", "12X" }) << "--size";
    QTest::newRow("negative size") << disk({ "--dir", d, "--size", "-1" }) << "--size";
    QTest::newRow("bad block") << disk({ "--dir", d, "--block", "3000" }) << "--block";
    QTest::newRow("bad qd") << disk({ "--dir", d, "--qd", "zero" }) << "--qd";
    QTest::newRow("bad duration") << disk({ "--dir", d, "--duration", "soon" }) << "--duration";
    QTest::newRow("bad data") << disk({ "--dir", d, "--data", "ones" }) << "--data";
    QTest::newRow("append, not commit") << disk({ "--dir", d, "--profile", "rand-write", "--commit-append" })
                                        << "--commit-append";
    QTest::newRow("dd takes no append") << disk({ "--dir", d, "--profile", "dd", "--commit-append" })
                                        << "--commit-append";
    QTest::newRow("bad engine") << disk({ "--dir", d, "--engine", "aio" }) << "--engine";
    QTest::newRow("unknown option") << disk({ "--dir", d, "--turbo" }) << "turbo";
    QTest::newRow("dd takes no size") << disk({ "--dir", d, "--profile", "dd", "--size", "1G" }) << "--size";
    QTest::newRow("dd takes no qd") << disk({ "--dir", d, "--profile", "dd", "--qd", "4" }) << "--qd";
    QTest::newRow("dd takes no block") << disk({ "--dir", d, "--profile", "dd", "--block", "1M" }) << "--block";
    QTest::newRow("dd takes no duration") << disk({ "--dir", d, "--profile", "dd", "--duration", "5" }) << "--duration";
    QTest::newRow("too big for free space") << disk({ "--dir", d, "--size", "4000T" }) << "--size";
}

void TstCliDisk::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, named);
    const Result r = run(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(named.toUtf8()), r.err.constData());
    QVERIFY(r.out.isEmpty() || !r.out.contains("t=")); // nothing ran
    QVERIFY(leftovers(m_dir.path()).isEmpty());
}

// The help's profile lines are the table's, and every option the table says a profile has no use for is refused.
void TstCliDisk::helpAndRefusalsFollowTheProfileTable()
{
    const Result help = run({ QStringLiteral("disk"), QStringLiteral("--help") });
    QCOMPARE(help.code, 0);
    QVERIFY(QString::fromUtf8(help.out).contains(DiskSpec::profileHelp()));
    QVERIFY(DiskSpec::profileHelp().contains(
        QStringLiteral("qd ") + QString::number(DiskSpec::profileInfo(DiskProfile::RandRead).qd)));
    const QHash<QString, QStringList> values = { { QStringLiteral("size"), { QStringLiteral("1G") } },
        { QStringLiteral("block"), { QStringLiteral("1M") } }, { QStringLiteral("qd"), { QStringLiteral("4") } },
        { QStringLiteral("duration"), { QStringLiteral("5") } },
        { QStringLiteral("engine"), { QStringLiteral("threads") } },
        { QStringLiteral("interval"), { QStringLiteral("1") } } };
    int refused = 0;
    for (const QString& name : DiskSpec::profileNames())
        for (const QString& opt : DiskSpec::profileRefuses(*DiskSpec::profileFromName(name))) {
            const Result r = run(QStringList { QStringLiteral("disk"), QStringLiteral("--dir"), m_dir.path(),
                                     QStringLiteral("--profile"), name, QStringLiteral("--") + opt }
                + values.value(opt));
            QVERIFY2(r.code == 2, qPrintable(name + u' ' + opt));
            QVERIFY2(r.err.contains(("--" + opt).toUtf8()), r.err.constData());
            ++refused;
        }
    QVERIFY(refused >= 10);
    QVERIFY(leftovers(m_dir.path()).isEmpty());
}

void TstCliDisk::jsonOnStdoutIsPureJson()
{
    const Result r = run({ QStringLiteral("disk"), QStringLiteral("--dir"), m_dir.path(), QStringLiteral("--profile"),
        QStringLiteral("rand-read"), QStringLiteral("--size"), QStringLiteral("8M"), QStringLiteral("--duration"),
        QStringLiteral("0.5"), QStringLiteral("--json"), QStringLiteral("-") });
    QCOMPARE(r.code, 0);
    QJsonParseError pe;
    const QJsonObject o = QJsonDocument::fromJson(r.out, &pe).object();
    QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
    QCOMPARE(o.value(QStringLiteral("schema")).toString(), QStringLiteral("dirbench.run/1"));
    QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("disk"));
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    QVERIFY(o.value(QStringLiteral("failure")).isNull());
    for (const char* k : { "mb_per_s", "iops", "latency_us.p50", "latency_us.p99", "latency_us.p999", "latency_us.max",
             "bytes", "seconds" })
        QVERIFY2(num(o.value(QStringLiteral("summary")).toObject(), QLatin1String(k)) > 0, k);
    QCOMPARE(o.value(QStringLiteral("engine")).toObject().value(QStringLiteral("io")).toString(),
        QStringLiteral("io_uring"));
    QVERIFY(o.value(QStringLiteral("warnings")).isArray());
    QVERIFY(!o.value(QStringLiteral("intervals")).toArray().isEmpty());
    QVERIFY(r.err.contains("t=")); // the human lines went to stderr
}

void TstCliDisk::dataAndCommitRegimeInTheRecord()
{
    auto record = [&](const QStringList& extra) {
        const Result r = run(QStringList { "disk", "--dir", m_dir.path(), "--json", "-", "--quiet" } + extra);
        if (r.code != 0)
            qWarning("exit %d: %s", r.code, r.err.constData());
        return QJsonDocument::fromJson(r.out).object();
    };
    // The old name "random" is unique; the append regime ends when the file reaches --size.
    QJsonObject o = record(
        { "--profile", "commit", "--data", "random", "--commit-append", "--size", "256K", "--duration", "30" });
    QCOMPARE(o.value("spec").toObject().value("data").toString(), QString("unique"));
    QCOMPARE(o.value("spec").toObject().value("commit_regime").toString(), QString("append"));
    QCOMPARE(num(o.value("summary").toObject(), "ops"), 64.0);
    o = record({ "--profile", "commit", "--size", "256K", "--duration", "0.2" });
    QCOMPARE(o.value("spec").toObject().value("commit_regime").toString(), QString("overwrite"));
    QCOMPARE(o.value("spec").toObject().value("data").toString(), QString("unique")); // the default
    o = record({ "--profile", "seq-write", "--size", "4M", "--data", "zeros" });
    QCOMPARE(o.value("spec").toObject().value("data").toString(), QString("zeros"));
    QVERIFY(!o.value("spec").toObject().contains("commit_regime"));
}

void TstCliDisk::humanOutputAndJsonFile()
{
    QTemporaryDir out;
    const QString json = out.path() + QStringLiteral("/run.json");
    const Result r = run({ QStringLiteral("disk"), QStringLiteral("--dir"), m_dir.path(), QStringLiteral("--profile"),
        QStringLiteral("seq-write"), QStringLiteral("--size"), QStringLiteral("32M"), QStringLiteral("--duration"),
        QStringLiteral("0.6"), QStringLiteral("--engine"), QStringLiteral("threads"), QStringLiteral("--json"), json });
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("t="));
    QVERIFY(r.out.contains("MB/s"));
    QVERIFY(r.out.contains("p99.9 us"));
    QVERIFY(r.out.contains("engine: threads, direct I/O"));
    QFile f(json);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(
        o.value(QStringLiteral("engine")).toObject().value(QStringLiteral("io")).toString(), QStringLiteral("threads"));
    const double mbPerS = num(o.value(QStringLiteral("summary")).toObject(), QStringLiteral("mb_per_s"));
    QVERIFY(mbPerS > 0);
    // The headline as the report words it (DiskSummary::headlineText), from the same figure.
    const QByteArray headline = "headline: " + ReportFormat::number(mbPerS).toUtf8() + " MB/s\n";
    QVERIFY2(r.out.contains(headline), r.out.constData());
    // Each interval line names the witness device's bytes when the record has one (not on tmpfs).
    QString witness;
    for (const QJsonValue& d :
        o.value(QStringLiteral("intervals")).toArray().first().toObject().value(QStringLiteral("devices")).toArray())
        if (d.toObject().value(QStringLiteral("witness")).toBool())
            witness = d.toObject().value(QStringLiteral("name")).toString();
    if (witness.isEmpty())
        qInfo("no witness device under %s (tmpfs?): the interval lines' device column is not checked",
            qPrintable(m_dir.path()));
    else
        QVERIFY2(r.out.contains(QByteArray(QByteArray("  device ") + witness.toUtf8() + ' ')), r.out.constData());
}

void TstCliDisk::ddRunsTheSeedCommand()
{
    const Result r = run({ QStringLiteral("disk"), QStringLiteral("--dir"), m_dir.path(), QStringLiteral("--profile"),
        QStringLiteral("dd"), QStringLiteral("--json"), QStringLiteral("-") });
    QCOMPARE(r.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(num(o.value(QStringLiteral("summary")).toObject(), QStringLiteral("bytes")), 536870912.0);
    QCOMPARE(o.value(QStringLiteral("engine")).toObject().value(QStringLiteral("direct")).toBool(), false);
    QVERIFY(!o.value(QStringLiteral("verdicts")).toArray().isEmpty());
}

void TstCliDisk::sigintCancelsAndKeepsTheRecord()
{
    QTemporaryDir out;
    const QString json = out.path() + QStringLiteral("/run.json");
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH),
        { QStringLiteral("disk"), QStringLiteral("--dir"), m_dir.path(), QStringLiteral("--profile"),
            QStringLiteral("rand-read"), QStringLiteral("--size"), QStringLiteral("16M"), QStringLiteral("--duration"),
            QStringLiteral("60"), QStringLiteral("--json"), json });
    QVERIFY(p.waitForStarted(5000));
    QByteArray text;
    while (!text.contains("t=") && p.state() == QProcess::Running) {
        p.waitForReadyRead(10000);
        text += p.readAllStandardOutput();
    }
    QVERIFY(text.contains("t="));
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(5000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 1);
    QFile f(json);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));
    QVERIFY(!o.value(QStringLiteral("intervals")).toArray().isEmpty());
    QVERIFY(leftovers(m_dir.path()).isEmpty());
}

void TstCliDisk::runsAreSavedInTheHistory()
{
    QTemporaryDir hist;
    const QString path = hist.path() + QStringLiteral("/h.sqlite");
    auto runWithHistory = [&](const QStringList& extra) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DIRBENCH_HISTORY"), path);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(DIRBENCH_CLI_PATH),
            QStringList { QStringLiteral("disk"), QStringLiteral("--dir"), m_dir.path(), QStringLiteral("--size"),
                QStringLiteral("4M") }
                + extra);
        p.waitForFinished(60000);
        return p.readAllStandardOutput();
    };
    const QByteArray out = runWithHistory({});
    QVERIFY2(out.contains("saved in the history as run 1"), out.constData());
    runWithHistory({ QStringLiteral("--no-history") });
    RunStore store;
    QVERIFY(store.open(path));
    const auto runs = store.list();
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs.first().kind, QStringLiteral("disk"));
    QCOMPARE(runs.first().status, QStringLiteral("ok"));
    const auto rec = store.load(runs.first().id);
    QVERIFY(rec && !rec->intervals.isEmpty());
}

QTEST_GUILESS_MAIN(TstCliDisk)
#include "tst_cli_disk.moc"
