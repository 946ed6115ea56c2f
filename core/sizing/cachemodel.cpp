#include "core/sizing/cachemodel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace CacheModel {

namespace {

using Kind = AccessDistribution::Kind;

constexpr uint64_t kExactHead = 4096; // Zipf ranks summed term by term
constexpr double kPanelWidth = 0.1; // Gauss-Legendre panels over ln(rank)

// 8-point Gauss-Legendre on [-1, 1].
constexpr double kGlNode[4] = { 0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363 };
constexpr double kGlWeight[4] = { 0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763 };

struct Acc
{
    double occupancy = 0;
    double slope = 0;
    double hit = 0;

    // `weight` keys of probability p each.
    void add(double p, double t, double weight)
    {
        const double y = p * t;
        const double miss = -std::expm1(-y); // 1 - e^-y, exact for small y
        occupancy += weight * miss;
        slope += weight * p * std::exp(-y);
        hit += weight * p * miss;
    }
};

// The hot set's size, found from the sampler's own probabilities (the first rank whose probability differs from
// rank 0's); n when every rank is alike.
uint64_t hotCount(const AccessDistribution::Sampler& s)
{
    const uint64_t n = s.keyCount();
    const double p0 = s.probabilityOfRank(0);
    if (n < 2 || s.probabilityOfRank(n - 1) == p0)
        return n;
    uint64_t lo = 0, hi = n - 1; // p(lo) == p0, p(hi) != p0
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (s.probabilityOfRank(mid) == p0)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

void addZipf(Acc& acc, const AccessDistribution& dist, const AccessDistribution::Sampler& s, double t)
{
    const uint64_t n = s.keyCount();
    const uint64_t head = std::min(n, kExactHead);
    for (uint64_t r = 0; r < head; ++r)
        acc.add(s.probabilityOfRank(r), t, 1.0);
    if (head == n)
        return;
    // Ranks head..n-1 hold p(x) = p0 * x^-S at x = rank + 1 in [head + 1, n]; their sum is the integral over
    // [head + 0.5, n + 0.5] (midpoint rule, error ~ f'/24 per end: negligible at x > 4096), taken in u = ln x.
    const double p0 = s.probabilityOfRank(0);
    const double alpha = dist.exponent();
    const double ua = std::log(double(head) + 0.5), ub = std::log(double(n) + 0.5);
    const int panels = std::max(1, int(std::ceil((ub - ua) / kPanelWidth)));
    const double h = (ub - ua) / panels;
    for (int i = 0; i < panels; ++i) {
        const double mid = ua + (i + 0.5) * h;
        for (int k = 0; k < 4; ++k) {
            for (const double sign : { -1.0, 1.0 }) {
                const double u = mid + sign * kGlNode[k] * h / 2;
                const double x = std::exp(u);
                acc.add(p0 * std::exp(-alpha * u), t, kGlWeight[k] * h / 2 * x);
            }
        }
    }
}

} // namespace

double throughput(double hitRatio, double tHit, double tMiss)
{
    const double t = hitRatio * tHit + (1.0 - hitRatio) * tMiss;
    return t > 0 ? 1.0 / t : std::numeric_limits<double>::infinity();
}

double hitRatioFor(double opsPerSec, double tHit, double tMiss)
{
    if (opsPerSec <= 0 || tMiss == tHit)
        return std::numeric_limits<double>::quiet_NaN();
    return (tMiss - 1.0 / opsPerSec) / (tMiss - tHit);
}

CheSums cheSums(const AccessDistribution& dist, uint64_t n, double t)
{
    n = std::max<uint64_t>(n, 1);
    const auto s = dist.sampler(n);
    Acc acc;
    switch (dist.kind()) {
    case Kind::Uniform:
    case Kind::Sequential:
        acc.add(1.0 / double(n), t, double(n));
        break;
    case Kind::Hot: {
        const uint64_t hot = hotCount(s);
        acc.add(s.probabilityOfRank(0), t, double(hot));
        if (hot < n)
            acc.add(s.probabilityOfRank(n - 1), t, double(n - hot));
        break;
    }
    case Kind::Zipf:
        addZipf(acc, dist, s, t);
        break;
    }
    return { acc.occupancy, acc.slope, acc.hit };
}

CheSolution che(const AccessDistribution& dist, uint64_t n, double cacheKeys)
{
    n = std::max<uint64_t>(n, 1);
    CheSolution out;
    if (!(cacheKeys > 0))
        return out;
    if (cacheKeys >= double(n)) {
        out.characteristicTime = std::numeric_limits<double>::infinity();
        out.hitRatio = 1.0;
        out.occupancy = double(n);
        return out;
    }
    // The occupancy S(T) is increasing and concave with S(T) <= T, so Newton from T = C climbs to the root
    // without overshooting.
    double t = cacheKeys;
    CheSums s = cheSums(dist, n, t);
    for (out.iterations = 1; out.iterations < 1000; ++out.iterations) {
        const double gap = cacheKeys - s.occupancy;
        if (gap <= 1e-11 * cacheKeys || s.slope <= 0)
            break;
        const double next = t + gap / s.slope;
        if (!(next > t * (1 + 1e-15)))
            break;
        t = next;
        s = cheSums(dist, n, t);
    }
    out.characteristicTime = t;
    out.hitRatio = std::clamp(s.hitRatio, 0.0, 1.0);
    out.occupancy = s.occupancy;
    return out;
}

double hitRatio(const AccessDistribution& dist, uint64_t n, double coverage, Policy policy)
{
    n = std::max<uint64_t>(n, 1);
    const double c = std::clamp(coverage, 0.0, 1.0);
    if (c <= 0)
        return 0.0;
    if (c >= 1)
        return 1.0;
    const double keys = c * double(n);
    switch (dist.kind()) {
    case Kind::Uniform:
        return c;
    case Kind::Sequential:
        return policy == Policy::Lru ? 0.0 : c;
    case Kind::Zipf:
        if (policy == Policy::Static) {
            const double m = std::floor(keys);
            const uint64_t mi = uint64_t(m);
            const double head = mi > 0 ? AccessDistribution::zipfNormalisation(mi, dist.exponent()) : 0.0;
            const double partial = (keys - m) * std::pow(m + 1.0, -dist.exponent());
            return std::clamp((head + partial) / AccessDistribution::zipfNormalisation(n, dist.exponent()), 0.0, 1.0);
        }
        break;
    case Kind::Hot:
        if (policy == Policy::Static) {
            const auto s = dist.sampler(n);
            const double hot = double(hotCount(s));
            const double ph = s.probabilityOfRank(0), pc = s.probabilityOfRank(n - 1);
            return std::clamp(keys <= hot ? keys * ph : hot * ph + (keys - hot) * pc, 0.0, 1.0);
        }
        break;
    }
    return che(dist, n, keys).hitRatio;
}

double coverageFor(const AccessDistribution& dist, uint64_t n, double h, Policy policy)
{
    if (!(h > 0))
        return 0.0;
    if (h >= 1)
        return 1.0;
    if (dist.kind() == Kind::Uniform)
        return h;
    double lo = 0, hi = 1;
    while (hi - lo > 1e-9) {
        const double mid = (lo + hi) / 2;
        if (hitRatio(dist, n, mid, policy) >= h)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

} // namespace CacheModel
