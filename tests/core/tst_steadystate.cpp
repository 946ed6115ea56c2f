// Steady state (SNIA PTS): the detector on synthetic series, the rounds cut from intervals, the warnings, and real
// runs (a 6 s seq-write, --until-steady through the CLI, the suite's sustained write).
#include "core/common/runrecord.h"
#include "core/disk/iobackends.h"
#include "core/disk/iometer.h"
#include "core/disk/steadystate.h"
#include "core/disk/testfile.h"
#include "diskfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace DiskFixture;

class TstSteadyState : public QObject
{
    Q_OBJECT
private slots:
    void settlesAfterARamp();
    void neverSettlesInNoise();
    void cacheThenSteady();
    void steadyDriftIsNotSteady();
    void exactlyFiveRounds();
    void fewerThanFiveNotEvaluated();
    void roundsFromIntervals();
    void annotateWarnsAndRecords();
    void untilSteadyPredicate();
    void enoughEndsThePhase_data();
    void enoughEndsThePhase();
    void mergesRepeats();
    void realSeqWriteCarriesSteadyState();
    void realRepeatsMergeSteadyState();
    void cliUntilSteady();
    void cliRefusesBadUntilSteady_data();
    void cliRefusesBadUntilSteady();
    void suiteReportsSustainedWrite();
};

namespace {

// Alternating small noise (±1 %) around a level.
QList<double> flat(double level, int n)
{
    QList<double> v;
    for (int i = 0; i < n; ++i)
        v << level * (i % 2 ? 1.01 : 0.99);
    return v;
}

QList<DiskInterval> typed(const QJsonArray& a)
{
    return DiskInterval::listFromJson(a);
}

QList<DiskInterval> intervalsOf(const QList<double>& mbPerRound, double step)
{
    // Each round's MB spread evenly over intervals of `step` seconds (step divides 1).
    QJsonArray a;
    const int per = int(1.0 / step + 0.5);
    for (int r = 0; r < mbPerRound.size(); ++r)
        for (int k = 0; k < per; ++k)
            a.append(QJsonObject {
                { "t", r + (k + 1) * step }, { "bytes", mbPerRound[r] * 1e6 / per }, { "ops", mbPerRound[r] / per } });
    return typed(a);
}

} // namespace

void TstSteadyState::settlesAfterARamp()
{
    QList<double> r { 20, 40, 60, 80 };
    r += flat(100, 10);
    const auto res = Steady::detect(r);
    QVERIFY(res.evaluated);
    QVERIFY(res.reached);
    QCOMPARE(res.atSec, 9.0); // rounds 4..8; the window starting at 80 is 16 % off its average
    QVERIFY(qAbs(res.value - 99.8) < 0.5);
    QVERIFY(!res.cacheAnswered); // the ramp is slow-then-fast
}

void TstSteadyState::neverSettlesInNoise()
{
    // ±20..30 %, alternating sign: every window has rounds more than 10 % off its average.
    QList<double> r;
    for (int i = 0; i < 30; ++i)
        r << 100.0 * (1.0 + (i % 2 ? 1 : -1) * (0.20 + 0.01 * (i % 11)));
    const auto res = Steady::detect(r);
    QVERIFY(res.evaluated);
    QVERIFY(!res.reached);
    QCOMPARE(res.rounds, 30);
    QVERIFY(!res.cacheAnswered);
}

void TstSteadyState::cacheThenSteady()
{
    QList<double> r { 1000, 1000, 1000 };
    r += flat(200, 20);
    const auto res = Steady::detect(r);
    QVERIFY(res.cacheAnswered);
    QCOMPARE(res.headRounds, 4); // 20 % of 23
    QCOMPARE(res.tailRounds, 11); // 50 % of 23
    QCOMPARE(res.headAvg, 799.5); // three cache rounds and one of the disk
    QVERIFY(res.reached);
    QCOMPARE(res.atSec, 8.0); // the first window after the cache: rounds 3..7
    QVERIFY(qAbs(res.value - 200) < 3);
}

void TstSteadyState::steadyDriftIsNotSteady()
{
    // +5 % of the start per second: every window is inside ±10 % of its average, but its slope × 5 s is 25 %.
    QList<double> r;
    for (int i = 0; i < 20; ++i)
        r << 100.0 + 5.0 * i;
    const auto res = Steady::detect(r);
    QVERIFY(res.evaluated);
    QVERIFY(!res.reached);
    // A drift of 1 %/s (slope × 5 s = 5 %) is steady from the first window.
    QList<double> slow;
    for (int i = 0; i < 20; ++i)
        slow << 100.0 + 1.0 * i;
    QVERIFY(Steady::detect(slow).reached);
    QCOMPARE(Steady::detect(slow).atSec, 5.0);
}

void TstSteadyState::exactlyFiveRounds()
{
    auto res = Steady::detect({ 100, 101, 99, 100, 100 });
    QVERIFY(res.evaluated);
    QVERIFY(res.reached);
    QCOMPARE(res.atSec, 5.0);
    QCOMPARE(res.value, 100.0);
    res = Steady::detect({ 100, 100, 100, 100, 130 }); // 130 is 23 % above the average of 106
    QVERIFY(res.evaluated);
    QVERIFY(!res.reached);
    QVERIFY(!Steady::detect({ 0, 0, 0, 0, 0 }).reached); // a stalled device is not steady
}

void TstSteadyState::fewerThanFiveNotEvaluated()
{
    const auto res = Steady::detect({ 100, 100, 100, 100 });
    QVERIFY(!res.evaluated);
    QVERIFY(!res.reached);
    QCOMPARE(res.rounds, 4);
    const QJsonObject o = Steady::figures(res, Steady::Unit::MBps).toJson();
    QCOMPARE(o.value("evaluated").toBool(true), false);
    QVERIFY(o.value("at_s").isNull());
    QVERIFY(o.value("mb_per_s").isNull());
    RunRecord rec;
    DiskSummary summary;
    Steady::annotate(
        "seq-write", intervalsOf({ 100, 100, 100, 100 }, 0.25), Steady::Unit::MBps, 250, 0, true, summary, rec);
    QVERIFY(rec.warnings.isEmpty());
    QCOMPARE(summary.toJson().value("steady_state").toObject().value("rounds").toInt(), 4);
}

void TstSteadyState::roundsFromIntervals()
{
    const QList<double> mb { 10, 20, 30, 40, 50, 60 };
    QCOMPARE(Steady::rounds(intervalsOf(mb, 0.25), Steady::Unit::MBps), mb);
    QCOMPARE(Steady::rounds(intervalsOf(mb, 0.25), Steady::Unit::Iops), mb); // ops per round
    // 0.4 s intervals of 40 MB each (100 MB/s) straddle the seconds: every whole round gets 100 MB; the part
    // round after 2.0 s is dropped.
    QJsonArray a;
    for (int i = 1; i <= 6; ++i)
        a.append(QJsonObject { { "t", 0.4 * i }, { "bytes", 40e6 }, { "ops", 40.0 } });
    const auto r = Steady::rounds(typed(a), Steady::Unit::MBps);
    QCOMPARE(r.size(), 2);
    QVERIFY(qAbs(r[0] - 100) < 1e-6 && qAbs(r[1] - 100) < 1e-6);
    // A folded tail (the last interval longer than the rest) still splits by time.
    QList<DiskInterval> folded = intervalsOf({ 100, 100 }, 0.25);
    folded.append(DiskInterval::fromJson(QJsonObject { { "t", 3.0 }, { "bytes", 100e6 }, { "ops", 100.0 } }));
    QCOMPARE(Steady::rounds(folded, Steady::Unit::MBps), (QList<double> { 100, 100, 100 }));
}

void TstSteadyState::annotateWarnsAndRecords()
{
    QList<double> cache { 1000, 1000, 1000 };
    cache += flat(200, 20);
    RunRecord rec;
    DiskSummary summary;
    Steady::annotate("seq-write", intervalsOf(cache, 0.25), Steady::Unit::MBps, 250, 0, true, summary, rec);
    const QJsonObject st = summary.toJson().value("steady_state").toObject();
    QCOMPARE(st.value("reached").toBool(), true);
    QCOMPARE(st.value("at_s").toDouble(), 8.0);
    QCOMPARE(st.value("window_s").toInt(), 5);
    QVERIFY(qAbs(st.value("mb_per_s").toDouble() - 200) < 3);
    QVERIFY(!st.contains("iops"));
    QVERIFY(rec.hasWarning("cache-answered"));
    QVERIFY(!rec.hasWarning("not-steady"));
    QVERIFY2(rec.warnings.first().message.contains("799.5 MB/s"), qPrintable(rec.warnings.first().message));

    QList<double> noisy;
    for (int i = 0; i < 12; ++i)
        noisy << (i % 2 ? 130.0 : 70.0);
    RunRecord rec2;
    DiskSummary s2;
    Steady::annotate("rand-write qd32", intervalsOf(noisy, 0.25), Steady::Unit::Iops, 250, 60, true, s2, rec2);
    QVERIFY(rec2.hasWarning("not-steady"));
    QVERIFY(rec2.warnings.first().message.contains("12 s"));
    QVERIFY(rec2.warnings.first().message.contains("its cap of 60 s"));
    QVERIFY(s2.toJson().value("steady_state").toObject().contains("iops"));
    QVERIFY(s2.toJson().value("steady_state").toObject().value("iops").isNull());

    // A cancelled part records what it saw but warns nothing; intervals over 1 s are not evaluated.
    RunRecord rec3;
    DiskSummary s3;
    Steady::annotate("seq-write", intervalsOf(noisy, 0.25), Steady::Unit::MBps, 250, 0, false, s3, rec3);
    QVERIFY(rec3.warnings.isEmpty());
    QCOMPARE(s3.toJson().value("steady_state").toObject().value("evaluated").toBool(), true);
    Steady::annotate("seq-write", intervalsOf(noisy, 0.25), Steady::Unit::MBps, 2000, 0, true, s3, rec3);
    QCOMPARE(s3.toJson().value("steady_state").toObject().value("evaluated").toBool(true), false);
    QVERIFY(rec3.warnings.isEmpty());
}

void TstSteadyState::untilSteadyPredicate()
{
    QList<double> r { 20, 40, 60, 80 };
    r += flat(100, 10);
    const QList<DiskInterval> all = intervalsOf(r, 0.25);
    QList<DiskInterval> grown;
    const auto enough = Steady::untilSteady(grown, Steady::Unit::MBps);
    double firstTrueAt = -1;
    for (const auto& v : all) {
        grown.append(v);
        if (enough() && firstTrueAt < 0)
            firstTrueAt = v.t;
    }
    QCOMPARE(firstTrueAt, 9.0); // the interval that completes round 8
    QVERIFY(enough()); // stays true
}

void TstSteadyState::enoughEndsThePhase_data()
{
    QTest::addColumn<bool>("uring");
    QTest::addRow("io_uring") << true;
    QTest::addRow("threads") << false;
}

// The hook --until-steady uses: the I/O loop asks plan.enough at each tick and ends the phase as its duration would.
void TstSteadyState::enoughEndsThePhase()
{
    QFETCH(bool, uring);
    QTemporaryDir dir;
    ProbeError err;
    auto file = TestFile::create(dir.path(), true, &err);
    QVERIFY2(file, qPrintable(err.message()));
    RunContext ctx;
    IoMeter meter(ctx, QString(), 250);
    IoPlan plan;
    plan.fd = file->fd();
    plan.write = true;
    plan.fileSize = 16 * MiB;
    plan.block = 1 * MiB;
    plan.queueDepth = 4;
    plan.durationSec = 30;
    int asked = 0;
    plan.enough = [&] {
        ++asked;
        return meter.intervals().size() >= 4; // one second of intervals
    };
    meter.begin();
    QString refused;
    const IoOutcome out = uring ? runIoUring(
                              plan, meter, ctx, [](double) {}, &refused)
                                : runThreads(plan, meter, ctx, [](double) {});
    meter.end();
    if (uring && out.engine.isEmpty())
        QSKIP(qPrintable("io_uring refused here: " + refused));
    QVERIFY2(!out.error.isError(), qPrintable(out.error.message()));
    QVERIFY(!out.cancelled);
    QVERIFY(asked >= 4);
    QVERIFY2(meter.elapsedSec() > 0.99 && meter.elapsedSec() < 2.0, qPrintable(QString::number(meter.elapsedSec())));
}

void TstSteadyState::mergesRepeats()
{
    auto summaryWith = [](bool reached, double at, double mb) {
        Steady::Result r;
        r.rounds = 12;
        r.evaluated = true;
        r.reached = reached;
        r.atSec = at;
        r.value = mb;
        DiskSummary s;
        s.steadyState = Steady::figures(r, Steady::Unit::MBps);
        return s;
    };
    QJsonObject m
        = Steady::mergeRepeats({ summaryWith(true, 6, 100), summaryWith(true, 8, 120), summaryWith(true, 7, 110) })
              .toJson();
    QCOMPARE(m.value("reached").toBool(), true);
    QCOMPARE(m.value("at_s").toDouble(), 7.0);
    QCOMPARE(m.value("mb_per_s").toDouble(), 110.0);
    QCOMPARE(m.value("reached_in").toInt(), 3);
    m = Steady::mergeRepeats({ summaryWith(true, 6, 100), summaryWith(false, 0, 0) }).toJson();
    QCOMPARE(m.value("reached").toBool(true), false);
    QCOMPARE(m.value("reached_in").toInt(), 1);
    QCOMPARE(m.value("of").toInt(), 2);
}

void TstSteadyState::realSeqWriteCarriesSteadyState()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    RunContext ctx;
    const RunRecord rec = Disk::run(spec(DiskProfile::SeqWrite, dir.path(), 64 * MiB, 6), ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QVERIFY(rec.summary.value("mb_per_s").toDouble() > 0); // the whole-run figure stays the headline
    const QJsonObject st = rec.summary.value("steady_state").toObject();
    for (const char* k : { "evaluated", "rounds", "reached", "at_s", "window_s", "cache_answered", "mb_per_s" })
        QVERIFY2(st.contains(QLatin1String(k)), k);
    QVERIFY(!st.contains("iops"));
    QVERIFY(st.value("evaluated").toBool());
    QVERIFY(st.value("rounds").toInt() >= 5 && st.value("rounds").toInt() <= 6);
    QCOMPARE(st.value("window_s").toInt(), 5);
    if (st.value("reached").toBool()) {
        QVERIFY(st.value("at_s").toDouble() >= 5 && st.value("at_s").toDouble() <= 6);
        QVERIFY(st.value("mb_per_s").toDouble() > 0);
        QVERIFY(!rec.hasWarning("not-steady"));
    } else {
        QVERIFY(rec.hasWarning("not-steady"));
    }
    qInfo("6 s seq-write: %s", QJsonDocument(st).toJson(QJsonDocument::Compact).constData());
    QVERIFY(leftovers(dir.path()).isEmpty());
}

void TstSteadyState::realRepeatsMergeSteadyState()
{
    QTemporaryDir dir;
    RunContext ctx;
    DiskSpec s = spec(DiskProfile::RandRead, dir.path(), 16 * MiB, 1);
    s.repeat = 2;
    const RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    const QJsonObject st = rec.summary.value("steady_state").toObject();
    QCOMPARE(st.value("of").toInt(), 2);
    QCOMPARE(st.value("evaluated").toBool(true), false); // 1 s each: fewer than 5 rounds
    QVERIFY(st.contains("iops")); // a random profile counts IOPS
    for (const auto& r : rec.summary.value("repeats").toArray())
        QVERIFY(r.toObject().value("steady_state").toObject().contains("rounds"));
}

void TstSteadyState::cliUntilSteady()
{
    QTemporaryDir dir;
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH),
        { "disk", "--dir", dir.path(), "--profile", "seq-write", "--size", "64M", "--until-steady", "8", "--json",
            "-" });
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    QJsonParseError err;
    const QJsonObject rec = QJsonDocument::fromJson(p.readAllStandardOutput(), &err).object();
    QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
    QCOMPARE(rec.value("spec").toObject().value("until_steady_s").toDouble(), 8.0);
    const QJsonObject summary = rec.value("summary").toObject();
    const QJsonObject st = summary.value("steady_state").toObject();
    const double secs = summary.value("seconds").toDouble();
    qInfo("--until-steady 8: ran %.2f s, %s", secs, QJsonDocument(st).toJson(QJsonDocument::Compact).constData());
    QVERIFY(st.value("evaluated").toBool());
    if (st.value("reached").toBool()) {
        // Stopped at the first steady window (checked at each interval), well before the cap when it came early.
        QVERIFY2(secs < st.value("at_s").toDouble() + 0.6, qPrintable(QString::number(secs)));
    } else {
        QVERIFY(secs > 7.5 && secs < 9.0);
        QVERIFY(QJsonDocument(rec).toJson().contains("not-steady"));
    }
    QVERIFY(leftovers(dir.path()).isEmpty());
}

void TstSteadyState::cliRefusesBadUntilSteady_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addRow("below a window") << QStringList { "--until-steady", "3" };
    QTest::addRow("not a number") << QStringList { "--until-steady", "soon" };
    QTest::addRow("with duration") << QStringList { "--until-steady", "10", "--duration", "5" };
    QTest::addRow("dd") << QStringList { "--profile", "dd", "--until-steady", "10" };
    QTest::addRow("long intervals") << QStringList { "--until-steady", "10", "--interval", "2" };
}

void TstSteadyState::cliRefusesBadUntilSteady()
{
    QFETCH(QStringList, extra);
    QTemporaryDir dir;
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), QStringList { "disk", "--dir", dir.path() } + extra);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 2);
    const QByteArray e = p.readAllStandardError();
    QVERIFY2(e.contains("--until-steady"), e.constData());
    QVERIFY(leftovers(dir.path()).isEmpty());
}

void TstSteadyState::suiteReportsSustainedWrite()
{
    QTemporaryDir dir;
    RunContext ctx;
    const RunRecord rec = Disk::run(spec(DiskProfile::Directory, dir.path(), 16 * MiB, 1), ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure)); // reported, never required
    const QJsonObject tests = rec.summary.value("tests").toObject();
    const QJsonObject st = tests.value("seq-write").toObject().value("steady_state").toObject();
    QVERIFY(st.contains("reached"));
    QCOMPARE(st.value("evaluated").toBool(true), false); // 1 s: fewer than 5 rounds
    QVERIFY(!rec.hasWarning("not-steady"));
    for (const char* other : { "rand-read qd1", "rand-read qd8", "commit", "dd" })
        QVERIFY2(!tests.value(QLatin1String(other)).toObject().contains("steady_state"), other);
}

QTEST_GUILESS_MAIN(TstSteadyState)
#include "tst_steadystate.moc"
