#include "core/ldap/accessdistribution.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

__extension__ typedef unsigned __int128 U128;
__extension__ typedef __int128 I128;

uint64_t splitmix64(uint64_t& x)
{
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// The helpers of rejection-inversion (as in Apache Commons RNG's RejectionInversionZipfSampler): with S the
// exponent, h(x) = x^-S, H(x) = (x^(1-S) - 1) / (1 - S), written so that S = 1 (H(x) = log x) is not a special case.
double log1pOverX(double x) // log(1 + x) / x
{
    if (std::fabs(x) > 1e-8)
        return std::log1p(x) / x;
    return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

double expm1OverX(double x) // (exp(x) - 1) / x
{
    if (std::fabs(x) > 1e-8)
        return std::expm1(x) / x;
    return 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
}

double zipfH(double x, double s)
{
    return std::exp(-s * std::log(x));
}

double zipfHIntegral(double x, double s)
{
    const double logX = std::log(x);
    return expm1OverX((1.0 - s) * logX) * logX;
}

double zipfHIntegralInverse(double x, double s)
{
    double t = x * (1.0 - s);
    if (t < -1.0)
        t = -1.0; // rounding at the far end
    return std::exp(log1pOverX(t) * x);
}

bool parseNumber(const QString& text, double* value)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v))
        return false;
    *value = v;
    return true;
}

QString number(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

constexpr auto kForms = u"expected uniform, sequential, zipf:S (e.g. zipf:1.0) or hot:P/Q (e.g. hot:80/20)";

} // namespace

// ---------------------------------------------------------------------------------------------------------------- Rng

void AccessDistribution::Rng::reseed(uint64_t seed)
{
    for (uint64_t& s : m_s)
        s = splitmix64(seed);
}

uint64_t AccessDistribution::Rng::below(uint64_t n)
{
    U128 m = U128(next()) * n;
    uint64_t low = uint64_t(m);
    if (low < n) {
        const uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            m = U128(next()) * n;
            low = uint64_t(m);
        }
    }
    return uint64_t(m >> 64);
}

// ----------------------------------------------------------------------------------------------------------- Scramble

AccessDistribution::Scramble::Scramble(uint64_t n)
    : m_n(n == 0 ? 1 : n)
{
    if (m_n == 1) {
        m_a = 1;
        m_inverseA = 1;
        return;
    }
    const double nd = double(m_n);
    m_a = uint64_t(std::llround(nd * 0.6180339887498949));
    if (m_a == 0 || m_a >= m_n)
        m_a = 1;
    while (std::gcd(m_a, m_n) != 1)
        m_a = m_a + 1 >= m_n ? 1 : m_a + 1;
    m_c = uint64_t(nd * 0.3819660112501051) % m_n;
    // Modular inverse of a by the extended Euclidean algorithm.
    I128 r0 = I128(m_n), r1 = I128(m_a), t0 = 0, t1 = 1;
    while (r1 != 0) {
        const I128 q = r0 / r1;
        const I128 r2 = r0 - q * r1;
        r0 = r1;
        r1 = r2;
        const I128 t2 = t0 - q * t1;
        t0 = t1;
        t1 = t2;
    }
    if (t0 < 0)
        t0 += I128(m_n);
    m_inverseA = uint64_t(t0);
}

uint64_t AccessDistribution::Scramble::operator()(uint64_t rank) const
{
    if (m_n <= (uint64_t(1) << 32)) // a, rank < 2^32: the product and the offset fit in 64 bits
        return (m_a * rank + m_c) % m_n;
    return uint64_t((U128(m_a) * rank + m_c) % m_n);
}

uint64_t AccessDistribution::Scramble::inverse(uint64_t key) const
{
    const uint64_t shifted = key >= m_c ? key - m_c : key + (m_n - m_c);
    return uint64_t(U128(shifted % m_n) * m_inverseA % m_n);
}

// ------------------------------------------------------------------------------------------------------------ Sampler

uint64_t AccessDistribution::Sampler::next(Rng& rng) const
{
    switch (m_kind) {
    case Kind::Uniform:
        return rng.below(m_n);
    case Kind::Sequential:
        return m_counter->fetch_add(1, std::memory_order_relaxed) % m_n;
    case Kind::Zipf:
        return m_scramble(zipfRank(rng));
    case Kind::Hot:
        if (m_n < 2)
            return 0;
        if (rng.nextDouble() < m_hotFraction)
            return m_scramble(rng.below(m_hotCount));
        return m_scramble(m_hotCount + rng.below(m_n - m_hotCount));
    }
    return 0;
}

uint64_t AccessDistribution::Sampler::zipfRank(Rng& rng) const
{
    const double s = m_exponent;
    for (;;) {
        // u is uniform in (H(1.5) - 1, H(n + 0.5)]; invert the envelope, round to the nearest rank, accept or retry.
        const double u = m_hN + rng.nextDouble() * (m_hX1 - m_hN);
        const double x = zipfHIntegralInverse(u, s);
        double k = std::floor(x + 0.5);
        if (k < 1.0)
            k = 1.0;
        else if (k > double(m_n))
            k = double(m_n);
        if (k - x <= m_sBound || u >= zipfHIntegral(k + 0.5, s) - zipfH(k, s))
            return uint64_t(k) - 1;
    }
}

uint64_t AccessDistribution::Sampler::keyOfRank(uint64_t rank) const
{
    return m_kind == Kind::Zipf || m_kind == Kind::Hot ? m_scramble(rank) : rank;
}

double AccessDistribution::Sampler::probabilityOfRank(uint64_t rank) const
{
    if (rank >= m_n)
        return 0.0;
    switch (m_kind) {
    case Kind::Uniform:
    case Kind::Sequential:
        break;
    case Kind::Zipf:
        return std::pow(double(rank + 1), -m_exponent) / m_zipfNorm;
    case Kind::Hot:
        if (m_n < 2)
            return 1.0;
        return rank < m_hotCount ? m_hotFraction / double(m_hotCount)
                                 : (1.0 - m_hotFraction) / double(m_n - m_hotCount);
    }
    return 1.0 / double(m_n);
}

// ------------------------------------------------------------------------------------------------- AccessDistribution

AccessDistribution AccessDistribution::sequential()
{
    AccessDistribution d;
    d.m_kind = Kind::Sequential;
    return d;
}

AccessDistribution AccessDistribution::zipf(double exponent)
{
    Q_ASSERT(exponent > 0 && exponent <= 10);
    AccessDistribution d;
    d.m_kind = Kind::Zipf;
    d.m_exponent = exponent;
    return d;
}

AccessDistribution AccessDistribution::hot(double hotPercent, double hotKeysPercent)
{
    Q_ASSERT(hotPercent >= 0 && hotPercent <= 100 && hotKeysPercent > 0 && hotKeysPercent < 100);
    AccessDistribution d;
    d.m_kind = Kind::Hot;
    d.m_hotPercent = hotPercent;
    d.m_hotKeysPercent = hotKeysPercent;
    return d;
}

std::optional<AccessDistribution> AccessDistribution::parse(const QString& text, ProbeError* error)
{
    const auto fail = [error](const QString& detail) -> std::optional<AccessDistribution> {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("access"), detail);
        return std::nullopt;
    };
    const QString t = text.trimmed().toLower();
    if (t.isEmpty())
        return fail(QStringLiteral("is empty; ") + kForms);
    if (t == u"uniform")
        return uniform();
    if (t == u"sequential")
        return sequential();
    const qsizetype colon = t.indexOf(u':');
    const QString name = colon < 0 ? t : t.left(colon).trimmed();
    const QString arg = colon < 0 ? QString() : t.mid(colon + 1).trimmed();
    if (name == u"zipf") {
        double s = 0;
        if (arg.isEmpty())
            return fail(QStringLiteral("zipf needs an exponent, e.g. zipf:1.0"));
        if (!parseNumber(arg, &s))
            return fail(QStringLiteral("zipf exponent '") + arg + QStringLiteral("' is not a number; e.g. zipf:1.0"));
        if (!(s > 0.0 && s <= 10.0))
            return fail(
                QStringLiteral("zipf exponent ") + arg + QStringLiteral(" is out of range; it must be > 0 and <= 10"));
        return zipf(s);
    }
    if (name == u"hot") {
        const qsizetype slash = arg.indexOf(u'/');
        if (arg.isEmpty() || slash < 0)
            return fail(QStringLiteral("hot needs P/Q: P % of the draws go to Q % of the keys, e.g. hot:80/20"));
        double p = 0, q = 0;
        const QString ps = arg.left(slash).trimmed(), qs = arg.mid(slash + 1).trimmed();
        if (!parseNumber(ps, &p))
            return fail(QStringLiteral("hot: P '") + ps + QStringLiteral("' is not a number; e.g. hot:80/20"));
        if (!parseNumber(qs, &q))
            return fail(QStringLiteral("hot: Q '") + qs + QStringLiteral("' is not a number; e.g. hot:80/20"));
        if (p < 0.0 || p > 100.0)
            return fail(QStringLiteral("hot: P ") + ps
                + QStringLiteral(" is out of range; it is a percentage of draws, 0 to 100"));
        if (!(q > 0.0 && q < 100.0))
            return fail(QStringLiteral("hot: Q ") + qs
                + QStringLiteral(" is out of range; it is a percentage of keys, greater than 0 and less than 100"));
        return hot(p, q);
    }
    return fail(QStringLiteral("unknown distribution '") + text.trimmed() + QStringLiteral("'; ") + kForms);
}

QString AccessDistribution::toString() const
{
    switch (m_kind) {
    case Kind::Uniform:
        break;
    case Kind::Sequential:
        return QStringLiteral("sequential");
    case Kind::Zipf:
        return QStringLiteral("zipf:") + number(m_exponent);
    case Kind::Hot:
        return QStringLiteral("hot:") + number(m_hotPercent) + u'/' + number(m_hotKeysPercent);
    }
    return QStringLiteral("uniform");
}

AccessDistribution::Sampler AccessDistribution::sampler(uint64_t n) const
{
    Sampler s;
    s.m_kind = m_kind;
    s.m_n = n == 0 ? 1 : n;
    switch (m_kind) {
    case Kind::Uniform:
        break;
    case Kind::Sequential:
        s.m_counter = std::make_shared<std::atomic<uint64_t>>(0);
        break;
    case Kind::Zipf: {
        const double e = m_exponent;
        s.m_scramble = Scramble(s.m_n);
        s.m_exponent = e;
        s.m_hX1 = zipfHIntegral(1.5, e) - 1.0;
        s.m_hN = zipfHIntegral(double(s.m_n) + 0.5, e);
        s.m_sBound = 2.0 - zipfHIntegralInverse(zipfHIntegral(2.5, e) - zipfH(2.0, e), e);
        s.m_zipfNorm = zipfNormalisation(s.m_n, e);
        break;
    }
    case Kind::Hot: {
        s.m_scramble = Scramble(s.m_n);
        s.m_hotFraction = m_hotPercent / 100.0;
        const double hotKeys = std::round(double(s.m_n) * m_hotKeysPercent / 100.0);
        s.m_hotCount = s.m_n < 2 ? 1 : uint64_t(std::clamp(hotKeys, 1.0, double(s.m_n - 1)));
        break;
    }
    }
    return s;
}

double AccessDistribution::zipfNormalisation(uint64_t n, double exponent)
{
    const double s = exponent;
    constexpr uint64_t exactUpTo = 10000;
    constexpr uint64_t m = 1000;
    if (n <= exactUpTo) {
        double sum = 0;
        for (uint64_t k = n; k >= 1; --k) // smallest terms first
            sum += std::pow(double(k), -s);
        return sum;
    }
    double head = 0;
    for (uint64_t k = m - 1; k >= 1; --k)
        head += std::pow(double(k), -s);
    // Euler-Maclaurin for the sum of f(k) = k^-s over k = m..n, with the B2 and B4 terms.
    const double md = double(m), nd = double(n);
    const auto f = [s](double x) { return std::pow(x, -s); };
    const auto f1 = [s](double x) { return -s * std::pow(x, -s - 1.0); };
    const auto f3 = [s](double x) { return -s * (s + 1.0) * (s + 2.0) * std::pow(x, -s - 3.0); };
    const double integral = zipfHIntegral(nd, s) - zipfHIntegral(md, s);
    const double tail = integral + (f(md) + f(nd)) / 2.0 + (f1(nd) - f1(md)) / 12.0 - (f3(nd) - f3(md)) / 720.0;
    return head + tail;
}
