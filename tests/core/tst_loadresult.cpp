// The load's pieces that need no server: the interval clock (which interval an operation completed in), the mix's
// exact weights, and the typed figures' JSON (old records read with derived successes).
#include "core/common/intervalclock.h"
#include "core/ldap/loadresult.h"
#include "core/ldap/operationsource.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>

class TstLoadResult : public QObject
{
    Q_OBJECT
private slots:
    void clockWithoutRamp();
    void clockRestartsAtEveryStep();
    void mixWeightsAreExact();
    void figuresRoundTrip();
    void oldRecordDerivesSuccesses();
    void topErrorsNameCodesMostFirst();
};

void TstLoadResult::clockWithoutRamp()
{
    IntervalClock c(1000, 0);
    QCOMPARE(c.index(5000), -1); // not started: the warm-up
    c.start(10000);
    QCOMPARE(c.index(9999), -1);
    QCOMPARE(c.index(10000), 0);
    QCOMPARE(c.index(10999), 0);
    QCOMPARE(c.index(11000), 1);
    QCOMPARE(c.begin(3), uint64_t(13000));
    QCOMPARE(c.end(3), uint64_t(14000));
    QCOMPARE(c.step(3), 0);
}

void TstLoadResult::clockRestartsAtEveryStep()
{
    // Steps of 2.5 intervals: intervals 0, 1, 2 (a half) in step 0, then 3, 4, 5 in step 1.
    IntervalClock c(1000, 2500);
    c.start(0);
    QCOMPARE(c.index(2499), 2);
    QCOMPARE(c.end(2), uint64_t(2500)); // cut at the step's end, no interval mixes two steps
    QCOMPARE(c.index(2500), 3);
    QCOMPARE(c.begin(3), uint64_t(2500));
    QCOMPARE(c.step(3), 1);
    QCOMPARE(c.index(4999), 5);
    QCOMPARE(c.index(5000), 6);
    QCOMPARE(c.step(6), 2);
    // Every instant lies within its interval's bounds.
    for (uint64_t t = 0; t < 20000; t += 37) {
        const int64_t i = c.index(t);
        QVERIFY2(c.begin(i) <= t && t < c.end(i), qPrintable(QString::number(t)));
    }
}

void TstLoadResult::mixWeightsAreExact()
{
    // 999:1 gives 0.1 %; the old 100-slot table gave 0. Bound: 5 standard deviations of the binomial.
    const MixSource mix({ { LdapOpKind::Search, 999 }, { LdapOpKind::Compare, 1 } });
    AccessDistribution::Rng rng(7);
    const int n = 2000000;
    int compares = 0;
    for (int i = 0; i < n; ++i)
        compares += mix.next(rng) == LdapOpKind::Compare;
    const double expected = n / 1000.0, sigma = std::sqrt(n * 0.001 * 0.999);
    QVERIFY2(std::abs(compares - expected) < 5 * sigma, qPrintable(QString::number(compares)));
    const MixSource one({ { LdapOpKind::Modify, 3 } });
    QCOMPARE(one.next(rng), LdapOpKind::Modify);
}

void TstLoadResult::figuresRoundTrip()
{
    LoadCounts c;
    c.ok = 90;
    c.errors = 10;
    c.entries = 90;
    c.resultCodes[0] = 90;
    c.resultCodes[32] = 10;
    for (int i = 1; i <= 100; ++i)
        c.latency.record(uint64_t(i) * 1000000);
    LoadInterval iv;
    iv.t = 2;
    iv.seconds = 2;
    iv.all = OpFigures::of(c, 2);
    iv.byOperation[QStringLiteral("search")] = iv.all;
    iv.missed = 3;
    QCOMPARE(iv.all.okPerS, 45.0);
    QCOMPARE(iv.all.opsPerS, 50.0);
    QVERIFY(std::abs(*iv.all.latencyMs.p50 - 50.0) < 0.2); // the bucket's middle, within 0.4 %
    const LoadInterval back = LoadInterval::fromJson(iv.toJson());
    QCOMPARE(back.all.ok, 90.0);
    QCOMPARE(back.all.okPerS, 45.0);
    QCOMPARE(back.missed, 3.0);
    QVERIFY(!back.all.okDerived);
    QCOMPARE(back.byOperation.at(QStringLiteral("search")).errors, 10.0);
    QCOMPARE(back.all.resultCodes.at(32), 10.0);
}

void TstLoadResult::oldRecordDerivesSuccesses()
{
    // A summary written before `ok` existed: ok = ops - errors, and it says it was derived.
    const QJsonObject old { { QStringLiteral("ops"), 1000 }, { QStringLiteral("errors"), 250 },
        { QStringLiteral("ops_per_s"), 100.0 }, { QStringLiteral("seconds"), 10 } };
    const LoadSummary s = LoadSummary::fromJson(old);
    QVERIFY(s.all.okDerived);
    QCOMPARE(s.all.ok, 750.0);
    QCOMPARE(s.all.okPerS, 75.0);
}

void TstLoadResult::topErrorsNameCodesMostFirst()
{
    OpFigures f;
    f.resultCodes = { { 0, 5 }, { 32, 155323 }, { 4, 12 } };
    QCOMPARE(f.topErrors(), QStringLiteral("155,323 × No such object (32), 12 × Size limit exceeded (4)"));
}

QTEST_GUILESS_MAIN(TstLoadResult)
#include "tst_loadresult.moc"
