#include "core/store/runstore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

// dirbench-cli history and --baseline, for real: real CLI processes, real disk runs, a real SQLite file.
class TstCliHistory : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void baselineOnDiskRuns();
    void listShowExportImportCompare();
    void olderLoadRecordsShowDerivedOkPerSecond();
    void badInputIsRefusedByName();
    void cliAndTestWriteAtOnce();
    void killedRunIsListedInterrupted();

private:
    struct Result
    {
        int code = -1;
        QByteArray out;
        QByteArray err;
    };
    Result cli(const QStringList& args, int timeoutMs = 60000);
    QStringList diskRun(const QString& profile = QStringLiteral("rand-read")) const;

    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_db;
};

void TstCliHistory::init()
{
    m_tmp = std::make_unique<QTemporaryDir>();
    QVERIFY(m_tmp->isValid());
    m_db = m_tmp->filePath(QStringLiteral("history.sqlite"));
}

TstCliHistory::Result TstCliHistory::cli(const QStringList& args, int timeoutMs)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DIRBENCH_HISTORY"), m_db);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

QStringList TstCliHistory::diskRun(const QString& profile) const
{
    return { QStringLiteral("disk"), QStringLiteral("--dir"), m_tmp->path(), QStringLiteral("--profile"), profile,
        QStringLiteral("--size"), QStringLiteral("8M"), QStringLiteral("--duration"), QStringLiteral("0.5"),
        QStringLiteral("--qd"), QStringLiteral("4"), QStringLiteral("--interval"), QStringLiteral("0.1"),
        QStringLiteral("--quiet") };
}

void TstCliHistory::baselineOnDiskRuns()
{
    Result base = cli(diskRun() << QStringLiteral("--name") << QStringLiteral("nightly-base"));
    QVERIFY2(base.code == 0, base.err.constData());
    QVERIFY2(base.out.contains("saved in the history as run 1 'nightly-base'"), base.out.constData());

    // A limit no run can miss (it would have to be 1000 % slower): passes, and prints the comparison.
    Result pass = cli(diskRun() << QStringLiteral("--baseline") << QStringLiteral("nightly-base")
                                << QStringLiteral("--fail-if-slower") << QStringLiteral("1000"));
    QVERIFY2(pass.code == 0, QByteArray(pass.out + pass.err).constData());
    QVERIFY2(pass.out.contains("compared with the baseline, run 1 'nightly-base'"), pass.out.constData());
    QVERIFY2(pass.out.contains("IOPS") && pass.out.contains("PASS"), pass.out.constData());

    // Missing baseline, wrong profile, a limit without a baseline: exit 2 before any work, naming the option.
    Result missing = cli(diskRun() << QStringLiteral("--baseline") << QStringLiteral("no-such-run"));
    QCOMPARE(missing.code, 2);
    QVERIFY2(missing.err.contains("--baseline") && missing.err.contains("no-such-run"), missing.err.constData());
    QVERIFY(!missing.out.contains("saved in the history"));
    Result other
        = cli(diskRun(QStringLiteral("seq-write")) << QStringLiteral("--baseline") << QStringLiteral("nightly-base"));
    QCOMPARE(other.code, 2);
    QVERIFY2(other.err.contains("--baseline") && other.err.contains("profile"), other.err.constData());
    Result noBase = cli(diskRun() << QStringLiteral("--fail-if-slower") << QStringLiteral("5"));
    QCOMPARE(noBase.code, 2);
    QVERIFY(noBase.err.contains("--fail-if-slower"));
    Result badPct = cli(diskRun() << QStringLiteral("--baseline") << QStringLiteral("nightly-base")
                                  << QStringLiteral("--fail-if-slower") << QStringLiteral("fast"));
    QCOMPARE(badPct.code, 2);
    QVERIFY(badPct.err.contains("--fail-if-slower"));

    RunStore s;
    QVERIFY(s.open(m_db));
    QCOMPARE(s.list().size(), 2); // the refused runs left nothing behind
}

void TstCliHistory::listShowExportImportCompare()
{
    QVERIFY(cli(diskRun() << QStringLiteral("--name") << QStringLiteral("a")).code == 0);
    QVERIFY(cli(diskRun() << QStringLiteral("--name") << QStringLiteral("b")).code == 0);

    Result list
        = cli({ QStringLiteral("history"), QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("-") });
    QCOMPARE(list.code, 0);
    const QJsonArray runs = QJsonDocument::fromJson(list.out).array();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs.at(0).toObject().value("name").toString(), QStringLiteral("b")); // newest first
    QVERIFY(runs.at(0).toObject().value("headline").toString().endsWith("IOPS"));

    QVERIFY(cli({ "history", "tag", "a", "ssd", "before" }).code == 0);
    Result tagged = cli({ "history", "list", "--tag", "ssd" });
    QVERIFY2(tagged.out.contains(" a ") && !tagged.out.contains(" b "), tagged.out.constData());
    QVERIFY(cli({ "history", "rename", "2", "after" }).code == 0);
    Result text = cli({ "history", "list", "--text", "after", "--json", "-" });
    QCOMPARE(QJsonDocument::fromJson(text.out).array().size(), 1);

    Result show = cli({ "history", "show", "after" });
    QCOMPARE(show.code, 0);
    QVERIFY2(show.out.contains("run 2 'after'") && show.out.contains("(headline)"), show.out.constData());

    const QString exported = m_tmp->filePath("a.json");
    Result exp = cli({ "history", "export", "a", "--json", exported });
    QVERIFY2(exp.code == 0, exp.err.constData());
    QVERIFY(QFileInfo(exported).permissions().testFlag(QFileDevice::ReadOwner));
    QVERIFY(!QFileInfo(exported).permissions().testFlag(QFileDevice::ReadGroup));
    QVERIFY(!QFileInfo(exported).permissions().testFlag(QFileDevice::ReadOther));

    Result imp = cli({ "history", "import", exported });
    QVERIFY2(imp.code == 0, imp.err.constData());
    QVERIFY(imp.out.contains("as run 3"));

    Result cmp = cli({ "history", "compare", "a", "after", "--json", "-" });
    QCOMPARE(cmp.code, 0);
    const QJsonObject c = QJsonDocument::fromJson(cmp.out).object();
    const QJsonObject head = c.value("metrics").toArray().first().toObject();
    QCOMPARE(head.value("metric").toString(), QStringLiteral("iops"));
    const double a = head.value("a").toDouble(), b = head.value("b").toDouble();
    QVERIFY(a > 0 && b > 0);
    QVERIFY(qAbs(head.value("delta_pct").toDouble() - (b - a) / a * 100.0) < 1e-6);
    // better or worse only beyond the runs' own spread (their intervals), else within noise
    QVERIFY(head.value("noise_pct").toDouble() > 0);
    const double gain = (b - a) / a * 100.0;
    QCOMPARE(head.value("verdict").toString(),
        std::abs(gain) < 0.05                                      ? QStringLiteral("same")
            : std::abs(gain) <= head.value("noise_pct").toDouble() ? QStringLiteral("within noise")
            : b > a                                                ? QStringLiteral("better")
                                                                   : QStringLiteral("worse"));
    // The imported copy is the same run: identical numbers.
    Result same = cli({ "history", "compare", "1", "3" });
    QVERIFY2(same.out.contains("+0.0 %") && same.out.contains(" %  same"), same.out.constData()); // noise, verdict

    QVERIFY(cli({ "history", "delete", "3" }).code == 0);
    Result after = cli({ "history", "list", "--json", "-" });
    QCOMPARE(QJsonDocument::fromJson(after.out).array().size(), 2);
}

// LDAP loads recorded before successes were counted apart (no `ok`, no `ok_per_s`), imported: list, show and compare
// give their ok/s derived as ops − errors and say so; a run whose every operation failed has 0 ok/s.
void TstCliHistory::olderLoadRecordsShowDerivedOkPerSecond()
{
    const QString older = m_tmp->filePath("older.json");
    {
        QFile f(older);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schema":"dirbench.run/1","kind":"ldap-search","status":"ok","started":"2025-06-01T00:00:00.000",
                   "summary":{"ops":20000,"errors":500,"ops_per_s":2000,"seconds":10,"client_cpu_s":0.25,
                              "latency_ms":{"mean":0.5,"p50":0.4,"p99":2.5}},
                   "intervals":[{"t":1,"ops":2000,"errors":50,"ops_per_s":2000}]})");
    }
    const QString failed = m_tmp->filePath("failed.json");
    {
        QFile f(failed);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"({"schema":"dirbench.run/1","kind":"ldap-search","status":"failed","started":"2025-06-02T00:00:00.000",
                   "failure":"no operation succeeded",
                   "summary":{"ops":30000,"errors":30000,"ops_per_s":3000,"seconds":10,"result_codes":{"32":30000}}})");
    }
    const QString fresh = m_tmp->filePath("fresh.json");
    {
        QFile f(fresh);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schema":"dirbench.run/1","kind":"ldap-search","status":"ok","started":"2026-06-01T00:00:00.000",
                   "summary":{"ops":20000,"ok":19500,"errors":500,"ops_per_s":2000,"ok_per_s":1950,"seconds":10,
                              "load_cpu_s":0.1,"client_cpu_s":0.2,"missed":7,
                              "latency_ms":{"mean":0.5,"p50":0.4,"p99":2.5}}})");
    }
    Result imp = cli({ "history", "import", older, failed, fresh });
    QVERIFY2(imp.code == 0, imp.err.constData());

    Result list = cli({ "history", "list", "--json", "-" });
    const QJsonArray runs = QJsonDocument::fromJson(list.out).array();
    QCOMPARE(runs.size(), 3);
    QHash<QString, QString> headline;
    for (const auto& v : runs)
        headline.insert(v.toObject().value("status").toString() + v.toObject().value("started").toString().left(4),
            v.toObject().value("headline").toString());
    QCOMPARE(headline.value("ok2025"), QStringLiteral("1,950.0 ok/s (derived: ops − errors)"));
    QCOMPARE(headline.value("failed2025"), QStringLiteral("0.0 ok/s (derived: ops − errors)"));
    QCOMPARE(headline.value("ok2026"), QStringLiteral("1,950.0 ok/s"));
    Result text = cli({ "history", "list" });
    QVERIFY2(text.out.contains("ok/s (derived: ops − errors)"), text.out.constData());

    Result show = cli({ "history", "show", "1" });
    QCOMPARE(show.code, 0);
    QVERIFY2(show.out.contains("1,950.0 ok/s (derived: ops − errors)   (headline)"), show.out.constData());
    QVERIFY2(show.out.contains("ops/s (completed)") && show.out.contains("2,000.0 ops/s"), show.out.constData());
    QVERIFY2(show.out.contains("whole client 12.5 µs"), show.out.constData());
    QVERIFY2(!show.out.contains("missed arrivals"), show.out.constData());
    Result showFresh = cli({ "history", "show", "3" });
    QVERIFY2(!showFresh.out.contains("derived"), showFresh.out.constData());
    QVERIFY2(showFresh.out.contains("load threads 5.0 µs, whole client 10.0 µs"), showFresh.out.constData());
    QVERIFY2(showFresh.out.contains("missed arrivals") && showFresh.out.contains(" 7 "), showFresh.out.constData());

    Result cmp = cli({ "history", "compare", "1", "3" });
    QCOMPARE(cmp.code, 0);
    QVERIFY2(cmp.out.contains("1,950.0 ok/s *") && cmp.out.contains("+0.0 %        -  same"), cmp.out.constData());
    QVERIFY2(cmp.out.contains("* (derived: ops − errors)"), cmp.out.constData());
    Result cmpJson = cli({ "history", "compare", "1", "2", "--json", "-" });
    const QJsonObject head
        = QJsonDocument::fromJson(cmpJson.out).object().value("metrics").toArray().first().toObject();
    QCOMPARE(head.value("metric").toString(), QStringLiteral("ok_per_s"));
    QVERIFY(head.value("a_derived").toBool() && head.value("b_derived").toBool());
    QCOMPARE(head.value("b").toDouble(), 0.0); // every operation failed
    QCOMPARE(head.value("verdict").toString(), QStringLiteral("worse"));
}

void TstCliHistory::badInputIsRefusedByName()
{
    const QString good = m_tmp->filePath("good.json");
    {
        QFile f(good);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schema":"dirbench.run/1","kind":"ldap-search","status":"ok","started":"2026-01-01T00:00:00.000",
                   "summary":{"ops_per_s":100},"intervals":[{"t":1,"ops_per_s":100}]})");
    }
    const QString bad = m_tmp->filePath("bad.json");
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schema":"dirbench.run/1","kind":"ldap-search","started":"2026-01-01T00:00:00.000","summary":[]})");
    }
    Result r = cli({ "history", "import", good, bad });
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(bad.toUtf8()) && r.err.contains("summary"), r.err.constData());
    Result list = cli({ "history", "list", "--json", "-" });
    QCOMPARE(QJsonDocument::fromJson(list.out).array().size(), 0); // all or nothing
    QCOMPARE(cli({ "history", "frobnicate" }).code, 2);
    Result opt = cli({ "history", "delete", "1", "--kind", "disk" });
    QCOMPARE(opt.code, 2);
    QVERIFY(opt.err.contains("--kind"));
    Result none = cli({ "history", "show", "nobody" });
    QCOMPARE(none.code, 2);
    QVERIFY(none.err.contains("nobody"));
    QCOMPARE(cli({ "history", "export", "1" }).code, 2); // --json is required
    QCOMPARE(cli({ "history", "list", "--limit", "0" }).code, 2);
}

// The CLI (a real process importing records one transaction each) and this process (appending intervals and saving
// runs) write to the same database at the same time: no "database is locked", nothing lost.
void TstCliHistory::cliAndTestWriteAtOnce()
{
    constexpr int kFiles = 150;
    QStringList files;
    for (int i = 0; i < kFiles; ++i) {
        const QString path = m_tmp->filePath(QStringLiteral("r%1.json").arg(i));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(R"({"schema":"dirbench.run/1","kind":"ldap-search","started":"2026-01-01T00:00:%1.000",
            "summary":{"ops_per_s":%2}})")
                    .arg(i % 60, 2, 10, QLatin1Char('0'))
                    .arg(100 + i)
                    .toUtf8());
        files << path;
    }
    RunStore mine;
    QVERIFY(mine.open(m_db));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DIRBENCH_HISTORY"), m_db);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), QStringList { "history", "import" } + files);
    QVERIFY(p.waitForStarted());
    int written = 0, failures = 0;
    QString firstError;
    const qint64 run = mine.beginRun(QStringLiteral("disk"), {});
    QVERIFY(run > 0);
    // waitForFinished(0) lets QProcess notice the exit without an event loop.
    auto cliRunning = [&p] { return p.state() != QProcess::NotRunning && !p.waitForFinished(0); };
    int whileCliRan = 0;
    while (cliRunning() || written < 200) {
        if (p.state() != QProcess::NotRunning)
            ++whileCliRan;
        ProbeError e;
        Sample smp;
        smp.t = written;
        smp.values.insert(QStringLiteral("iops"), 1.0 * written);
        RunRecord r;
        r.kind = QStringLiteral("disk");
        r.started = QDateTime::currentDateTime();
        const bool ok = (written % 2 ? mine.appendSamples(run, { smp }, &e) : mine.save(r, {}, &e) > 0);
        if (!ok && ++failures == 1)
            firstError = e.message();
        ++written;
        if (written > 20000)
            break;
    }
    QVERIFY(p.state() == QProcess::NotRunning || p.waitForFinished(120000));
    QVERIFY2(whileCliRan > 10, "the two writers did not overlap");
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitCode() == 0, err.constData());
    QVERIFY2(!err.contains("locked"), err.constData());
    QVERIFY2(failures == 0, qPrintable(firstError));
    RunStore::Filter f;
    f.kind = QStringLiteral("ldap-search");
    f.limit = 100000;
    QCOMPARE(mine.list(f).size(), kFiles);
    f.kind = QStringLiteral("disk");
    QCOMPARE(mine.list(f).size(), 1 + (written + 1) / 2);
    QCOMPARE(mine.load(run)->intervals.size(), written / 2);
    qInfo("this process wrote %d transactions (%d while the CLI imported %d records)", written, whileCliRan, kFiles);
}

// A real dirbench-cli disk run, killed (SIGKILL) while it runs: `history list` shows it "running" while its process
// lives (this test's own opens of the history leave it so), then "interrupted" once the process is gone; the list
// says how many runs it leaves out.
void TstCliHistory::killedRunIsListedInterrupted()
{
    Result done = cli(diskRun() << QStringLiteral("--name") << QStringLiteral("finished"));
    QVERIFY2(done.code == 0, done.err.constData());
    QProcess run;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DIRBENCH_HISTORY"), m_db);
    run.setProcessEnvironment(env);
    QStringList args = diskRun();
    args[args.indexOf(QStringLiteral("--duration")) + 1] = QStringLiteral("120");
    run.start(QStringLiteral(DIRBENCH_CLI_PATH), args << QStringLiteral("--name") << QStringLiteral("killed"));
    QVERIFY(run.waitForStarted());
    auto statusOf = [this](const QString& name) {
        RunStore s;
        const auto id = s.open(m_db) ? s.findByName(name) : std::nullopt;
        return id ? s.summary(*id)->status : QString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(QStringLiteral("killed")), QStringLiteral("running"), 30000);
    Result listed = cli({ QStringLiteral("history"), QStringLiteral("list") });
    QVERIFY2(listed.code == 0, listed.err.constData());
    QVERIFY2(listed.out.contains("running"), listed.out.constData());
    QCOMPARE(statusOf(QStringLiteral("killed")), QStringLiteral("running")); // its process lives
    ::kill(pid_t(run.processId()), SIGKILL);
    QVERIFY(run.waitForFinished(10000));
    listed = cli({ QStringLiteral("history"), QStringLiteral("list") });
    QVERIFY2(listed.code == 0, listed.err.constData());
    QVERIFY2(listed.out.contains("interrupted"), listed.out.constData());
    QVERIFY2(!listed.out.contains("running"), listed.out.constData());
    QCOMPARE(statusOf(QStringLiteral("killed")), QStringLiteral("interrupted"));
    QCOMPARE(statusOf(QStringLiteral("finished")), QStringLiteral("ok"));
    listed = cli({ QStringLiteral("history"), QStringLiteral("list"), QStringLiteral("--limit"), QStringLiteral("1") });
    QVERIFY2(listed.out.contains("showing 1 of 2 runs (1-1, newest first); --offset 1 shows the next"),
        listed.out.constData());
    QVERIFY2(listed.out.contains("interrupted") && !listed.out.contains("finished"), listed.out.constData());
    listed = cli({ QStringLiteral("history"), QStringLiteral("list"), QStringLiteral("--limit"), QStringLiteral("1"),
        QStringLiteral("--offset"), QStringLiteral("1") });
    QVERIFY2(listed.out.contains("showing 1 of 2 runs (2-2, newest first)\n"), listed.out.constData());
    QVERIFY2(listed.out.contains("finished") && !listed.out.contains("interrupted"), listed.out.constData());
    listed
        = cli({ QStringLiteral("history"), QStringLiteral("list"), QStringLiteral("--offset"), QStringLiteral("-1") });
    QCOMPARE(listed.code, 2);
    QVERIFY2(listed.err.contains("--offset"), listed.err.constData());
}

QTEST_GUILESS_MAIN(TstCliHistory)
#include "tst_cli_history.moc"
