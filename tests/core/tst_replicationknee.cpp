// The replication knee (core/experiments/replicationknee.h) on constructed step series and marker time stamps:
// the first step whose p99 lag exceeds 10 x the first step's and keeps growing, the floor under a 0 ms first
// step, and the lag and slope of the markers acknowledged in a step.
#include "core/experiments/replicationknee.h"
#include "core/experiments/replicationlag.h"
#include "core/experiments/replicationwatch.h"

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
    void censoredMarkersMakeABound();
    void exactWhenCensoredAboveTheRank();
    void bothLagsAndTheClamp();
    void missedAndFailedHaveNoLag();
    void figuresRoundTrip();
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
    const StepLag s = ReplicationKnee::stepLag(acks, {}, seen, base + 500 * kMs, base + 1500 * kMs, base + 9000 * kMs);
    QCOMPARE(s.markers, qint64(10));
    QCOMPARE(s.unseen, qint64(0));
    QVERIFY(s.p99Ms && s.p50Ms && s.slopeMsPerS);
    QCOMPARE(*s.p99Ms, 80.0);
    QCOMPARE(*s.p50Ms, 55.0); // the 5th of 10, rank ceil(0.5 x 10)
    QVERIFY2(std::abs(*s.slopeMsPerS - 50.0) < 1e-6, qPrintable(QString::number(*s.slopeMsPerS)));
    // A marker seen before its acknowledgement counts as lag 0.
    seen[5] = acks[5] - 2 * kMs;
    const StepLag t = ReplicationKnee::stepLag(acks, {}, seen, base + 500 * kMs, base + 600 * kMs, base + 9000 * kMs);
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
    const StepLag s = ReplicationKnee::stepLag(acks, {}, seen, 0, 1000000 * kMs, 2001 * kMs);
    QCOMPARE(s.markers, qint64(10));
    QCOMPARE(s.unseen, qint64(4));
    QCOMPARE(*s.p99Ms, 1400.0);
    QCOMPARE(*s.p50Ms, 20.0);
    QVERIFY(std::abs(*s.slopeMsPerS) < 1e-9); // the seen ones: flat
    QVERIFY(ReplicationKnee::growing(s));
}

// The dead-replica case: 201 markers, 80 seen at 10 ms, 121 never seen by the watch's end. Every percentile above
// the 80 seen falls on a censored marker: a lower bound; a p50 among them too.
void TstReplicationKnee::censoredMarkersMakeABound()
{
    std::vector<qint64> acks, sends, seen;
    for (qint64 k = 0; k < 201; ++k) {
        sends.push_back(k * 50 * kMs);
        acks.push_back(k * 50 * kMs + kMs);
        if (k < 80)
            seen.push_back(acks.back() + 10 * kMs);
    }
    const qint64 end = 201 * 50 * kMs + 1000 * kMs;
    const ReplicationLag::Lags l = ReplicationLag::lags(acks, sends, seen, end);
    QCOMPARE(l.fromAckMs.size(), size_t(201));
    QCOMPARE(l.censoredCount(), qint64(121));
    const auto f = ReplicationLag::figures(l.fromAckMs, l.censored);
    QVERIFY(f);
    QCOMPARE(f->count, qint64(201));
    QCOMPARE(f->censored, qint64(121));
    QVERIFY(f->p50AtLeast && f->p99AtLeast && f->maxAtLeast);
    QCOMPARE(f->max, double(end - acks[80]) / 1e6); // the oldest unseen marker's age at the end
    QVERIFY(f->p99 > 1000);
    QCOMPARE(ReplicationLag::text(f->p99, f->p99AtLeast).left(2), QStringLiteral("> "));
}

// One censored marker of 200: p50 is exact (nothing censored at or below its rank), p99 and max are bounds.
void TstReplicationKnee::exactWhenCensoredAboveTheRank()
{
    std::vector<double> ms;
    std::vector<bool> censored;
    for (int i = 0; i < 199; ++i) {
        ms.push_back(1 + i % 5);
        censored.push_back(false);
    }
    ms.push_back(3); // censored at 3 ms: below most values, but its true lag is unknown above 3
    censored.push_back(true);
    const auto f = ReplicationLag::figures(ms, censored);
    QVERIFY(f);
    QCOMPARE(f->p50, 3.0);
    QVERIFY(!f->p50AtLeast); // the tie at 3 ms: an observed marker holds the rank
    QCOMPARE(f->p99, 5.0);
    QVERIFY(f->p99AtLeast); // the censored one sorts at or below that rank: the true p99 may be higher
    QVERIFY(!ReplicationLag::figures({ 1, 2 }, { false, false })->p99AtLeast);
    QVERIFY(!ReplicationLag::figures({}, {}));
}

// From the send is never below from the ack; a marker shown before its ack is 0 from the ack and counted.
void TstReplicationKnee::bothLagsAndTheClamp()
{
    const std::vector<qint64> sends { 1 * kMs, 100 * kMs, 200 * kMs }; // 0 would mean "not recorded"
    const std::vector<qint64> acks { 5 * kMs, 150 * kMs, 201 * kMs };
    const std::vector<qint64> seen { 8 * kMs, 120 * kMs, 230 * kMs }; // the second before its ack
    const ReplicationLag::Lags l = ReplicationLag::lags(acks, sends, seen, 300 * kMs);
    QCOMPARE(l.seenBeforeAck, qint64(1));
    QCOMPARE(l.fromAckMs, (std::vector<double> { 3, 0, 29 }));
    QCOMPARE(l.fromSendMs, (std::vector<double> { 7, 20, 30 }));
    for (size_t i = 0; i < l.fromAckMs.size(); ++i)
        QVERIFY(l.fromSendMs[i] >= l.fromAckMs[i]);
    QCOMPARE(l.censoredCount(), qint64(0));
}

// A failed write, a missed marker and one still in flight have no acknowledgement to measure from; a later marker
// seen covers them in `seen` (a value >= k), and they are neither counted nor censored.
void TstReplicationKnee::missedAndFailedHaveNoLag()
{
    const std::vector<qint64> acks { 10 * kMs, ReplicationLag::kFailed, ReplicationLag::kMissed, 0, 50 * kMs };
    const std::vector<qint64> sends { 9 * kMs, 19 * kMs, 0, 39 * kMs, 49 * kMs };
    const std::vector<qint64> seen { 12 * kMs, 52 * kMs, 52 * kMs, 52 * kMs, 52 * kMs };
    const ReplicationLag::Lags l = ReplicationLag::lags(acks, sends, seen, 100 * kMs);
    QCOMPARE(l.fromAckMs, (std::vector<double> { 2, 2 }));
    QCOMPARE(l.fromSendMs, (std::vector<double> { 3, 3 }));
    // The interval view counts the same markers, and waits for the one in flight.
    ReplicationWatch::Account a;
    const QJsonObject iv = ReplicationWatch::interval(acks, sends, seen, 100 * kMs, a);
    QCOMPARE(iv.value(QStringLiteral("seen")).toInt(), 1);
    QCOMPARE(a.counted, size_t(3)); // stops at the marker in flight
}

void TstReplicationKnee::figuresRoundTrip()
{
    const auto f = ReplicationLag::figures({ 1, 2, 700 }, { false, false, true });
    QVERIFY(f);
    const auto back = ReplicationLag::Figures::fromJson(f->toJson());
    QVERIFY(back);
    QCOMPARE(back->p99, 700.0);
    QVERIFY(back->p99AtLeast && back->maxAtLeast && !back->p50AtLeast);
    QCOMPARE(back->censored, qint64(1));
    // A record written before the bounds existed reads as exact figures.
    const auto old = ReplicationLag::Figures::fromJson(
        QJsonObject { { QStringLiteral("p50"), 1 }, { QStringLiteral("p99"), 2 }, { QStringLiteral("max"), 3 } });
    QVERIFY(old && !old->p99AtLeast);
    QVERIFY(!ReplicationLag::Figures::fromJson(QJsonValue()));
}

QTEST_GUILESS_MAIN(TstReplicationKnee)
#include "tst_replicationknee.moc"
