#include "core/ldap/accessdistribution.h"
#include "core/sizing/cachemodel.h"
#include "core/sizing/referencecurve.h"

#include <QTest>

#include <cmath>
#include <vector>

using Dist = AccessDistribution;
using CacheModel::Policy;

namespace {

// A real LRU cache of `capacity` keys fed by the distribution's own sampler: the ground truth for Che.
double simulateLru(const Dist& dist, uint64_t n, uint64_t capacity, int warmup, int measured, uint64_t seed)
{
    const auto sampler = dist.sampler(n);
    Dist::Rng rng(seed);
    std::vector<int64_t> prev(n, -1), next(n, -1);
    std::vector<char> cached(n, 0);
    int64_t head = -1, tail = -1;
    uint64_t size = 0;
    auto unlink = [&](int64_t k) {
        if (prev[size_t(k)] >= 0)
            next[size_t(prev[size_t(k)])] = next[size_t(k)];
        else
            head = next[size_t(k)];
        if (next[size_t(k)] >= 0)
            prev[size_t(next[size_t(k)])] = prev[size_t(k)];
        else
            tail = prev[size_t(k)];
    };
    auto pushFront = [&](int64_t k) {
        prev[size_t(k)] = -1;
        next[size_t(k)] = head;
        if (head >= 0)
            prev[size_t(head)] = k;
        head = k;
        if (tail < 0)
            tail = k;
    };
    int64_t hits = 0;
    for (int i = 0; i < warmup + measured; ++i) {
        const auto k = int64_t(sampler.next(rng));
        if (cached[size_t(k)]) {
            if (i >= warmup)
                ++hits;
            unlink(k);
            pushFront(k);
            continue;
        }
        cached[size_t(k)] = 1;
        pushFront(k);
        if (++size > capacity) {
            const int64_t victim = tail;
            unlink(victim);
            cached[size_t(victim)] = 0;
            --size;
        }
    }
    return double(hits) / measured;
}

struct Brute
{
    double occupancy = 0, hit = 0;
};

Brute bruteSums(const Dist& dist, uint64_t n, double t)
{
    const auto s = dist.sampler(n);
    Brute b;
    for (uint64_t r = n; r-- > 0;) { // smallest terms first
        const double p = s.probabilityOfRank(r);
        const double miss = -std::expm1(-p * t);
        b.occupancy += miss;
        b.hit += p * miss;
    }
    return b;
}

} // namespace

class TstCacheModel : public QObject
{
    Q_OBJECT
private slots:
    // Table 5's end points (guide page 15) as service times: t = 1 / X.
    void table5ServiceTimes_data()
    {
        QTest::addColumn<qint64>("entries");
        QTest::addColumn<double>("tHitUs");
        QTest::addColumn<double>("tMissUs");
        QTest::newRow("500k: 54.09 / 90.51 us") << qint64(500000) << 54.09 << 90.51;
        QTest::newRow("100") << qint64(100) << 1e6 / 19597.22 << 1e6 / 12049.68;
        QTest::newRow("1M") << qint64(1000000) << 1e6 / 18398.92 << 1e6 / 10817.41;
    }

    void table5ServiceTimes()
    {
        QFETCH(qint64, entries);
        QFETCH(double, tHitUs);
        QFETCH(double, tMissUs);
        const auto* row = ReferenceCurve::row(entries);
        QVERIFY(row);
        QVERIFY2(std::abs(row->tHit() * 1e6 - tHitUs) < 0.005, qPrintable(QString::number(row->tHit() * 1e6)));
        QVERIFY2(std::abs(row->tMiss() * 1e6 - tMissUs) < 0.005, qPrintable(QString::number(row->tMiss() * 1e6)));
        // the model reproduces its own end points
        QVERIFY(std::abs(CacheModel::throughput(1.0, row->tHit(), row->tMiss()) - row->cachedOpsPerSec) < 1e-6);
        QVERIFY(std::abs(CacheModel::throughput(0.0, row->tHit(), row->tMiss()) - row->uncachedOpsPerSec) < 1e-6);
    }

    void harmonicNotLinear()
    {
        const auto* row = ReferenceCurve::row(500000);
        const double x
            = CacheModel::throughput(CacheModel::hitRatio(Dist::uniform(), 500000, 0.5), row->tHit(), row->tMiss());
        QVERIFY2(std::abs(x - 13831) <= 1, qPrintable(QString::number(x, 'f', 2))); // X(0.5, uniform)
        const double linear = (row->cachedOpsPerSec + row->uncachedOpsPerSec) / 2; // 14,768: the wrong answer
        QVERIFY(std::abs(linear - 14768) < 1);
        QVERIFY(linear - x > 900);
        // the inverse
        QVERIFY(std::abs(CacheModel::hitRatioFor(x, row->tHit(), row->tMiss()) - 0.5) < 1e-12);
    }

    void uniformIsCoverage_data()
    {
        QTest::addColumn<double>("coverage");
        for (double c : { 0.0, 0.01, 0.1, 0.333, 0.5, 0.9, 0.999, 1.0 })
            QTest::newRow(qPrintable(QString::number(c))) << c;
    }

    void uniformIsCoverage()
    {
        QFETCH(double, coverage);
        QCOMPARE(CacheModel::hitRatio(Dist::uniform(), 100000, coverage, Policy::Lru), coverage);
        QCOMPARE(CacheModel::hitRatio(Dist::uniform(), 100000, coverage, Policy::Static), coverage);
        // Che on equal probabilities gives the coverage too (the uniform case is not special-cased there)
        if (coverage > 0 && coverage < 1)
            QVERIFY(std::abs(CacheModel::che(Dist::uniform(), 100000, coverage * 100000).hitRatio - coverage) < 1e-9);
        // a near-uniform Zipf (S -> 0) tends to the coverage
        if (coverage > 0 && coverage < 1)
            QVERIFY(std::abs(CacheModel::hitRatio(Dist::zipf(1e-6), 100000, coverage) - coverage) < 1e-4);
    }

    // The reference's table (§4.2): discrete Zipf, N = 100,000; X from the 500k calibration.
    void referenceTable_data()
    {
        QTest::addColumn<double>("coverage");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("staticH");
        QTest::addColumn<double>("lruH");
        QTest::addColumn<double>("lruX");
        QTest::newRow("c 0.01 a 0.8") << 0.01 << 0.8 << 0.340 << 0.204 << 12038.0;
        QTest::newRow("c 0.01 a 1.0") << 0.01 << 1.0 << 0.619 << 0.506 << 13874.0;
        QTest::newRow("c 0.10 a 0.8") << 0.10 << 0.8 << 0.595 << 0.469 << 13616.0;
        QTest::newRow("c 0.10 a 1.0") << 0.10 << 1.0 << 0.810 << 0.737 << 15709.0;
        QTest::newRow("c 0.25 a 0.8") << 0.25 << 0.8 << 0.734 << 0.638 << 14866.0;
        QTest::newRow("c 0.25 a 1.0") << 0.25 << 1.0 << 0.885 << 0.837 << 16663.0;
        QTest::newRow("c 0.50 a 0.8") << 0.50 << 0.8 << 0.858 << 0.803 << 16327.0;
        QTest::newRow("c 0.50 a 1.0") << 0.50 << 1.0 << 0.943 << 0.918 << 17519.0;
        QTest::newRow("c 0.90 a 0.8") << 0.90 << 0.8 << 0.977 << 0.970 << 18122.0;
        QTest::newRow("c 0.90 a 1.0") << 0.90 << 1.0 << 0.991 << 0.988 << 18343.0;
    }

    void referenceTable()
    {
        QFETCH(double, coverage);
        QFETCH(double, alpha);
        QFETCH(double, staticH);
        QFETCH(double, lruH);
        QFETCH(double, lruX);
        const auto* row = ReferenceCurve::row(500000);
        const Dist z = Dist::zipf(alpha);
        const double hs = CacheModel::hitRatio(z, 100000, coverage, Policy::Static);
        const double hl = CacheModel::hitRatio(z, 100000, coverage, Policy::Lru);
        const double x = CacheModel::throughput(hl, row->tHit(), row->tMiss());
        qInfo("c=%.2f a=%.1f static %.4f LRU %.4f X %.1f", coverage, alpha, hs, hl, x);
        QVERIFY2(std::abs(hs - staticH) <= 0.0015, qPrintable(QString::number(hs, 'f', 5)));
        QVERIFY2(std::abs(hl - lruH) <= 0.0015, qPrintable(QString::number(hl, 'f', 5)));
        QVERIFY2(std::abs(x - lruX) <= 10, qPrintable(QString::number(x, 'f', 1)));
        QVERIFY(hl < hs); // LRU never beats keeping the top C
    }

    void uniformX_data()
    {
        QTest::addColumn<double>("coverage");
        QTest::addColumn<double>("x");
        QTest::newRow("0.01") << 0.01 << 11093.0;
        QTest::newRow("0.10") << 0.10 << 11511.0;
        QTest::newRow("0.25") << 0.25 << 12284.0;
        QTest::newRow("0.50") << 0.50 << 13831.0;
        QTest::newRow("0.90") << 0.90 << 17321.0;
    }

    void uniformX()
    {
        QFETCH(double, coverage);
        QFETCH(double, x);
        const auto* row = ReferenceCurve::row(500000);
        const double got = CacheModel::throughput(
            CacheModel::hitRatio(Dist::uniform(), 100000, coverage), row->tHit(), row->tMiss());
        QVERIFY2(std::abs(got - x) <= 1, qPrintable(QString::number(got, 'f', 2)));
    }

    // Che against a real LRU cache fed by the same sampler (N = 100,000).
    void cheAgreesWithSimulatedLru_data()
    {
        QTest::addColumn<QString>("access");
        QTest::addColumn<double>("coverage");
        QTest::addColumn<double>("expected"); // < 0: no published value
        QTest::newRow("zipf:1 at 10 % -> 0.737") << "zipf:1" << 0.10 << 0.737;
        QTest::newRow("zipf:0.8 at 10 %") << "zipf:0.8" << 0.10 << 0.469;
        QTest::newRow("zipf:1 at 1 %") << "zipf:1" << 0.01 << 0.506;
        QTest::newRow("zipf:1.2 at 5 %") << "zipf:1.2" << 0.05 << -1.0;
        QTest::newRow("hot:80/20 at 10 %") << "hot:80/20" << 0.10 << -1.0;
        QTest::newRow("hot:90/10 at 20 %") << "hot:90/10" << 0.20 << -1.0;
    }

    void cheAgreesWithSimulatedLru()
    {
        QFETCH(QString, access);
        QFETCH(double, coverage);
        QFETCH(double, expected);
        const auto dist = Dist::parse(access);
        QVERIFY(dist);
        const uint64_t n = 100000;
        const double che = CacheModel::hitRatio(*dist, n, coverage);
        const double sim = simulateLru(*dist, n, uint64_t(coverage * n), 1000000, 2000000, 42);
        qInfo("%s c=%.2f: Che %.4f, simulated LRU %.4f", qPrintable(access), coverage, che, sim);
        QVERIFY2(std::abs(che - sim) <= 0.02, qPrintable(QStringLiteral("Che %1 vs LRU %2").arg(che).arg(sim)));
        if (expected >= 0)
            QVERIFY2(std::abs(che - expected) <= 0.005, qPrintable(QString::number(che, 'f', 4)));
    }

    // The head + quadrature sums against the sums over every rank.
    void cheSumsMatchBruteForce_data()
    {
        QTest::addColumn<double>("alpha");
        QTest::addColumn<quint64>("n");
        QTest::addColumn<double>("coverage");
        QTest::newRow("a 1.0, N 1e6, 10 %") << 1.0 << quint64(1000000) << 0.10;
        QTest::newRow("a 0.6, N 1e6, 50 %") << 0.6 << quint64(1000000) << 0.50;
        QTest::newRow("a 1.4, N 2e5, 1 %") << 1.4 << quint64(200000) << 0.01;
        QTest::newRow("a 0.8, N 1e7, 5 %") << 0.8 << quint64(10000000) << 0.05;
        QTest::newRow("a 1.0, N 1e7, 99 %") << 1.0 << quint64(10000000) << 0.99;
    }

    void cheSumsMatchBruteForce()
    {
        QFETCH(double, alpha);
        QFETCH(quint64, n);
        QFETCH(double, coverage);
        const Dist z = Dist::zipf(alpha);
        const auto sol = CacheModel::che(z, n, coverage * double(n));
        QVERIFY(std::isfinite(sol.characteristicTime) && sol.characteristicTime > 0);
        QVERIFY(sol.iterations < 1000);
        const Brute b = bruteSums(z, n, sol.characteristicTime);
        qInfo("a=%.1f N=%llu c=%.2f: T %.6g, h %.8f (brute %.8f), occupancy/C %.9f, %d Newton steps", alpha,
            static_cast<unsigned long long>(n), coverage, sol.characteristicTime, sol.hitRatio, b.hit,
            b.occupancy / (coverage * double(n)), sol.iterations);
        QVERIFY(std::abs(b.occupancy / (coverage * double(n)) - 1) < 1e-6);
        QVERIFY(std::abs(sol.hitRatio - b.hit) < 1e-6);
    }

    void monotoneAndBoundedAtTenMillion()
    {
        const uint64_t n = 10000000;
        for (double alpha : { 0.5, 1.0, 1.5 }) {
            double last = -1;
            for (double c : { 1e-6, 1e-4, 0.01, 0.1, 0.5, 0.9, 0.999999 }) {
                const double h = CacheModel::hitRatio(Dist::zipf(alpha), n, c);
                QVERIFY(std::isfinite(h) && h >= 0 && h <= 1);
                QVERIFY2(
                    h > last, qPrintable(QStringLiteral("a %1 c %2: %3 after %4").arg(alpha).arg(c).arg(h).arg(last)));
                QVERIFY(h >= c - 1e-9); // skew never hurts an LRU under IRM in this model
                last = h;
            }
        }
    }

    void staticZipfIsTheTopKeys()
    {
        // H(M)/H(N) by definition, summed here term by term
        const uint64_t n = 5000, m = 250;
        const auto s = Dist::zipf(0.9).sampler(n);
        double top = 0;
        for (uint64_t r = m; r-- > 0;)
            top += s.probabilityOfRank(r);
        QVERIFY(std::abs(CacheModel::hitRatio(Dist::zipf(0.9), n, double(m) / n, Policy::Static) - top) < 1e-12);
        // hot:80/20, 10 % cached of the 20 % hot set -> half of 80 %
        QVERIFY(
            std::abs(CacheModel::hitRatio(*Dist::parse(QStringLiteral("hot:80/20")), 1000, 0.1, Policy::Static) - 0.4)
            < 1e-12);
    }

    void sequentialDefeatsLru()
    {
        QCOMPARE(CacheModel::hitRatio(Dist::sequential(), 1000, 0.9, Policy::Lru), 0.0);
        QCOMPARE(CacheModel::hitRatio(Dist::sequential(), 1000, 0.9, Policy::Static), 0.9);
        QCOMPARE(CacheModel::hitRatio(Dist::sequential(), 1000, 1.0, Policy::Lru), 1.0);
    }

    void coverageForInverts_data()
    {
        QTest::addColumn<QString>("access");
        QTest::addColumn<double>("h");
        QTest::newRow("zipf:1 h 0.737") << "zipf:1" << 0.737;
        QTest::newRow("zipf:0.7 h 0.5") << "zipf:0.7" << 0.5;
        QTest::newRow("hot:80/20 h 0.9") << "hot:80/20" << 0.9;
        QTest::newRow("uniform h 0.3") << "uniform" << 0.3;
    }

    void coverageForInverts()
    {
        QFETCH(QString, access);
        QFETCH(double, h);
        const auto d = *Dist::parse(access);
        const double c = CacheModel::coverageFor(d, 100000, h);
        QVERIFY(c > 0 && c < 1);
        QVERIFY2(std::abs(CacheModel::hitRatio(d, 100000, c) - h) < 1e-6, qPrintable(QString::number(c)));
        if (access == u"zipf:1" && h == 0.737)
            QVERIFY(std::abs(c - 0.10) < 0.005);
    }
};

QTEST_GUILESS_MAIN(TstCacheModel)
#include "tst_cachemodel.moc"
