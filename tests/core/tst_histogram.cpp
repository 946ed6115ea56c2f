#include "core/common/histogram.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

class TstHistogram : public QObject
{
    Q_OBJECT
private slots:
    void bucketsCoverEveryValue();
    void percentilesWithinOnePercent_data();
    void percentilesWithinOnePercent();
    void mergeEqualsRecordingEverything();
    void jsonRoundTrip();
    void emptyAndTiny();
};

void TstHistogram::bucketsCoverEveryValue()
{
    // Every value lands in a bucket whose [low, high] holds it, and buckets are no wider than 1/128 of their low end.
    std::mt19937_64 rng(42);
    for (int i = 0; i < 200000; ++i) {
        const uint64_t v = rng() >> (rng() % 30 + 24);
        const int b = LatencyHistogram::bucketOf(v);
        QVERIFY2(LatencyHistogram::bucketLow(b) <= v && v <= LatencyHistogram::bucketHigh(b),
            qPrintable(QString::number(v)));
        if (v >= 256) {
            const double width = double(LatencyHistogram::bucketHigh(b) - LatencyHistogram::bucketLow(b) + 1);
            QVERIFY(width / double(LatencyHistogram::bucketLow(b)) <= 1.0 / 128.0 + 1e-12);
        }
    }
    QCOMPARE(LatencyHistogram::bucketOf(255), 255);
    QCOMPARE(LatencyHistogram::bucketOf(256), 256);
    QCOMPARE(LatencyHistogram::bucketLow(LatencyHistogram::bucketOf(1000000)) <= 1000000, true);
}

void TstHistogram::percentilesWithinOnePercent_data()
{
    QTest::addColumn<QString>("distribution");
    QTest::newRow("uniform 1us-10ms") << QStringLiteral("uniform");
    QTest::newRow("lognormal (latency-like)") << QStringLiteral("lognormal");
    QTest::newRow("exponential") << QStringLiteral("exponential");
}

void TstHistogram::percentilesWithinOnePercent()
{
    QFETCH(QString, distribution);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> uni(1000.0, 10000000.0);
    std::lognormal_distribution<double> logn(11.0, 1.2);
    std::exponential_distribution<double> expo(1.0 / 200000.0);
    std::vector<uint64_t> values;
    values.reserve(1000000);
    LatencyHistogram h;
    for (int i = 0; i < 1000000; ++i) {
        double x = distribution == u"uniform" ? uni(rng) : distribution == u"lognormal" ? logn(rng) : expo(rng);
        const auto v = uint64_t(std::max(1.0, x));
        values.push_back(v);
        h.record(v);
    }
    std::sort(values.begin(), values.end());
    QCOMPARE(h.count(), uint64_t(values.size()));
    QCOMPARE(h.min(), values.front());
    QCOMPARE(h.max(), values.back());
    for (double q : { 0.01, 0.1, 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999 }) {
        const size_t rank = size_t(std::ceil(q * double(values.size())));
        const double exact = double(values[rank - 1]);
        const double got = double(h.percentile(q));
        const double rel = std::fabs(got - exact) / exact;
        QVERIFY2(
            rel < 0.01, qPrintable(QStringLiteral("q=%1 exact=%2 got=%3 rel=%4").arg(q).arg(exact).arg(got).arg(rel)));
    }
    double sum = 0;
    for (auto v : values)
        sum += double(v);
    QVERIFY(std::fabs(h.mean() - sum / double(values.size())) / h.mean() < 1e-9);
}

void TstHistogram::mergeEqualsRecordingEverything()
{
    std::mt19937_64 rng(3);
    LatencyHistogram a, b, all;
    for (int i = 0; i < 50000; ++i) {
        const uint64_t v = rng() % 5000000;
        (i % 3 ? a : b).record(v);
        all.record(v);
    }
    LatencyHistogram m = a;
    m.merge(b);
    QCOMPARE(m.count(), all.count());
    QCOMPARE(m.min(), all.min());
    QCOMPARE(m.max(), all.max());
    for (double q : { 0.5, 0.99, 0.999 })
        QCOMPARE(m.percentile(q), all.percentile(q));
}

void TstHistogram::jsonRoundTrip()
{
    LatencyHistogram h;
    for (uint64_t v : { 3ull, 300ull, 30000ull, 3000000ull, 3000000ull })
        h.record(v);
    const LatencyHistogram back = LatencyHistogram::fromJson(h.toJson());
    QCOMPARE(back.count(), h.count());
    QCOMPARE(back.min(), h.min());
    QCOMPARE(back.max(), h.max());
    QCOMPARE(back.percentile(0.5), h.percentile(0.5));
    QCOMPARE(back.percentile(1.0), h.percentile(1.0));
}

void TstHistogram::emptyAndTiny()
{
    LatencyHistogram h;
    QCOMPARE(h.percentile(0.5), uint64_t(0));
    QCOMPARE(h.count(), uint64_t(0));
    h.record(5);
    QCOMPARE(h.percentile(0.0), uint64_t(5));
    QCOMPARE(h.percentile(1.0), uint64_t(5));
    h.record(uint64_t(1) << 50); // beyond the range: counted in the last bucket, max kept exact
    QCOMPARE(h.max(), uint64_t(1) << 50);
    QCOMPARE(h.percentile(1.0), uint64_t(1) << 50);
}

QTEST_GUILESS_MAIN(TstHistogram)
#include "tst_histogram.moc"
