#include "core/ldap/accessdistribution.h"

#include <QTest>

#include <cmath>
#include <thread>
#include <utility>
#include <vector>

using Dist = AccessDistribution;

namespace {

// Upper critical value of chi-square with k degrees of freedom at 99.9 % (Wilson-Hilferty; good for k >= 30).
double chiSquareCritical999(double k)
{
    const double z = 3.090232306; // standard normal 0.999 quantile
    const double a = 2.0 / (9.0 * k);
    return k * std::pow(1.0 - a + z * std::sqrt(a), 3.0);
}

double chiSquare(const std::vector<double>& observed, const std::vector<double>& expected)
{
    double c = 0;
    for (size_t i = 0; i < observed.size(); ++i)
        c += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
    return c;
}

double harmonic(uint64_t n, double s)
{
    double h = 0;
    for (uint64_t k = n; k >= 1; --k)
        h += std::pow(double(k), -s);
    return h;
}

} // namespace

class TstAccessDistribution : public QObject
{
    Q_OBJECT
private slots:
    void uniformChiSquare_data()
    {
        QTest::addColumn<quint64>("n");
        QTest::newRow("100 keys") << quint64(100);
        QTest::newRow("1000003 keys in 100 bins") << quint64(1000003);
        QTest::newRow("2^40 keys in 100 bins") << (quint64(1) << 40);
    }

    void uniformChiSquare()
    {
        QFETCH(quint64, n);
        const auto sampler = Dist::uniform().sampler(n);
        Dist::Rng rng(12345);
        std::vector<double> bins(100, 0.0);
        const int draws = 1000000;
        for (int i = 0; i < draws; ++i) {
            const uint64_t k = sampler.next(rng);
            QVERIFY(k < n);
            bins[size_t(double(k) * 100.0 / double(n))] += 1;
        }
        // Bins of keys: with n not a multiple of 100 some bins hold one key more; the expectation follows.
        std::vector<double> expected(100);
        for (size_t b = 0; b < 100; ++b) {
            const double lo = std::ceil(double(b) * double(n) / 100.0),
                         hi = std::ceil(double(b + 1) * double(n) / 100.0);
            expected[b] = draws * (hi - lo) / double(n);
        }
        const double chi = chiSquare(bins, expected);
        qInfo("uniform n=%llu: chi-square %.1f (99.9%% critical %.1f)", static_cast<unsigned long long>(n), chi,
            chiSquareCritical999(99));
        QVERIFY2(chi < chiSquareCritical999(99), qPrintable(QString::number(chi)));
    }

    void sequentialExact()
    {
        const auto sampler = Dist::sequential().sampler(7);
        Dist::Rng rng(1);
        for (int i = 0; i < 30; ++i)
            QCOMPARE(sampler.next(rng), uint64_t(i % 7));
        const auto copy = sampler; // copies share the counter: 30 % 7 = 2 comes next
        QCOMPARE(copy.next(rng), uint64_t(2));
        QCOMPARE(sampler.next(rng), uint64_t(3));
        const auto fresh = Dist::sequential().sampler(7); // a new sampler starts at 0
        QCOMPARE(fresh.next(rng), uint64_t(0));
        QCOMPARE(fresh.keyOfRank(5), uint64_t(5)); // not scrambled
    }

    void sequentialSharedAcrossThreads()
    {
        const uint64_t n = 200000;
        const auto sampler = Dist::sequential().sampler(n);
        std::vector<uint64_t> a, b;
        const auto work = [&sampler](std::vector<uint64_t>* out) {
            Dist::Rng rng(2);
            for (int i = 0; i < 100000; ++i)
                out->push_back(sampler.next(rng));
        };
        std::thread ta(work, &a), tb(work, &b);
        ta.join();
        tb.join();
        std::vector<int> seen(n, 0);
        for (uint64_t k : a)
            ++seen[k];
        for (uint64_t k : b)
            ++seen[k];
        for (uint64_t k = 0; k < n; ++k)
            QCOMPARE(seen[k], 1);
    }

    void zipfMatchesExactProbabilities_data()
    {
        QTest::addColumn<double>("s");
        QTest::newRow("zipf:1.0") << 1.0;
        QTest::newRow("zipf:0.8") << 0.8;
        QTest::newRow("zipf:1.5") << 1.5;
    }

    void zipfMatchesExactProbabilities()
    {
        QFETCH(double, s);
        const uint64_t n = 1000;
        const auto sampler = Dist::zipf(s).sampler(n);
        const Dist::Scramble scramble(n);
        Dist::Rng rng(777);
        const int draws = 1000000;
        std::vector<double> count(n, 0.0);
        for (int i = 0; i < draws; ++i) {
            const uint64_t key = sampler.next(rng);
            QVERIFY(key < n);
            count[scramble.inverse(key)] += 1;
        }
        const double h = harmonic(n, s);
        std::vector<double> expected(n);
        for (uint64_t k = 0; k < n; ++k) {
            expected[k] = draws * std::pow(double(k + 1), -s) / h;
            QVERIFY(std::fabs(sampler.probabilityOfRank(k) * draws - expected[k]) < 1e-9 * draws);
        }
        for (uint64_t k = 0; k < 10; ++k) {
            const double rel = std::fabs(count[k] - expected[k]) / expected[k];
            QVERIFY2(rel < 0.04,
                qPrintable(QStringLiteral("rank %1: %2 drawn, %3 expected").arg(k).arg(count[k]).arg(expected[k])));
        }
        const double chi = chiSquare(count, expected);
        qInfo("zipf:%g n=1000: top rank %.0f drawn / %.0f expected; chi-square over all ranks %.1f (99.9%% critical "
              "%.1f)",
            s, count[0], expected[0], chi, chiSquareCritical999(double(n - 1)));
        QVERIFY2(chi < chiSquareCritical999(double(n - 1)), qPrintable(QString::number(chi)));
    }

    void zipfLargeRange()
    {
        const uint64_t n = 10000000;
        const auto sampler = Dist::zipf(1.0).sampler(n);
        const Dist::Scramble scramble(n);
        Dist::Rng rng(99);
        const int draws = 400000;
        int top = 0, topTen = 0;
        for (int i = 0; i < draws; ++i) {
            const uint64_t key = sampler.next(rng);
            QVERIFY(key < n);
            const uint64_t rank = scramble.inverse(key);
            top += rank == 0;
            topTen += rank < 10;
        }
        const double h = Dist::zipfNormalisation(n, 1.0);
        const double pTopTen = harmonic(10, 1.0) / h;
        QVERIFY2(std::fabs(top / double(draws) - 1.0 / h) < 0.05 / h, qPrintable(QString::number(top)));
        QVERIFY2(std::fabs(topTen / double(draws) - pTopTen) < 0.02 * pTopTen, qPrintable(QString::number(topTen)));
    }

    void zipfNormalisation()
    {
        // The Euler-Maclaurin path (n > 10000) against a plain sum, and H(10^7, 1) against ln n + gamma + 1/2n.
        for (double s : { 0.6, 0.8, 1.0, 1.2, 1.5 }) {
            const double exact = harmonic(50000, s);
            QVERIFY2(
                std::fabs(Dist::zipfNormalisation(50000, s) - exact) < 1e-11 * exact, qPrintable(QString::number(s)));
        }
        const double n = 1e7;
        const double h = std::log(n) + 0.5772156649015329 + 1.0 / (2 * n) - 1.0 / (12 * n * n);
        QVERIFY(std::fabs(Dist::zipfNormalisation(10000000, 1.0) - h) < 1e-10);
        QCOMPARE(Dist::zipfNormalisation(1, 1.3), 1.0);
    }

    void hotEightyTwenty()
    {
        const uint64_t n = 1000;
        const auto sampler = Dist::hot(80, 20).sampler(n);
        const Dist::Scramble scramble(n);
        Dist::Rng rng(4242);
        const int draws = 1000000;
        std::vector<double> count(n, 0.0);
        for (int i = 0; i < draws; ++i)
            count[scramble.inverse(sampler.next(rng))] += 1;
        double hot = 0;
        for (uint64_t k = 0; k < 200; ++k)
            hot += count[k];
        const double fraction = hot / draws;
        qInfo("hot:80/20: %.4f of the draws in the hot set", fraction);
        QVERIFY2(std::fabs(fraction - 0.80) <= 0.005, qPrintable(QString::number(fraction)));
        // Uniform within each set.
        const std::vector<double> hotCounts(count.begin(), count.begin() + 200),
            coldCounts(count.begin() + 200, count.end());
        const std::vector<double> hotExpected(200, hot / 200.0), coldExpected(800, (draws - hot) / 800.0);
        QVERIFY(chiSquare(hotCounts, hotExpected) < chiSquareCritical999(199));
        QVERIFY(chiSquare(coldCounts, coldExpected) < chiSquareCritical999(799));
        QCOMPARE(sampler.probabilityOfRank(0), 0.8 / 200);
        QCOMPARE(sampler.probabilityOfRank(999), 0.2 / 800);
        // Tiny ranges: the hot set keeps at least one key and leaves at least one cold.
        const auto two = Dist::hot(80, 20).sampler(2);
        QCOMPARE(two.probabilityOfRank(0), 0.8);
        const auto one = Dist::hot(80, 20).sampler(1);
        QCOMPARE(one.next(rng), uint64_t(0));
    }

    void scrambleIsBijection_data()
    {
        QTest::addColumn<quint64>("n");
        for (quint64 n : { 1ull, 2ull, 3ull, 5ull, 7ull, 10ull, 64ull, 97ull, 100ull, 1000ull, 1024ull, 7919ull,
                 65536ull, 65537ull, 100000ull, 1000003ull, 1048576ull })
            QTest::newRow(qPrintable(QString::number(n))) << n;
    }

    void scrambleIsBijection()
    {
        QFETCH(quint64, n);
        const Dist::Scramble scramble(n);
        std::vector<char> hit(n, 0);
        for (uint64_t r = 0; r < n; ++r) {
            const uint64_t k = scramble(r);
            QVERIFY(k < n);
            QVERIFY(!hit[k]);
            hit[k] = 1;
            QCOMPARE(scramble.inverse(k), r);
        }
        // Above 2^32 the 128-bit path: the inverse still undoes it.
        const uint64_t big = (uint64_t(1) << 40) + 15;
        const Dist::Scramble large(big);
        for (uint64_t r : { uint64_t(0), uint64_t(1), big / 3, big - 2, big - 1 }) {
            QVERIFY(large(r) < big);
            QCOMPARE(large.inverse(large(r)), r);
        }
    }

    void scrambleSpreadsHotKeys()
    {
        // The 100 hottest of a million keys fall in 100 different tenths-of-a-percent of the range... nearly: at least
        // 90 distinct 1/1000 slices, and the hottest key is not key 0.
        const uint64_t n = 1000000;
        const Dist::Scramble scramble(n);
        QVERIFY(scramble(0) != 0);
        std::vector<char> slice(1000, 0);
        int distinct = 0;
        for (uint64_t r = 0; r < 100; ++r) {
            char& s = slice[scramble(r) / 1000];
            distinct += s == 0;
            s = 1;
        }
        QVERIFY2(distinct >= 90, qPrintable(QString::number(distinct)));
        // The hot set of hot:80/20 touches every 1 % of the range.
        const auto sampler = Dist::hot(80, 20).sampler(n);
        std::vector<char> percent(100, 0);
        for (uint64_t r = 0; r < 200000; ++r)
            percent[sampler.keyOfRank(r) / 10000] = 1;
        for (char p : percent)
            QVERIFY(p);
    }

    void probabilitiesSumToOne()
    {
        for (const Dist& d :
            { Dist::uniform(), Dist::sequential(), Dist::zipf(1.0), Dist::zipf(0.7), Dist::hot(90, 10) }) {
            const auto sampler = d.sampler(12345);
            double sum = 0;
            for (uint64_t k = 0; k < 12345; ++k)
                sum += sampler.probabilityOfRank(k);
            QVERIFY2(std::fabs(sum - 1.0) < 1e-9, qPrintable(d.toString()));
            QCOMPARE(sampler.probabilityOfRank(12345), 0.0);
        }
    }

    void deterministicWithSeed()
    {
        for (const Dist& d : { Dist::uniform(), Dist::zipf(1.0), Dist::hot(80, 20) }) {
            const auto s1 = d.sampler(100000), s2 = d.sampler(100000);
            Dist::Rng a(2024), b(2024), c(2025);
            int same = 0;
            for (int i = 0; i < 1000; ++i) {
                const uint64_t x = s1.next(a);
                QCOMPARE(s2.next(b), x);
                same += s1.next(c) == x;
            }
            QVERIFY2(same < 500, qPrintable(d.toString()));
        }
        Dist::Rng r(7);
        r.reseed(7);
        Dist::Rng r2(7);
        QCOMPARE(r.next(), r2.next());
    }

    void rngBelowIsUniformAtEdges()
    {
        Dist::Rng rng(3);
        for (int i = 0; i < 1000; ++i)
            QCOMPARE(rng.below(1), uint64_t(0));
        const uint64_t n
            = (uint64_t(1) << 63) + 1; // the rejection zone is almost half: must still terminate and stay below n
        for (int i = 0; i < 1000; ++i)
            QVERIFY(rng.below(n) < n);
        double sum = 0;
        for (int i = 0; i < 100000; ++i) {
            const double d = rng.nextDouble();
            QVERIFY(d >= 0.0 && d < 1.0);
            sum += d;
        }
        QVERIFY(std::fabs(sum / 100000 - 0.5) < 0.01);
    }

    void parseValid()
    {
        const std::pair<QString, QString> rows[] = { { "uniform", "uniform" }, { " Sequential ", "sequential" },
            { "zipf:1.0", "zipf:1" }, { "ZIPF:0.8", "zipf:0.8" }, { "zipf: 1.25", "zipf:1.25" },
            { "hot:80/20", "hot:80/20" }, { "hot:99.5/0.5", "hot:99.5/0.5" }, { "hot:0/50", "hot:0/50" } };
        for (const auto& [text, canonical] : rows) {
            ProbeError e;
            const auto d = Dist::parse(text, &e);
            QVERIFY2(d, qPrintable(e.message()));
            QCOMPARE(d->toString(), canonical);
            QCOMPARE(*Dist::parse(d->toString()), *d);
        }
    }

    void parseErrors()
    {
        const std::pair<QString, QString> rows[] = { { "  ", "is empty" },
            { "pareto:2", "unknown distribution 'pareto:2'" }, { "zipf", "zipf needs an exponent" },
            { "zipf:abc", "zipf exponent 'abc' is not a number" }, { "zipf:0", "zipf exponent 0 is out of range" },
            { "zipf:-1", "out of range" }, { "zipf:11", "out of range" }, { "zipf:nan", "is not a number" },
            { "hot", "hot needs P/Q" }, { "hot:80", "hot needs P/Q" }, { "hot:x/20", "P 'x' is not a number" },
            { "hot:80/", "Q '' is not a number" }, { "hot:101/20", "P 101 is out of range" },
            { "hot:80/0", "Q 0 is out of range" }, { "hot:80/100", "Q 100 is out of range" } };
        for (const auto& [text, expected] : rows) {
            ProbeError e;
            QVERIFY2(!Dist::parse(text, &e), qPrintable(text));
            QCOMPARE(e.kind, ProbeError::Kind::InvalidSpec);
            QCOMPARE(e.field, QStringLiteral("access"));
            QVERIFY2(e.message().startsWith(u"access: "), qPrintable(e.message()));
            QVERIFY2(e.message().contains(expected), qPrintable(e.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TstAccessDistribution)
#include "tst_accessdistribution.moc"
