#pragma once

#include "core/common/proberror.h"
#include "core/ldap/accessdistribution.h"
#include "core/sizing/cachemodel.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// One measured point of a coverage sweep: the entry cache held `coverage` of the entries and the server did
// `opsPerSec`; `hitRatio` is the interval hit ratio (Δhits/Δtries) when the server exposed it.
struct CurvePoint
{
    double coverage = 0;
    double opsPerSec = 0;
    std::optional<double> hitRatio;
};

struct CurveFitOptions
{
    quint64 entries = 0; // N, the entries the coverage is a fraction of (> 0)
    // How coverage maps to hit ratio: a known access distribution (the run's --access), or none to fit a Zipf
    // exponent S in [minExponent, maxExponent] (S = 0 is uniform).
    std::optional<AccessDistribution> access;
    double minExponent = 0.0;
    double maxExponent = 1.5;
    CacheModel::Policy policy = CacheModel::Policy::Lru;
    double bandSigmas = 2.0; // the band is ± this many standard errors of the fitted mean
};

struct CurveResidual
{
    double coverage = 0;
    double hitRatio = 0; // measured, or the model's at this coverage
    bool hitMeasured = false;
    double measured = 0; // ops/s
    double predicted = 0; // ops/s
    double residual = 0; // measured − predicted, ops/s
    double relative = 0; // residual / predicted
};

// The fitted model X(c) = 1 / (t_miss − (t_miss − t_hit)·h(c)) (reference §4.3).
//   t_hit, t_miss: ordinary least squares of y = 1/X on h, y = a + b·h: t_miss = a, t_hit = a + b.
//   h(c): measured hit ratios, the given distribution, or Zipf(S) with S fitted: by Σ(h_k − h(c_k; S))² when hit
//   ratios were measured (step 2), else jointly: for each S the linear fit above on h(c_k; S), keeping the S with
//   the least squared error in 1/X (step 3). The search is a grid of 0.05 then golden section to 1e-4.
//   Band: y(h) ± k·s·sqrt(1/n + (h − mean h)² / Sxx) with s² = SSE/(n − 2) — the confidence band of the fitted
//   line, mapped to ops/s. With two points (the guide's end points) it is zero width: nothing to estimate s from.
struct CurveFit
{
    double tHit = 0; // seconds per operation served from the cache
    double tMiss = 0; // seconds per operation that missed the entry cache (DB cache warm)
    double tHitStdErr = 0;
    double tMissStdErr = 0;
    double residualStdErr = 0; // s, in seconds (the 1/X domain)
    double bandSigmas = 2.0;
    int points = 0;
    quint64 entries = 0;
    AccessDistribution access; // what h(c) uses (uniform when S = 0)
    std::optional<double> fittedExponent; // the Zipf S when it was fitted
    CacheModel::Policy policy = CacheModel::Policy::Lru;
    QString method; // "measured hit ratios" | "given distribution" | "joint fit of S"
    QList<CurveResidual> residuals;
    double meanHit = 0;
    double sxx = 0;

    double hitRatioAt(double coverage) const;
    double opsAt(double coverage) const;
    double opsAtHitRatio(double h) const;
    struct Band
    {
        double low = 0;
        double high = 0;
    };
    Band bandAt(double coverage) const;
    double rmsRelativeResidual() const;

    // Predictions. bytesPerEntry: memory one cached entry takes (currententrycachesize / currententrycachecount).
    // The entry-cache bytes needed for `opsPerSec`: nullopt when out of reach (at or above 1/t_hit); 0 when
    // even an empty cache reaches it. `why` says which.
    std::optional<double> cacheBytesFor(double opsPerSec, double bytesPerEntry, QString* why = nullptr) const;
    // ops/s with an entry cache of `cacheBytes` (coverage = cacheBytes / (N × bytesPerEntry), at most 1).
    double opsForCacheBytes(double cacheBytes, double bytesPerEntry) const;
    // The same within the fit's band (bandAt): a prediction is a range, never one figure.
    Band opsBandForCacheBytes(double cacheBytes, double bytesPerEntry) const;
    // The entry-cache bytes for `opsPerSec` within the band: `low` where the band's upper edge reaches it (the
    // optimistic end), `high` where its lower edge does; nullopt for an end the band does not reach with every
    // entry cached.
    struct BytesRange
    {
        std::optional<double> low;
        std::optional<double> high;
    };
    BytesRange cacheBytesRangeFor(double opsPerSec, double bytesPerEntry) const;

    // The curve for a chart: `steps` + 1 points over coverage 0..1 with the band.
    QJsonObject toJson(int steps = 20) const;
};

namespace CurveFitter {

// Needs at least two points with distinct hit ratios (after h(c)); errors name the field "points" or "entries".
std::optional<CurveFit> fit(const QList<CurvePoint>& points, const CurveFitOptions& options, ProbeError* error);

// The exponent S in [lo, hi] that minimises Σ(h_k − h(c_k; S))² for measured (coverage, hit ratio) pairs.
double fitExponentToHitRatios(const QList<CurvePoint>& points, quint64 entries, double lo, double hi,
    CacheModel::Policy policy = CacheModel::Policy::Lru);

} // namespace CurveFitter
