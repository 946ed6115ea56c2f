// dirbench-cli cloud: bad arguments exit 2 naming the argument before any work; --json - puts only the record on
// stdout; eval names what binds; the seed example flags the article's impossible figures; a real disk record
// (dirbench-cli disk on a temp directory) is compared with a catalog entry and saved in the history.
#include "core/catalog/cloudverdict.h"
#include "core/store/runstore.h"
#include "tests/common/clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

using CliRun::Result;
using CliRun::run;

QJsonObject json(const QByteArray& bytes)
{
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(bytes, &e);
    if (e.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", bytes.left(300).constData());
    return d.object();
}

QStringList cloud(QStringList rest)
{
    rest.prepend("cloud");
    return rest;
}

} // namespace

class TstCloudCli : public QObject
{
    Q_OBJECT
private slots:
    void badArguments_data();
    void badArguments();
    void badCatalogNamesField();
    void evalJsonOnStdout();
    void needJson();
    void seedExample();
    void realDiskRecord();

private:
    QTemporaryDir m_dir;
};

void TstCloudCli::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("names");
    QTest::newRow("no action") << cloud({}) << "dirbench-cli: action: required";
    QTest::newRow("bad action") << cloud({ "buy" }) << "dirbench-cli: action: 'buy'";
    QTest::newRow("no disk") << cloud({ "eval", "--size-gb", "10" }) << "dirbench-cli: --disk: required";
    QTest::newRow("unknown disk") << cloud({ "eval", "--disk", "floppy", "--size-gb", "10" })
                                  << "dirbench-cli: --disk: 'floppy' is not in the catalog";
    QTest::newRow("size range") << cloud({ "eval", "--disk", "io1", "--size-gb", "2" })
                                << "dirbench-cli: --size-gb: '2' is not a number between 4 and 16384";
    QTest::newRow("size text") << cloud({ "eval", "--disk", "gp3", "--size-gb", "big" }) << "dirbench-cli: --size-gb:";
    QTest::newRow("unknown vm") << cloud({ "eval", "--disk", "gp3", "--size-gb", "10", "--vm", "m9.huge" })
                                << "dirbench-cli: --vm: 'm9.huge'";
    QTest::newRow("provisioned") << cloud({ "eval", "--disk", "io1", "--size-gb", "100", "--provisioned-iops", "6000" })
                                 << "dirbench-cli: --provisioned-iops: 6000 IOPS is outside 100..5000";
    QTest::newRow("qd alone") << cloud({ "eval", "--disk", "gp3", "--size-gb", "10", "--queue-depth", "4" })
                              << "dirbench-cli: --block-kib:";
    QTest::newRow("access") << cloud({ "eval", "--disk", "gp3", "--size-gb", "10", "--access", "both" })
                            << "dirbench-cli: --access: must be read or write";
    QTest::newRow("need nothing") << cloud({ "need" }) << "dirbench-cli: --mbps: give at least one";
    QTest::newRow("need negative") << cloud({ "need", "--iops", "-5" }) << "dirbench-cli: --iops: must be > 0";
    QTest::newRow("need provider") << cloud({ "need", "--mbps", "100", "--provider", "oracle" })
                                   << "dirbench-cli: --provider: 'oracle'";
    QTest::newRow("list provider") << cloud({ "list", "--provider", "ibm" }) << "dirbench-cli: --provider:";
    QTest::newRow("compare neither") << cloud({ "compare", "--disk", "gp3", "--size-gb", "10" })
                                     << "dirbench-cli: --run: give either";
    QTest::newRow("compare missing run") << cloud({ "compare", "--run", "/nonexistent/run.json", "--disk", "gp3",
        "--size-gb", "10" }) << "dirbench-cli: --run: /nonexistent/run.json";
}

void TstCloudCli::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, names);
    args << "--json"
         << "-";
    const Result r = run(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).startsWith(names), r.err.constData());
    QVERIFY(r.out.isEmpty()); // refused before any work
}

void TstCloudCli::badCatalogNamesField()
{
    QFile f(DIRBENCH_SOURCE_DIR "/resources/catalog/cloud-disks.json");
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject root = json(f.readAll());
    QJsonArray disks = root.value("disk_types").toArray();
    QJsonObject third = disks.at(3).toObject();
    third["performance_model"] = "x";
    disks[3] = third;
    root["disk_types"] = disks;
    const QString path = m_dir.filePath("bad-catalog.json");
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(root).toJson());
    out.close();
    const Result r = run(cloud({ "list", "--catalog", path }));
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith("dirbench-cli: --catalog: disk_types[3].performance_model: unknown model 'x'"),
        r.err.constData());
    // the good file loads and says where it came from
    const Result ok = run(cloud({ "list", "--catalog", f.fileName(), "--provider", "azure" }));
    QCOMPARE(ok.code, 0);
    QVERIFY(ok.out.contains(f.fileName().toUtf8()));
    QVERIFY(ok.out.contains("azure-premium-ssd"));
    QVERIFY(!ok.out.contains("aws-ebs-gp2"));
}

void TstCloudCli::evalJsonOnStdout()
{
    // the seed's P30 with dd-like QD1 × 64 KiB on DS13_v2
    const Result r = run(cloud({ "eval", "--disk", "Premium_LRS", "--size-gb", "1000", "--vm", "Standard_DS13_v2",
        "--queue-depth", "1", "--block-kib", "64", "--json", "-" }));
    QCOMPARE(r.code, 0);
    const QJsonObject o = json(r.out); // nothing but the record on stdout
    QVERIFY(!o.isEmpty());
    QCOMPARE(o.value("kind").toString(), QString("cloud-eval"));
    const QJsonObject s = o.value("summary").toObject();
    QCOMPARE(s.value("tier").toString(), QString("P30"));
    QCOMPARE(s.value("disk").toObject().value("mb_per_s").toDouble(), 200.0);
    QCOMPARE(s.value("vm_cap").toObject().value("mb_per_s").toDouble(), 384.0);
    QCOMPARE(s.value("binding").toString(), QString("queue-depth"));
    // Little's law at the catalog's 2 ms for Premium SSD: 1 × 65,536 B / 2 ms
    QCOMPARE(s.value("effective").toObject().value("mb_per_s").toDouble(), 32.77);
    QVERIFY(!s.value("sources").toArray().isEmpty());
    QVERIFY(r.err.contains("P30")); // the human text went to stderr
    // human output names the burst and its duration
    const Result h = run(cloud({ "eval", "--disk", "gp2", "--size-gb", "100" }));
    QCOMPARE(h.code, 0);
    QVERIFY2(h.out.contains("burst: 3,000 IOPS") && h.out.contains("for 33.3 min"), h.out.constData());
}

void TstCloudCli::needJson()
{
    const QString file = m_dir.filePath("need.json");
    const Result r = run(cloud({ "need", "--mbps", "100", "--provider", "azure", "--json", file }));
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("Premium_LRS"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject s = json(f.readAll()).value("summary").toObject();
    bool sawP10 = false;
    const QJsonArray types = s.value("disk_types").toArray();
    for (const auto& v : types)
        sawP10 |= v.toObject().value("tier").toString() == "P10";
    QVERIFY(sawP10);
    QCOMPARE(s.value("vms").toArray().size(), 5);
}

void TstCloudCli::seedExample()
{
    const Result r = run(cloud({ "compare", "--seed-example", "--json", "-", "--no-history" }));
    QCOMPARE(r.code, 0);
    const QJsonObject o = json(r.out);
    QCOMPARE(o.value("kind").toString(), QString("cloud-compare"));
    const QJsonArray cases = o.value("summary").toObject().value("cases").toArray();
    QCOMPARE(cases.size(), 6);
    QStringList codes;
    const QJsonArray warnings = o.value("warnings").toArray();
    for (const auto& w : warnings)
        codes << w.toObject().value("code").toString();
    QVERIFY(codes.contains("above-published-max"));
    QVERIFY(codes.contains("far-below-listed"));
    QVERIFY(codes.contains("no-vm-figure"));
    QVERIFY(!r.err.contains("saved in the history"));
    // the verdicts: 80 % of the reachable ceiling, never "within the published maximum"; the bound stays a bound
    const QJsonArray verdicts = o.value("verdicts").toArray();
    QVERIFY(!verdicts.isEmpty());
    for (const auto& v : verdicts)
        QCOMPARE(v.toObject().value("requirement_id").toString(), QString("cloud-near-ceiling"));
    QVERIFY(verdicts.first().toObject().value("measured_is_upper_bound").toBool());
    // The history lists it by its judged cases, as the report's headline does (not by its status, "ok").
    const std::optional<RunRecord> rec = RunRecord::fromJson(o);
    QVERIFY(rec);
    QCOMPARE(RunStore::headlineOf(*rec), CloudCatalog::headline(*rec));
    QVERIFY2(RunStore::headlineOf(*rec).startsWith("6 cases compared: "), qPrintable(RunStore::headlineOf(*rec)));
    const Result text = run(cloud({ "compare", "--seed-example", "--no-history" }));
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.contains("FAIL  Azure P30 disk (1TB) delivers < 50 MB/s"), qPrintable(text.out));
    QVERIFY2(text.out.contains("6 cases compared"), qPrintable(text.out));
    const Result strict = run(cloud({ "compare", "--seed-example", "--no-history", "--fail-on-verdict" }));
    QCOMPARE(strict.code, 3);
}

void TstCloudCli::realDiskRecord()
{
    const QString runJson = m_dir.filePath("run.json");
    const Result d = run({ "disk", "--dir", m_dir.path(), "--profile", "seq-write", "--size", "32M", "--duration", "1",
        "--qd", "4", "--json", runJson, "--no-history", "--quiet" });
    QCOMPARE(d.code, 0);
    QFile f(runJson);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject disk = json(f.readAll());
    const double measured = disk.value("summary").toObject().value("mb_per_s").toDouble();
    QVERIFY(measured > 0);

    // P30 lists 200 MB/s sustained; no VM
    const Result r = run(
        cloud({ "compare", "--run", runJson, "--disk", "azure-premium-ssd", "--size-gb", "1024", "--json", "-" }));
    QCOMPARE(r.code, 0);
    const QJsonObject o = json(r.out);
    const QJsonObject s = o.value("summary").toObject();
    QCOMPARE(s.value("measured_mb_per_s").toDouble(), measured);
    QCOMPARE(s.value("listed_mb_per_s").toDouble(), 200.0);
    QCOMPARE(s.value("evaluation").toObject().value("queue_depth").toInt(), 4);
    QCOMPARE(s.value("evaluation").toObject().value("block_kib").toDouble(), 1024.0);
    QCOMPARE(s.value("evaluation").toObject().value("latency_basis").toString(), QString("measured"));
    QStringList codes;
    const QJsonArray flags = s.value("flags").toArray();
    for (const auto& v : flags)
        codes << v.toObject().value("code").toString();
    // This VM's disk is not a P30: whichever way it went, the flags must say so consistently. A P30 sustains
    // 200 MB/s and bursts on demand to 1000 MB/s (when enabled): above that is not the cloud disk, between the two
    // only while bursting (a loaded run here measured in between).
    qInfo("measured %.1f MB/s against the P30's 200 (1000 bursting)", measured);
    QCOMPARE(codes.contains("above-published-max"), measured > 1000 * 1.05);
    QCOMPARE(codes.contains("only-while-bursting"), measured > 200 * 1.05 && measured <= 1000 * 1.05);
    QCOMPARE(codes.contains("far-below-listed"), measured < 100);
    QVERIFY2(r.err.contains("saved in the history as run"), r.err.constData());

    // a record that is not a disk test is refused, naming --run
    const QString evalJson = m_dir.filePath("eval.json");
    QCOMPARE(run(cloud({ "eval", "--disk", "gp3", "--size-gb", "10", "--json", evalJson })).code, 0);
    const Result bad = run(cloud({ "compare", "--run", evalJson, "--disk", "gp3", "--size-gb", "10" }));
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.startsWith("dirbench-cli: --run: a 'cloud-eval' record, not a disk test"), bad.err.constData());
}

QTEST_GUILESS_MAIN(TstCloudCli)
#include "tst_cloud_cli.moc"
