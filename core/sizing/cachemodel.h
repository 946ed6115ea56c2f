#pragma once

#include "core/ldap/accessdistribution.h"

#include <cstdint>

// Entry-cache coverage -> hit ratio -> throughput (shared/reference/ldap-tools-and-sizing.md §4).
//
// Service-time model (§4.1, "average memory access time"): a saturated server with hit ratio h serves
//     X(h) = 1 / (h·t_hit + (1 − h)·t_miss)
// so 1/X is linear in h and throughput interpolates harmonically between the end points.
//
// Hit ratio from coverage c (the fraction of the n entries the cache holds) depends on how requests pick entries
// (the AccessDistribution of a load run):
//   uniform     h = c (any policy)
//   sequential  LRU: 0 below full coverage (a cyclic scan evicts every entry before its next use); static: c
//   zipf:S      LRU by Che's approximation (Che, Tung, Wang 2002; Fricker, Robert, Roberts 2012): solve
//               Σ_i (1 − e^(−p_i·T)) = C for the characteristic time T, then h = Σ_i p_i·(1 − e^(−p_i·T));
//               static (ideal LFU, the top C keys): h = H(C, S) / H(n, S)
//   hot:P/Q     the same two sums over the hot and the cold class (two probabilities, closed form)
// 389's entry cache is LRU (HP guide, page 9), so Lru is the default.
namespace CacheModel {

enum class Policy
{
    Lru, // Che's approximation (independent reference model)
    Static // the C most popular keys stay cached (ideal LFU): an upper bound for any policy
};

// X(h) in ops/s for service times in seconds.
double throughput(double hitRatio, double tHit, double tMiss);
// The hit ratio at which X(h) = opsPerSec: (t_miss − 1/X) / (t_miss − t_hit). Outside [0, 1] when out of reach.
double hitRatioFor(double opsPerSec, double tHit, double tMiss);

struct CheSolution
{
    double characteristicTime = 0; // T_C, in requests
    double hitRatio = 0;
    double occupancy = 0; // Σ(1 − e^(−p_i·T)) at the solution (= cache keys, to the tolerance)
    int iterations = 0;
};

// Che's approximation for an LRU cache of `cacheKeys` of n keys drawn by `dist`. O(min(n, 4096) + a few hundred)
// per evaluation: ranks below 4096 are summed exactly, the Zipf tail by Gauss-Legendre quadrature of the sum's
// integral in log-rank (error far below 1e-9 in h), so n up to 10^7 and beyond costs the same. The root is found
// by Newton's method from T = C, which never overshoots (the occupancy is concave and below T), with -expm1 for
// small arguments.
CheSolution che(const AccessDistribution& dist, uint64_t n, double cacheKeys);

// The sums of Che's approximation at a given T (exposed for tests: compare with brute force).
struct CheSums
{
    double occupancy = 0; // Σ (1 − e^(−p_i·T))
    double slope = 0; // d occupancy / dT = Σ p_i·e^(−p_i·T)
    double hitRatio = 0; // Σ p_i·(1 − e^(−p_i·T))
};
CheSums cheSums(const AccessDistribution& dist, uint64_t n, double t);

// Hit ratio at coverage c in [0, 1] (clamped).
double hitRatio(const AccessDistribution& dist, uint64_t n, double coverage, Policy policy = Policy::Lru);
// The smallest coverage whose hit ratio reaches h (bisection to 1e-9; h clamped to [0, 1]).
double coverageFor(const AccessDistribution& dist, uint64_t n, double hitRatio, Policy policy = Policy::Lru);

} // namespace CacheModel
