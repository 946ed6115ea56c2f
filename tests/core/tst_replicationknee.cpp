// The replication knee (core/experiments/replicationknee.h) on constructed step series and marker time stamps:
// the first step whose p99 lag exceeds 10 x the first step's and keeps growing, the floor under a 0 ms first
// step, and the lag and slope of the markers acknowledged in a step.
#include "core/experiments/replicationknee.h"

#include <QTest>

using ReplicationKnee::StepLag;

namespace {

StepLag step(std::optional<double> p99, std::optional<double> slope, qint64 unseen = 0)
{
    StepLag s;
    s.markers = 50;
    s.unseen = unseen;
    s.p50Ms = p99;
    s.p99Ms = p99;
    s.slopeMsPerS = slope;
    return s;
}

constexpr qint64 kMs = 1000000;

} // namespace

class TstReplicationKnee : public QObject
{
    Q_OBJECT
private slots:
    void flatSeriesHasNoKnee();
    void firstGrowingStepAboveTenTimes();
    void spikeThatRecoversIsNoKnee();
    void exactlyTenTimesIsNoKnee();
    void floorUnderAZeroFirstStep();
    void unseenMarkersCountAsGrowing();
    void degenerateSeries();
    void stepLagOfConstructedMarkers();
    void stepLagCountsUnseenAsLowerBound();
};

void TstReplicationKnee::flatSeriesHasNoKnee()
{
    const std::vector<StepLag> s { step(5, 0.1), step(6, 0.2), step(8, 0.5), step(9, 1) };
    QVERIFY(!ReplicationKnee::kneeStep(s, 1).has_value());
}

void TstReplicationKnee::firstGrowingStepAboveTenTimes()
{
    const std::vector<StepLag> s { step(5, 0), step(6, 1), step(30, 4), step(80, 12), step(400, 90) };
    const auto k = ReplicationKnee::kneeStep(s, 1);
    QVERIFY(k.has_value());
    QCOMPARE(*k, size_t(3)); // 80 > 50 and growing; 30 is not above 10 x 5
}

void TstReplicationKnee::spikeThatRecoversIsNoKnee()
{
    // Step 1 is far above but its lag falls through the step (a one-off pause the consumer recovered from).
    const std::vector<StepLag> s { step(4, 0), step(900, -150), step(10, 0), step(120, 30) };
    const auto k = ReplicationKnee::kneeStep(s, 1);
    QVERIFY(k.has_value());
    QCOMPARE(*k, size_t(3));
    const std::vector<StepLag> flatHigh { step(4, 0), step(900, 0), step(900, std::nullopt) };
    QVERIFY(!ReplicationKnee::kneeStep(flatHigh, 1).has_value()); // neither growing nor known to grow
}

void TstReplicationKnee::exactlyTenTimesIsNoKnee()
{
    const std::vector<StepLag> s { step(5, 0), step(50, 10) };
    QVERIFY(!ReplicationKnee::kneeStep(s, 1).has_value()); // "exceeds": strictly above
    const std::vector<StepLag> t { step(5, 0), step(50.001, 10) };
    QCOMPARE(ReplicationKnee::kneeStep(t, 1).value_or(99), size_t(1));
}

void TstReplicationKnee::floorUnderAZeroFirstStep()
{
    // Every marker of the first step seen before its acknowledgement: p99 0. With a 5 ms floor the threshold is
    // 50 ms, not 0 ms.
    const std::vector<StepLag> s { step(0, 0), step(3, 0.5), step(49, 2), step(51, 2) };
    QCOMPARE(ReplicationKnee::kneeStep(s, 5).value_or(99), size_t(3));
    QCOMPARE(ReplicationKnee::kneeStep(s, 0).value_or(99), size_t(1)); // no floor: the first growing millisecond
}

void TstReplicationKnee::unseenMarkersCountAsGrowing()
{
    // A step whose markers were never all seen (the consumer never caught up): growing, whatever the slope of
    // the few seen (here none: no slope).
    const std::vector<StepLag> s { step(5, 0), step(7000, std::nullopt, 12) };
    QCOMPARE(ReplicationKnee::kneeStep(s, 1).value_or(99), size_t(1));
    QVERIFY(ReplicationKnee::growing(step(1, std::nullopt, 1)));
    QVERIFY(!ReplicationKnee::growing(step(1, std::nullopt, 0)));
    QVERIFY(!ReplicationKnee::growing(step(1, 0.0, 0)));
}

void TstReplicationKnee::degenerateSeries()
{
    QVERIFY(!ReplicationKnee::kneeStep({}, 1).has_value());
    QVERIFY(!ReplicationKnee::kneeStep({ step(5, 3) }, 1).has_value()); // the first step is the reference
    QVERIFY(!ReplicationKnee::kneeStep({ step(std::nullopt, std::nullopt), step(100, 5) }, 1).has_value());
    // A later step without markers (cancelled mid-ramp) is skipped, not a knee.
    const std::vector<StepLag> s { step(5, 0), step(std::nullopt, std::nullopt), step(60, 1) };
    QCOMPARE(ReplicationKnee::kneeStep(s, 1).value_or(99), size_t(2));
}

void TstReplicationKnee::stepLagOfConstructedMarkers()
{
    // Markers every 100 ms from t = 1 s; marker k's lag is 10 ms + 5 ms x k: 50 ms more lag per second.
    std::vector<qint64> acks, seen;
    const qint64 base = 1000 * kMs;
    for (int k = 0; k < 30; ++k) {
        acks.push_back(base + k * 100 * kMs);
        seen.push_back(acks.back() + (10 + 5 * k) * kMs);
    }
    acks[3] = -1; // a failed write: not a marker of the step
    // The step [1.5 s, 2.5 s): markers 5..14, lags 35..80 ms.
    const StepLag s = ReplicationKnee::stepLag(acks, seen, base + 500 * kMs, base + 1500 * kMs, base + 9000 * kMs);
    QCOMPARE(s.markers, qint64(10));
    QCOMPARE(s.unseen, qint64(0));
    QVERIFY(s.p99Ms && s.p50Ms && s.slopeMsPerS);
    QCOMPARE(*s.p99Ms, 80.0);
    QCOMPARE(*s.p50Ms, 55.0); // the 5th of 10, rank ceil(0.5 x 10)
    QVERIFY2(std::abs(*s.slopeMsPerS - 50.0) < 1e-6, qPrintable(QString::number(*s.slopeMsPerS)));
    // A marker seen before its acknowledgement counts as lag 0.
    seen[5] = acks[5] - 2 * kMs;
    const StepLag t = ReplicationKnee::stepLag(acks, seen, base + 500 * kMs, base + 600 * kMs, base + 9000 * kMs);
    QCOMPARE(t.markers, qint64(1));
    QCOMPARE(*t.p99Ms, 0.0);
    QVERIFY(!t.slopeMsPerS.has_value()); // one marker: no slope
}

void TstReplicationKnee::stepLagCountsUnseenAsLowerBound()
{
    // 10 markers every 100 ms; the consumer saw the first 6 (lag 20 ms each) and then nothing: at the end (2 s
    // after the first marker) the unseen ones are behind by 1.4 s down to 1.1 s.
    std::vector<qint64> acks, seen;
    for (int k = 0; k < 10; ++k)
        acks.push_back(kMs + k * 100 * kMs);
    for (int k = 0; k < 6; ++k)
        seen.push_back(acks[size_t(k)] + 20 * kMs);
    acks.push_back(0); // in flight at the end: not counted
    const StepLag s = ReplicationKnee::stepLag(acks, seen, 0, 1000000 * kMs, 2001 * kMs);
    QCOMPARE(s.markers, qint64(10));
    QCOMPARE(s.unseen, qint64(4));
    QCOMPARE(*s.p99Ms, 1400.0);
    QCOMPARE(*s.p50Ms, 20.0);
    QVERIFY(std::abs(*s.slopeMsPerS) < 1e-9); // the seen ones: flat
    QVERIFY(ReplicationKnee::growing(s));
}

QTEST_GUILESS_MAIN(TstReplicationKnee)
#include "tst_replicationknee.moc"
