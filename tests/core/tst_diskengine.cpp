#include "core/common/environment.h"
#include "core/disk/diskengine.h"
#include "core/disk/iometer.h"
#include "core/disk/requirements.h"
#include "core/run/runcontext.h"
#include "diskfixture.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

using namespace DiskFixture;

class TstDiskEngine : public QObject
{
    Q_OBJECT
private slots:
    void profiles_data();
    void profiles();
    void ddIsTheSeedCommand();
    void bufferedIsLabelled();
    void intervalsFollowTheClock();
    void intervalsSumToTheSummary_data();
    void intervalsSumToTheSummary();
    void meterMergesThreadsExactly();
    void anIoBelongsToTheIntervalItCompletedIn();
    void repeatsGiveMedianAndSpread();
    void suiteRunsEveryPartAndJudges();
    void sustainedVerdictExplainsCache();
    void validationNamesTheField_data();
    void validationNamesTheField();
    void tmpfsIsFlagged();
};

void TstDiskEngine::profiles_data()
{
    QTest::addColumn<int>("profile");
    QTest::addColumn<int>("engine");
    QTest::addColumn<double>("duration");
    QTest::addColumn<QString>("expectIo");
    for (int e : { int(IoEngineChoice::IoUring), int(IoEngineChoice::Threads) }) {
        const QString io = e == int(IoEngineChoice::IoUring) ? QStringLiteral("io_uring") : QStringLiteral("threads");
        QTest::addRow("seq-write %s", qPrintable(io)) << int(DiskProfile::SeqWrite) << e << 0.0 << io;
        QTest::addRow("seq-read %s", qPrintable(io)) << int(DiskProfile::SeqRead) << e << 0.0 << io;
        QTest::addRow("rand-read one pass %s", qPrintable(io)) << int(DiskProfile::RandRead) << e << 0.0 << io;
        QTest::addRow("rand-read timed %s", qPrintable(io)) << int(DiskProfile::RandRead) << e << 0.6 << io;
        QTest::addRow("rand-write timed %s", qPrintable(io)) << int(DiskProfile::RandWrite) << e << 0.6 << io;
        // QD1 (the suite's first test): every refill is submitted inside the completion loop.
        QTest::addRow("rand-read qd1 %s", qPrintable(io)) << int(DiskProfile::RandRead) << e << -0.6 << io;
    }
    QTest::addRow("commit") << int(DiskProfile::Commit) << int(IoEngineChoice::Auto) << 0.6
                            << QStringLiteral("threads");
}

void TstDiskEngine::profiles()
{
    QFETCH(int, profile);
    QFETCH(int, engine);
    QFETCH(double, duration);
    QFETCH(QString, expectIo);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const bool qd1 = duration < 0; // a negative duration in the table means "timed, at queue depth 1"
    duration = std::abs(duration);
    DiskSpec s = spec(DiskProfile(profile), dir.path(), 16 * MiB, duration);
    s.engine = IoEngineChoice(engine);
    if (DiskProfile(profile) == DiskProfile::RandRead || DiskProfile(profile) == DiskProfile::RandWrite)
        s.queueDepth = qd1 ? 1 : 8;
    RunContext ctx;
    const RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QCOMPARE(rec.kind, QStringLiteral("disk"));
    QCOMPARE(rec.engine.toObject().value(QStringLiteral("io")).toString(), expectIo);
    const QJsonObject& sum = rec.summary;
    QVERIFY(num(sum, QStringLiteral("mb_per_s")) > 0);
    QVERIFY(num(sum, QStringLiteral("iops")) > 0);
    QVERIFY(num(sum, QStringLiteral("seconds")) > 0);
    const double p50 = num(sum, QStringLiteral("latency_us.p50")), p99 = num(sum, QStringLiteral("latency_us.p99"));
    const double p999 = num(sum, QStringLiteral("latency_us.p999")), mx = num(sum, QStringLiteral("latency_us.max"));
    QVERIFY(p50 > 0 && p50 <= p99 && p99 <= p999 && p999 <= mx);
    // No latency can exceed the run itself (a negative time recorded as unsigned once gave 1.8e16 µs).
    QVERIFY2(mx <= num(sum, QStringLiteral("seconds")) * 1e6 + 1e6, qPrintable(QString::number(mx)));
    for (const auto& v : rec.intervals) {
        const double imax
            = v.toObject().value(QStringLiteral("latency_us")).toObject().value(QStringLiteral("max")).toDouble();
        QVERIFY2(imax <= num(sum, QStringLiteral("seconds")) * 1e6 + 1e6, qPrintable(QString::number(imax)));
    }
    const double block = s.resolved().blockBytes;
    QCOMPARE(num(sum, QStringLiteral("bytes")), num(sum, QStringLiteral("ops")) * block);
    if (duration == 0) // one pass: exactly the file, once
        QCOMPARE(num(sum, QStringLiteral("bytes")), double(16 * MiB));
    else
        QVERIFY2(num(sum, QStringLiteral("seconds")) >= duration * 0.95
                && num(sum, QStringLiteral("seconds")) < duration + 2,
            qPrintable(QString::number(num(sum, QStringLiteral("seconds")))));
    // MB/s is 10^6 bytes per second of the measured span.
    QVERIFY(qAbs(num(sum, QStringLiteral("mb_per_s"))
                - num(sum, QStringLiteral("bytes")) / 1e6 / num(sum, QStringLiteral("seconds")))
        < 0.1 + 0.001 * num(sum, QStringLiteral("mb_per_s")));
    QVERIFY(!rec.intervals.isEmpty());
    double intervalOps = 0, intervalBytes = 0;
    for (const auto& v : rec.intervals) {
        intervalOps += v.toObject().value(QStringLiteral("ops")).toDouble();
        intervalBytes += v.toObject().value(QStringLiteral("bytes")).toDouble();
    }
    QCOMPARE(intervalOps, num(sum, QStringLiteral("ops"))); // intervals add up to the total
    QCOMPARE(intervalBytes, num(sum, QStringLiteral("bytes")));
    QVERIFY2(leftovers(dir.path()).isEmpty(), qPrintable(leftovers(dir.path()).join(u',')));
    QCOMPARE(ctx.progress(), 1.0);
}

void TstDiskEngine::ddIsTheSeedCommand()
{
    QTemporaryDir dir;
    RunContext ctx;
    DiskSpec s;
    s.profile = DiskProfile::Dd;
    s.dir = dir.path();
    const RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QCOMPARE(num(rec.summary, QStringLiteral("bytes")), 536870912.0); // 8192 x 64 KiB, as dd bs=64k count=8k
    QCOMPARE(num(rec.summary, QStringLiteral("ops")), 8192.0);
    QCOMPARE(rec.engine.toObject().value(QStringLiteral("direct")).toBool(), false);
    QVERIFY(rec.hasWarning(QStringLiteral("buffered")));
    QVERIFY(rec.hasWarning(QStringLiteral("size-below-ram")));
    bool seedVerdict = false;
    for (const auto& v : rec.verdicts)
        if (v.requirement.contains(QStringLiteral("as the seed measured"))) {
            seedVerdict = true;
            QCOMPARE(v.threshold, 100.0);
            QCOMPARE(v.passed, v.measured >= 100.0);
            QCOMPARE(v.requirementId, QStringLiteral("seed-dd"));
            // A citation a reader can find, never a path of this repository.
            QVERIFY2(
                v.source.contains(QStringLiteral("knowledge-base article, NetIQ / Micro Focus")), qPrintable(v.source));
            QVERIFY(!v.source.contains(QStringLiteral("shared/")));
        }
    QVERIFY(seedVerdict);
    QVERIFY(leftovers(dir.path()).isEmpty());
}

void TstDiskEngine::bufferedIsLabelled()
{
    QTemporaryDir dir;
    RunContext ctx;
    DiskSpec s = spec(DiskProfile::SeqWrite, dir.path(), 8 * MiB);
    s.forceBuffered = true;
    const RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QCOMPARE(rec.engine.toObject().value(QStringLiteral("direct")).toBool(), false);
    QVERIFY(rec.hasWarning(QStringLiteral("buffered")));
    QCOMPARE(rec.spec.value(QStringLiteral("buffered")).toBool(), true);
}

void TstDiskEngine::intervalsFollowTheClock()
{
    QTemporaryDir dir;
    RunContext ctx;
    DiskSpec s = spec(DiskProfile::RandRead, dir.path(), 8 * MiB, 1.2);
    s.queueDepth = 4;
    s.intervalMs = 200;
    const RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QVERIFY2(rec.intervals.size() >= 5 && rec.intervals.size() <= 8, qPrintable(QString::number(rec.intervals.size())));
    double last = 0;
    for (const auto& v : rec.intervals) {
        const double t = v.toObject().value(QStringLiteral("t")).toDouble();
        QVERIFY(t > last); // strictly increasing: a short tail is folded into the interval before it
        last = t;
    }
    QCOMPARE(rec.intervals.first().toObject().value(QStringLiteral("t")).toDouble(), 0.2);
    QCOMPARE(ctx.samplesAdded(), qint64(rec.intervals.size())); // what the chart saw is what the record keeps
}

void TstDiskEngine::intervalsSumToTheSummary_data()
{
    QTest::addColumn<int>("engine");
    QTest::addColumn<int>("profile");
    QTest::addRow("io_uring rand-write") << int(IoEngineChoice::IoUring) << int(DiskProfile::RandWrite);
    QTest::addRow("threads rand-write") << int(IoEngineChoice::Threads) << int(DiskProfile::RandWrite);
    QTest::addRow("io_uring seq-read") << int(IoEngineChoice::IoUring) << int(DiskProfile::SeqRead);
    QTest::addRow("threads seq-read") << int(IoEngineChoice::Threads) << int(DiskProfile::SeqRead);
}

// Short intervals, many threads, a real file: every completion lands in exactly one interval, cut on the clock.
void TstDiskEngine::intervalsSumToTheSummary()
{
    QFETCH(int, engine);
    QFETCH(int, profile);
    QTemporaryDir dir;
    RunContext ctx;
    DiskSpec s = spec(DiskProfile(profile), dir.path(), 16 * MiB, 0.8);
    s.engine = IoEngineChoice(engine);
    s.queueDepth = 8;
    s.intervalMs = 50;
    const RunRecord rec = Disk::run(s, ctx);
    if (rec.status != u"ok" && rec.failure.contains(QStringLiteral("io_uring")))
        QSKIP(qPrintable(QStringLiteral("io_uring refused here: ") + rec.failure));
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QVERIFY2(rec.intervals.size() >= 8, qPrintable(QString::number(rec.intervals.size())));
    double ops = 0, bytes = 0;
    for (qsizetype i = 0; i < rec.intervals.size(); ++i) {
        const QJsonObject v = rec.intervals.at(i).toObject();
        ops += v.value(QStringLiteral("ops")).toDouble();
        bytes += v.value(QStringLiteral("bytes")).toDouble();
        if (i + 1 < rec.intervals.size()) { // every cut but the run's end falls on the interval clock
            const double ms = v.value(QStringLiteral("t")).toDouble() * 1000.0;
            QVERIFY2(std::fmod(std::round(ms), 50.0) == 0.0, qPrintable(QString::number(ms)));
        }
    }
    QVERIFY(ops > 0);
    QCOMPARE(ops, num(rec.summary, QStringLiteral("ops")));
    QCOMPARE(bytes, num(rec.summary, QStringLiteral("bytes")));
}

// Engine threads record while the coordinator ticks: nothing is lost or counted twice at the cuts.
void TstDiskEngine::meterMergesThreadsExactly()
{
    RunContext ctx;
    IoMeter meter(ctx, QStringLiteral("m"), 5);
    constexpr int threads = 4, perThread = 200000;
    std::vector<IoMeter::Recorder*> recorders;
    for (int i = 0; i < threads; ++i)
        recorders.push_back(&meter.newRecorder());
    meter.begin();
    std::atomic<int> running { threads };
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i)
        pool.emplace_back([&, i] {
            for (int k = 0; k < perThread; ++k)
                recorders[size_t(i)]->complete(IoMeter::nowNs(), uint64_t(i + 1));
            --running;
        });
    while (running.load() > 0)
        meter.tick();
    for (auto& t : pool)
        t.join();
    meter.end();
    double ops = 0, bytes = 0;
    for (const DiskInterval& v : meter.intervals()) {
        ops += v.ops;
        bytes += v.bytes;
    }
    QVERIFY2(meter.intervals().size() >= 2, qPrintable(QString::number(meter.intervals().size())));
    QCOMPARE(ops, double(threads) * perThread);
    QCOMPARE(bytes, double(perThread) * (1 + 2 + 3 + 4));
    QCOMPARE(num(meter.summary().toJson(), QStringLiteral("ops")), ops);
    QCOMPARE(num(meter.summary().toJson(), QStringLiteral("bytes")), bytes);
}

// Recorded before the cut but completed after it: the I/O goes to the later interval, not the one being cut.
// Each tick must come within 39 ms after its cut: a busy machine may miss that, and then the test tries again (a
// bounded number of times; missing every time is a failure, not a skip).
void TstDiskEngine::anIoBelongsToTheIntervalItCompletedIn()
{
    constexpr uint64_t ms = 1000000;
    auto waitFor = [](uint64_t t) { // the clock has nothing to signal: watch it pass
        while (IoMeter::nowNs() < t)
            std::this_thread::yield();
    };
    constexpr int attempts = 10;
    for (int attempt = 1; attempt <= attempts; ++attempt) {
        RunContext ctx;
        IoMeter meter(ctx, QStringLiteral("m"), 40);
        IoMeter::Recorder& r = meter.newRecorder();
        meter.begin();
        const IntervalClock& clock = meter.clock();
        r.recordAt(clock.begin(0) + 10 * ms, 1000, 4096);
        r.recordAt(clock.begin(1) + 10 * ms, 2000, 8192); // interval 1, recorded while interval 0 is open
        r.recordAt(clock.begin(1) + 20 * ms, 3000, 8192);
        waitFor(clock.begin(1) + 1 * ms);
        meter.tick();
        const bool firstOnTime = clock.index(IoMeter::nowNs()) == 1;
        if (firstOnTime) {
            QCOMPARE(meter.intervals().size(), qsizetype(1));
            QCOMPARE(meter.intervals().at(0).ops, 1.0);
            QCOMPARE(meter.intervals().at(0).bytes, 4096.0);
            waitFor(clock.begin(2) + 1 * ms);
            meter.tick();
        }
        if (!firstOnTime || clock.index(IoMeter::nowNs()) != 2) {
            meter.end();
            qInfo("attempt %d: a tick came more than 39 ms after its cut; trying again", attempt);
            continue;
        }
        QCOMPARE(meter.intervals().size(), qsizetype(2));
        QCOMPARE(meter.intervals().at(1).ops, 2.0);
        QCOMPARE(meter.intervals().at(1).bytes, 16384.0);
        meter.end();
        QCOMPARE(num(meter.summary().toJson(), QStringLiteral("ops")), 3.0);
        return;
    }
    QFAIL("in every attempt a tick came more than 39 ms after its cut: the machine was too busy for this test");
}

void TstDiskEngine::repeatsGiveMedianAndSpread()
{
    QTemporaryDir dir;
    RunContext ctx;
    DiskSpec s = spec(DiskProfile::SeqWrite, dir.path(), 8 * MiB);
    s.repeat = 3;
    const RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    const QJsonArray reps = rec.summary.value(QStringLiteral("repeats")).toArray();
    QCOMPARE(reps.size(), 3);
    QList<double> mbs;
    for (const auto& r : reps)
        mbs << r.toObject().value(QStringLiteral("mb_per_s")).toDouble();
    std::sort(mbs.begin(), mbs.end());
    QCOMPARE(num(rec.summary, QStringLiteral("mb_per_s")), mbs[1]);
    QCOMPARE(num(rec.summary, QStringLiteral("spread.mb_per_s.min")), mbs[0]);
    QCOMPARE(num(rec.summary, QStringLiteral("spread.mb_per_s.max")), mbs[2]);
    QSet<QString> series;
    for (const auto& v : rec.intervals)
        series.insert(v.toObject().value(QStringLiteral("series")).toString());
    QCOMPARE(
        series, (QSet<QString> { QStringLiteral("repeat 1"), QStringLiteral("repeat 2"), QStringLiteral("repeat 3") }));
}

void TstDiskEngine::suiteRunsEveryPartAndJudges()
{
    QTemporaryDir dir;
    RunContext ctx;
    DiskSpec s = spec(DiskProfile::Directory, dir.path(), 16 * MiB, 0.5);
    const RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    const QJsonObject tests = rec.summary.value(QStringLiteral("tests")).toObject();
    const QStringList names = tests.keys();
    QCOMPARE(QSet<QString>(names.begin(), names.end()),
        (QSet<QString> { QStringLiteral("rand-read qd1"), QStringLiteral("rand-read qd8"), QStringLiteral("commit"),
            QStringLiteral("seq-write"), QStringLiteral("dd") }));
    QVERIFY(!rec.summary.contains(QStringLiteral("mb_per_s"))); // a suite has no top-level rate
    // The sustained requirement needs 30 s: on a 0.5 s write it is not judged, and the record says why.
    QVERIFY(rec.hasWarning(QStringLiteral("not-sustained")));
    QStringList reqs;
    for (const auto& v : rec.verdicts)
        reqs << v.requirement;
    QVERIFY(reqs.join(u'|').contains(QStringLiteral("as the seed measured")));
    QVERIFY(reqs.join(u'|').contains(QStringLiteral("commit")));
    QVERIFY(reqs.join(u'|').contains(QStringLiteral("QD1")));
    QVERIFY(rec.engine.toObject().value(QStringLiteral("parts")).toObject().contains(QStringLiteral("dd")));
    QVERIFY(leftovers(dir.path()).isEmpty());
}

void TstDiskEngine::sustainedVerdictExplainsCache()
{
    QString err;
    const auto profiles = Requirements::load(&err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    QJsonObject tests;
    tests.insert(QStringLiteral("dd"),
        QJsonObject { { QStringLiteral("mb_per_s"), 438.0 }, { QStringLiteral("seconds"), 1.2 } });
    tests.insert(QStringLiteral("seq-write"),
        QJsonObject { { QStringLiteral("mb_per_s"), 43.4 }, { QStringLiteral("seconds"), 31.0 } });
    const DiskSummary suite = DiskSummary::fromJson(QJsonObject { { QStringLiteral("tests"), tests } });
    RunRecord rec;
    const auto verdicts = Requirements::evaluate(profiles, suite, rec, QStringLiteral("edirectory-seed-000"));
    QCOMPARE(verdicts.size(), 2);
    QCOMPARE(verdicts[0].passed, true);
    QCOMPARE(verdicts[1].passed, false);
    QCOMPARE(verdicts[1].measured, 43.4);
    QVERIFY(verdicts[1].note.contains(QStringLiteral("cache or burst")));
    QVERIFY(!rec.hasWarning(QStringLiteral("not-sustained")));
}

void TstDiskEngine::validationNamesTheField_data()
{
    QTest::addColumn<QString>("case_");
    QTest::addColumn<QString>("field");
    QTest::newRow("missing dir") << "missing"
                                 << "dir";
    QTest::newRow("file, not dir") << "file"
                                   << "dir";
    QTest::newRow("device") << "device"
                            << "dir";
    QTest::newRow("size not multiple") << "size"
                                       << "size";
    QTest::newRow("size beyond free space") << "huge"
                                            << "size";
    QTest::newRow("block not 4K-aligned for direct") << "block"
                                                     << "block";
    QTest::newRow("qd too high") << "qd"
                                 << "qd";
    QTest::newRow("repeat 0") << "repeat"
                              << "repeat";
    QTest::newRow("dd takes no size") << "ddsize"
                                      << "size";
}

void TstDiskEngine::validationNamesTheField()
{
    QFETCH(QString, case_);
    QFETCH(QString, field);
    QTemporaryDir dir;
    DiskSpec s = spec(DiskProfile::SeqWrite, dir.path(), 8 * MiB);
    if (case_ == u"missing")
        s.dir = dir.path() + QStringLiteral("/nope");
    else if (case_ == u"file") {
        QFile f(dir.path() + QStringLiteral("/f"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        s.dir = f.fileName();
    } else if (case_ == u"device")
        s.dir = QStringLiteral("/dev/null");
    else if (case_ == u"size")
        s.sizeBytes = 8 * MiB + 4096;
    else if (case_ == u"huge")
        s.sizeBytes = qint64(1) << 52;
    else if (case_ == u"block")
        s.blockBytes = 1000;
    else if (case_ == u"qd")
        s.queueDepth = 5000;
    else if (case_ == u"repeat")
        s.repeat = 0;
    else if (case_ == u"ddsize")
        s.profile = DiskProfile::Dd;
    const ProbeError e = s.validate();
    QCOMPARE(e.kind, ProbeError::Kind::InvalidSpec);
    QCOMPARE(e.field, field);
    QVERIFY(!e.detail.isEmpty());
    // The engine refuses it too, before any I/O.
    RunContext ctx;
    const RunRecord rec = Disk::run(s, ctx);
    QCOMPARE(rec.status, QStringLiteral("failed"));
    QVERIFY(rec.failure.startsWith(field + QStringLiteral(": ")));
    QVERIFY(rec.intervals.isEmpty());
    if (QFileInfo(s.dir).isDir())
        QVERIFY(leftovers(s.dir).isEmpty());
}

void TstDiskEngine::tmpfsIsFlagged()
{
    const QString shm = QStringLiteral("/dev/shm");
    const auto fs = Environment::fileSystemOf(shm);
    if (!fs.ok || fs.type != u"tmpfs")
        QSKIP("no tmpfs at /dev/shm on this machine; the tmpfs warning cannot be exercised here");
    QTemporaryDir dir(shm + QStringLiteral("/dirbench-XXXXXX"));
    QVERIFY(dir.isValid());
    RunContext ctx;
    DiskSpec s = spec(DiskProfile::Commit, dir.path(), 1 * MiB, 0.3);
    const RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QVERIFY(rec.hasWarning(QStringLiteral("tmpfs")));
    QVERIFY(rec.hasWarning(QStringLiteral("implausible"))); // fdatasync on memory returns at once
    QCOMPARE(rec.environment.value(QStringLiteral("filesystem")).toObject().value(QStringLiteral("type")).toString(),
        QStringLiteral("tmpfs"));
}

QTEST_GUILESS_MAIN(TstDiskEngine)
#include "tst_diskengine.moc"
