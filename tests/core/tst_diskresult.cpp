// The typed disk figures (core/disk/diskresult.h) read and write exactly the record's JSON: a real engine run's
// record goes through fromJson/toJson unchanged, records of older shapes load, null device fields stay null.
#include "core/common/runrecord.h"
#include "core/disk/diskengine.h"
#include "core/disk/diskresult.h"
#include "core/run/runcontext.h"
#include "diskfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace DiskFixture;

class TstDiskResult : public QObject
{
    Q_OBJECT
private slots:
    void realRunRoundTrips_data();
    void realRunRoundTrips();
    void olderRecordLoads();
    void nullDeviceFieldsStayNull();
    void suiteParts();
    void unknownKeysAreKept();
};

namespace {

QByteArray compact(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The record with its summary and intervals read into the typed values and written again.
QByteArray typedAgain(const RunRecord& rec)
{
    RunRecord again = rec;
    again.summary = DiskSummary::fromJson(rec.summary).toJson();
    QJsonArray intervals;
    for (const DiskInterval& i : DiskInterval::listFromJson(rec.intervals))
        intervals.append(i.toJson());
    again.intervals = intervals;
    return again.toJsonBytes();
}

QJsonObject parse(const char* json)
{
    QJsonParseError err;
    const QJsonObject o = QJsonDocument::fromJson(QByteArray(json), &err).object();
    if (err.error != QJsonParseError::NoError)
        qFatal("bad literal: %s", qPrintable(err.errorString()));
    return o;
}

} // namespace

void TstDiskResult::realRunRoundTrips_data()
{
    QTest::addColumn<int>("profile");
    QTest::addColumn<double>("duration");
    QTest::addColumn<int>("repeat");
    QTest::addRow("seq-write, one pass") << int(DiskProfile::SeqWrite) << -1.0 << 1;
    QTest::addRow("rand-read, 1 s, 2 repeats") << int(DiskProfile::RandRead) << 1.0 << 2;
    QTest::addRow("commit, 1 s") << int(DiskProfile::Commit) << 1.0 << 1;
    QTest::addRow("directory suite") << int(DiskProfile::Directory) << 0.5 << 1;
}

void TstDiskResult::realRunRoundTrips()
{
    QFETCH(int, profile);
    QFETCH(double, duration);
    QFETCH(int, repeat);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    RunContext ctx;
    DiskSpec s = spec(DiskProfile(profile), dir.path(), 16 * MiB, duration);
    s.repeat = repeat;
    const RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QVERIFY(!rec.intervals.isEmpty());
    const QByteArray bytes = rec.toJsonBytes();
    const auto loaded = RunRecord::fromJsonBytes(bytes);
    QVERIFY(loaded);
    QCOMPARE(typedAgain(*loaded), bytes);
    // The typed values hold what the record says.
    const DiskSummary sum = DiskSummary::fromJson(rec.summary);
    if (DiskProfile(profile) == DiskProfile::Directory) {
        QVERIFY(sum.isSuite() && !sum.hasRates());
        QCOMPARE(int(sum.tests.size()), 5);
        QVERIFY(sum.part("dd") && sum.part("dd")->hasDeviceBytesBeforeSync);
        QVERIFY(sum.part("seq-write") && sum.part("seq-write")->steadyState);
        QCOMPARE(sum.part("commit")->commitsPerS, sum.part("commit")->iops);
        QCOMPARE(*sum.part("rand-read qd8")->metric("latency_us.p99"),
            rec.summary["tests"]["rand-read qd8"]["latency_us"]["p99"].toDouble());
        return;
    }
    QCOMPARE(*sum.mbPerS, rec.summary.value("mb_per_s").toDouble());
    QCOMPARE(sum.test, rec.summary.value("test").toString());
    QVERIFY(sum.latencyUs.p50.has_value());
    QCOMPARE(int(sum.repeats.size()), repeat > 1 ? repeat : 0);
    QCOMPARE(sum.steadyState.has_value(), duration > 0);
    if (repeat > 1) {
        QVERIFY(sum.spreadIops && sum.steadyState->of == repeat);
    } else {
        QVERIFY(sum.devices && sum.setupS);
    }
    if (DiskProfile(profile) == DiskProfile::Commit)
        QCOMPARE(sum.commitsPerS, sum.iops);
    // Each interval's typed ops are the record's; some interval did work (the first may be empty on a busy host:
    // a one-pass write whose first write outlasts the interval).
    double ops = 0;
    for (const auto& v : std::as_const(rec.intervals)) {
        const DiskInterval i = DiskInterval::fromJson(v.toObject());
        QCOMPARE(i.ops, v.toObject().value("ops").toDouble());
        ops += i.ops;
    }
    QVERIFY(ops > 0);
}

// Before the witness (no devices, no setup_s, no steady state) and with devices before layers and witnesses.
void TstDiskResult::olderRecordLoads()
{
    const QJsonObject old = parse(R"({"schema": "dirbench.run/1", "kind": "disk", "status": "ok", "failure": null,
        "started": "2026-10-02T10:00:00.000+00:00", "spec": {"profile": "seq-write", "data": "random"},
        "environment": {}, "server": null, "engine": {"io": "io_uring", "direct": true}, "warnings": [],
        "intervals": [
          {"t": 0.25, "mb_per_s": 410.2, "iops": 410.2, "bytes": 102555648, "ops": 97.8,
           "latency_us": {"mean": 2430.5, "p50": 2400.1, "p99": 3100, "max": 4200}},
          {"t": 0.5, "mb_per_s": 400, "iops": 400, "bytes": 100000000, "ops": 95,
           "latency_us": {"mean": 2500, "p50": 2450, "p99": 3200, "max": 5000},
           "devices": [{"name": "vda", "read_ios": 0, "write_ios": 95, "read_bytes": 0, "write_bytes": 99614720,
                        "read_merges": 0, "write_merges": 0, "io_ms": 240, "busy_ms": 250}]}],
        "summary": {"test": "seq-write", "mb_per_s": 405.1, "iops": 405.1, "bytes": 202555648, "ops": 193,
          "seconds": 0.5, "latency_us": {"mean": 2460, "p50": 2420, "p95": 3000, "p99": 3150, "p999": 4100,
          "min": 900, "max": 5000}, "latency_histogram_ns": {"1200": 3, "1300": 190}},
        "verdicts": []})");
    const auto rec = RunRecord::fromJson(old);
    QVERIFY(rec);
    QCOMPARE(typedAgain(*rec), rec->toJsonBytes());
    const DiskSummary sum = DiskSummary::fromJson(rec->summary);
    QCOMPARE(sum.test, QString("seq-write"));
    QCOMPARE(*sum.mbPerS, 405.1);
    QCOMPARE(*sum.latencyUs.p999, 4100.0);
    QVERIFY(!sum.devices && !sum.setupS && !sum.steadyState && !sum.hasDeviceBytesBeforeSync);
    QVERIFY(sum.complete);
    const QList<DiskInterval> iv = DiskInterval::listFromJson(rec->intervals);
    QCOMPARE(iv.size(), 2);
    QVERIFY(!iv[0].devices);
    QVERIFY(!iv[0].latencyUs.p95); // intervals never had it
    QCOMPARE(*iv[1].seconds, 0.25);
    QCOMPARE(iv[1].devices->size(), 1);
    QVERIFY(iv[1].devices->first().isWitness()); // before witnesses: every device counts
    QVERIFY(!iv[1].devices->first().toJson().contains("witness"));
    QCOMPARE(*DiskDeviceSum::witnesses(*iv[1].devices, &DiskDeviceFigures::writeBytes), 99614720.0);
}

void TstDiskResult::nullDeviceFieldsStayNull()
{
    const QJsonObject interval = parse(R"({"t": 1, "series": "dd", "mb_per_s": 1, "iops": 1, "bytes": 1e6,
        "ops": 1, "latency_us": {"mean": null, "p50": null, "p99": null, "max": null},
        "devices": [{"name": "loop3", "read_ios": null, "write_ios": null, "read_bytes": null, "write_bytes": null,
          "read_merges": null, "write_merges": null, "io_ms": null, "busy_ms": null, "layer": "filesystem",
          "witness": true},
         {"name": "nvme0n1", "read_ios": 1, "write_ios": 2, "read_bytes": 4096, "write_bytes": 8192,
          "read_merges": 0, "write_merges": 0, "io_ms": 1, "busy_ms": 1, "layer": "disk", "witness": false}]})");
    const DiskInterval i = DiskInterval::fromJson(interval);
    QCOMPARE(i.series, QString("dd"));
    QVERIFY(!i.latencyUs.p50);
    QVERIFY(!i.devices->at(0).writeBytes);
    QVERIFY(!DiskDeviceSum::witnesses(*i.devices, &DiskDeviceFigures::writeBytes)); // the witness cannot say
    QCOMPARE(compact(i.toJson()), compact(interval));
    const QJsonObject dev = i.toJson().value("devices").toArray().at(0).toObject();
    for (const char* k : { "read_ios", "write_ios", "read_bytes", "write_bytes", "io_ms", "busy_ms" })
        QVERIFY2(dev.value(QLatin1String(k)).isNull(), k);
    // An unreadable delta added to a readable one stays null.
    const DiskDevices sum = DiskDeviceSum::add(*i.devices, *i.devices);
    QVERIFY(!sum.at(0).writeBytes);
    QCOMPARE(*sum.at(1).writeBytes, 16384.0);
    // dd's device_bytes_before_sync: null stays null, and is not dropped.
    const QJsonObject dd = parse(R"({"test": "dd", "mb_per_s": 300, "iops": 4800, "bytes": 1073741824,
        "ops": 16384, "seconds": 3.5, "latency_us": {"mean": 1, "p50": 1, "p99": 2, "max": 3},
        "device_bytes_before_sync": null, "setup_s": 0.01, "devices": []})");
    const DiskSummary s = DiskSummary::fromJson(dd);
    QVERIFY(s.hasDeviceBytesBeforeSync && !s.deviceBytesBeforeSync);
    QVERIFY(s.devices && s.devices->isEmpty());
    QCOMPARE(compact(s.toJson()), compact(dd));
}

void TstDiskResult::suiteParts()
{
    const QJsonObject suite = parse(R"({"tests": {
        "commit": {"mb_per_s": 4.1, "iops": 1000, "commits_per_s": 1000, "bytes": 4096000, "ops": 1000,
          "seconds": 1, "latency_us": {"mean": 990, "p50": 980, "p95": 1200, "p99": 1400, "p999": 2000,
          "min": 700, "max": 2500}},
        "seq-write": {"mb_per_s": 512.5, "iops": 512.5, "bytes": 1, "ops": 1, "seconds": 1,
          "latency_us": {"mean": 1, "p50": 1, "p99": 1, "max": 1}, "complete": false,
          "steady_state": {"evaluated": true, "rounds": 12, "reached": true, "at_s": 8, "window_s": 5,
            "cache_answered": false, "mb_per_s": 501.2}}}})");
    const DiskSummary s = DiskSummary::fromJson(suite);
    QVERIFY(s.isSuite() && !s.hasRates());
    QCOMPARE(int(s.tests.size()), 2);
    QVERIFY(s.part("commit") && !s.part("dd"));
    QCOMPARE(*s.part("commit")->metric("latency_us.p99"), 1400.0);
    QCOMPARE(*s.part("commit")->metric("commits_per_s"), 1000.0);
    QVERIFY(!s.part("commit")->metric("latency_us.p42"));
    const DiskSummary* sw = s.part("seq-write");
    QVERIFY(!sw->complete);
    QVERIFY(sw->steadyState->reached);
    QCOMPARE(*sw->steadyState->value, 501.2);
    QCOMPARE(compact(s.toJson()), compact(suite));
    // A suite cancelled before any part finished keeps its empty `tests`.
    const QJsonObject empty = parse(R"({"tests": {}})");
    QVERIFY(DiskSummary::fromJson(empty).isSuite());
    QCOMPARE(compact(DiskSummary::fromJson(empty).toJson()), compact(empty));
}

void TstDiskResult::unknownKeysAreKept()
{
    const QJsonObject o = parse(R"({"test": "seq-write", "mb_per_s": 1, "iops": 1, "bytes": 1, "ops": 1,
        "seconds": 1, "latency_us": {"mean": 1, "p50": 1, "p99": 1, "max": 1}, "from_the_future": {"x": [1, 2]}})");
    QCOMPARE(compact(DiskSummary::fromJson(o).toJson()), compact(o));
    const QJsonObject i = parse(R"({"t": 1, "mb_per_s": 1, "iops": 1, "bytes": 1, "ops": 1,
        "latency_us": {"mean": 1, "p50": 1, "p99": 1, "max": 1}, "queue": 7})");
    QCOMPARE(compact(DiskInterval::fromJson(i).toJson()), compact(i));
}

QTEST_GUILESS_MAIN(TstDiskResult)
#include "tst_diskresult.moc"
