#include "core/sizing/curvefit.h"

#include <QJsonArray>

#include <cmath>
#include <functional>
#include <limits>

namespace {

AccessDistribution zipfOrUniform(double s)
{
    return s > 1e-9 ? AccessDistribution::zipf(s) : AccessDistribution::uniform();
}

struct Line
{
    double a = 0; // intercept: t_miss
    double b = 0; // slope: t_hit − t_miss
    double sse = 0;
    double meanX = 0;
    double sxx = 0;
    int n = 0;
};

// Ordinary least squares of y on x.
std::optional<Line> ols(const std::vector<double>& x, const std::vector<double>& y)
{
    Line l;
    l.n = int(x.size());
    if (l.n < 2)
        return std::nullopt;
    double mx = 0, my = 0;
    for (int i = 0; i < l.n; ++i) {
        mx += x[size_t(i)];
        my += y[size_t(i)];
    }
    mx /= l.n;
    my /= l.n;
    double sxy = 0;
    for (int i = 0; i < l.n; ++i) {
        l.sxx += (x[size_t(i)] - mx) * (x[size_t(i)] - mx);
        sxy += (x[size_t(i)] - mx) * (y[size_t(i)] - my);
    }
    if (!(l.sxx > 1e-12))
        return std::nullopt;
    l.b = sxy / l.sxx;
    l.a = my - l.b * mx;
    l.meanX = mx;
    for (int i = 0; i < l.n; ++i) {
        const double r = y[size_t(i)] - l.a - l.b * x[size_t(i)];
        l.sse += r * r;
    }
    return l;
}

// Grid of 0.05 over [lo, hi], then golden section around the best grid point, to 1e-4.
double minimise(const std::function<double(double)>& f, double lo, double hi)
{
    const int steps = std::max(1, int(std::ceil((hi - lo) / 0.05)));
    int best = 0;
    double bestValue = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= steps; ++i) {
        const double v = f(lo + (hi - lo) * i / steps);
        if (v < bestValue) {
            bestValue = v;
            best = i;
        }
    }
    double a = lo + (hi - lo) * std::max(0, best - 1) / steps;
    double b = lo + (hi - lo) * std::min(steps, best + 1) / steps;
    const double g = (std::sqrt(5.0) - 1) / 2;
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = f(c), fd = f(d);
    while (b - a > 1e-4) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    const double mid = (a + b) / 2;
    const double gridBest = lo + (hi - lo) * best / steps;
    return f(mid) <= bestValue ? mid : gridBest;
}

std::vector<double> modelHits(
    const QList<CurvePoint>& pts, const AccessDistribution& d, quint64 n, CacheModel::Policy policy)
{
    std::vector<double> h;
    h.reserve(size_t(pts.size()));
    for (const auto& p : pts)
        h.push_back(CacheModel::hitRatio(d, n, p.coverage, policy));
    return h;
}

} // namespace

double CurveFit::hitRatioAt(double coverage) const
{
    return CacheModel::hitRatio(access, entries, coverage, policy);
}

double CurveFit::opsAtHitRatio(double h) const
{
    return CacheModel::throughput(h, tHit, tMiss);
}

double CurveFit::opsAt(double coverage) const
{
    return opsAtHitRatio(hitRatioAt(coverage));
}

CurveFit::Band CurveFit::bandAt(double coverage) const
{
    const double h = hitRatioAt(coverage);
    const double y = tMiss + (tHit - tMiss) * h;
    double delta = 0;
    if (points > 0 && sxx > 0)
        delta = bandSigmas * residualStdErr * std::sqrt(1.0 / points + (h - meanHit) * (h - meanHit) / sxx);
    Band b;
    b.low = 1.0 / (y + delta);
    b.high = y - delta > 0 ? 1.0 / (y - delta) : std::numeric_limits<double>::infinity();
    return b;
}

double CurveFit::rmsRelativeResidual() const
{
    if (residuals.isEmpty())
        return 0;
    double s = 0;
    for (const auto& r : residuals)
        s += r.relative * r.relative;
    return std::sqrt(s / residuals.size());
}

std::optional<double> CurveFit::cacheBytesFor(double opsPerSec, double bytesPerEntry, QString* why) const
{
    const double h = CacheModel::hitRatioFor(opsPerSec, tHit, tMiss);
    if (!std::isfinite(h) || h >= 1.0) {
        if (why)
            *why = QStringLiteral("out of reach: the fully cached rate 1/t_hit is %1 ops/s")
                       .arg(QString::number(1.0 / tHit, 'f', 1));
        return std::nullopt;
    }
    if (h <= 0) {
        if (why)
            *why = QStringLiteral("reached without an entry cache: 1/t_miss is %1 ops/s")
                       .arg(QString::number(1.0 / tMiss, 'f', 1));
        return 0.0;
    }
    const double c = CacheModel::coverageFor(access, entries, h, policy);
    if (why)
        *why = QStringLiteral("needs hit ratio %1, coverage %2").arg(h, 0, 'f', 4).arg(c, 0, 'f', 4);
    return c * double(entries) * bytesPerEntry;
}

double CurveFit::opsForCacheBytes(double cacheBytes, double bytesPerEntry) const
{
    const double all = double(entries) * bytesPerEntry;
    return opsAt(all > 0 ? std::min(1.0, cacheBytes / all) : 1.0);
}

CurveFit::Band CurveFit::opsBandForCacheBytes(double cacheBytes, double bytesPerEntry) const
{
    const double all = double(entries) * bytesPerEntry;
    return bandAt(all > 0 ? std::min(1.0, cacheBytes / all) : 1.0);
}

CurveFit::BytesRange CurveFit::cacheBytesRangeFor(double opsPerSec, double bytesPerEntry) const
{
    // The least coverage at which an edge of the band reaches the target (both edges rise with coverage).
    const auto reach = [&](bool upper) -> std::optional<double> {
        const auto edge = [&](double c) { return upper ? bandAt(c).high : bandAt(c).low; };
        if (edge(0) >= opsPerSec)
            return 0.0;
        if (!(edge(1) >= opsPerSec))
            return std::nullopt;
        double lo = 0, hi = 1;
        for (int i = 0; i < 60; ++i) {
            const double mid = (lo + hi) / 2;
            (edge(mid) >= opsPerSec ? hi : lo) = mid;
        }
        return hi * double(entries) * bytesPerEntry;
    };
    return { reach(true), reach(false) };
}

QJsonObject CurveFit::toJson(int steps) const
{
    QJsonArray res;
    for (const auto& r : residuals)
        res.append(QJsonObject { { QStringLiteral("coverage"), r.coverage },
            { QStringLiteral("hit_ratio"), r.hitRatio }, { QStringLiteral("hit_measured"), r.hitMeasured },
            { QStringLiteral("measured"), r.measured }, { QStringLiteral("predicted"), r.predicted },
            { QStringLiteral("residual"), r.residual }, { QStringLiteral("relative"), r.relative } });
    QJsonArray curve;
    for (int i = 0; i <= steps; ++i) {
        const double c = double(i) / steps;
        const Band b = bandAt(c);
        curve.append(QJsonObject { { QStringLiteral("coverage"), c }, { QStringLiteral("hit_ratio"), hitRatioAt(c) },
            { QStringLiteral("ops"), opsAt(c) }, { QStringLiteral("low"), b.low },
            { QStringLiteral("high"), std::isfinite(b.high) ? QJsonValue(b.high) : QJsonValue(QJsonValue::Null) } });
    }
    return QJsonObject { { QStringLiteral("t_hit_us"), tHit * 1e6 }, { QStringLiteral("t_miss_us"), tMiss * 1e6 },
        { QStringLiteral("t_hit_stderr_us"), tHitStdErr * 1e6 },
        { QStringLiteral("t_miss_stderr_us"), tMissStdErr * 1e6 },
        { QStringLiteral("residual_stderr_us"), residualStdErr * 1e6 }, { QStringLiteral("band_sigmas"), bandSigmas },
        { QStringLiteral("points"), points }, { QStringLiteral("entries"), double(entries) },
        { QStringLiteral("access"), access.toString() },
        { QStringLiteral("fitted_exponent"),
            fittedExponent ? QJsonValue(*fittedExponent) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("policy"),
            policy == CacheModel::Policy::Lru ? QStringLiteral("lru") : QStringLiteral("static") },
        { QStringLiteral("method"), method }, { QStringLiteral("rms_relative_residual"), rmsRelativeResidual() },
        { QStringLiteral("residuals"), res }, { QStringLiteral("curve"), curve },
        { QStringLiteral("model"), QStringLiteral("X(c) = 1 / (t_miss - (t_miss - t_hit) * h(c))") } };
}

namespace CurveFitter {

double fitExponentToHitRatios(
    const QList<CurvePoint>& points, quint64 entries, double lo, double hi, CacheModel::Policy policy)
{
    return minimise(
        [&](double s) {
            const auto d = zipfOrUniform(s);
            double sse = 0;
            for (const auto& p : points) {
                const double r = p.hitRatio.value_or(0) - CacheModel::hitRatio(d, entries, p.coverage, policy);
                sse += r * r;
            }
            return sse;
        },
        lo, hi);
}

std::optional<CurveFit> fit(const QList<CurvePoint>& points, const CurveFitOptions& o, ProbeError* error)
{
    auto fail = [&](const char* field, const QString& why) -> std::optional<CurveFit> {
        if (error)
            *error = ProbeError::invalid(QLatin1String(field), why);
        return std::nullopt;
    };
    if (o.entries == 0)
        return fail("entries", QStringLiteral("the entry count must be at least 1"));
    if (points.size() < 2)
        return fail("points", QStringLiteral("at least two measured points are needed, got %1").arg(points.size()));
    if (!(o.minExponent >= 0) || !(o.maxExponent >= o.minExponent) || o.maxExponent > 10)
        return fail("access", QStringLiteral("the exponent range must lie within [0, 10]"));
    bool allMeasured = true;
    for (const auto& p : points) {
        if (!(p.coverage >= 0 && p.coverage <= 1))
            return fail("points", QStringLiteral("coverage %1 is not a fraction in [0, 1]").arg(p.coverage));
        if (!(p.opsPerSec > 0) || !std::isfinite(p.opsPerSec))
            return fail("points", QStringLiteral("throughput %1 is not a rate > 0").arg(p.opsPerSec));
        if (p.hitRatio && !(*p.hitRatio >= 0 && *p.hitRatio <= 1))
            return fail("points", QStringLiteral("hit ratio %1 is not a fraction in [0, 1]").arg(*p.hitRatio));
        allMeasured = allMeasured && p.hitRatio.has_value();
    }
    std::vector<double> y;
    for (const auto& p : points)
        y.push_back(1.0 / p.opsPerSec);

    CurveFit f;
    f.entries = o.entries;
    f.policy = o.policy;
    f.bandSigmas = o.bandSigmas;
    std::vector<double> h;
    if (allMeasured) {
        for (const auto& p : points)
            h.push_back(*p.hitRatio);
        f.method = QStringLiteral("measured hit ratios");
        if (o.access) {
            f.access = *o.access;
        } else {
            const double s = fitExponentToHitRatios(points, o.entries, o.minExponent, o.maxExponent, o.policy);
            f.access = zipfOrUniform(s);
            f.fittedExponent = s;
        }
    } else if (o.access) {
        f.access = *o.access;
        h = modelHits(points, f.access, o.entries, o.policy);
        f.method = QStringLiteral("given distribution");
    } else {
        const double s = minimise(
            [&](double e) {
                const auto line = ols(modelHits(points, zipfOrUniform(e), o.entries, o.policy), y);
                return line ? line->sse : std::numeric_limits<double>::infinity();
            },
            o.minExponent, o.maxExponent);
        f.access = zipfOrUniform(s);
        f.fittedExponent = s;
        h = modelHits(points, f.access, o.entries, o.policy);
        f.method = QStringLiteral("joint fit of S");
    }
    const auto line = ols(h, y);
    if (!line)
        return fail("points", QStringLiteral("the points' hit ratios do not differ: no slope to fit"));
    f.tMiss = line->a;
    f.tHit = line->a + line->b;
    f.points = line->n;
    f.meanHit = line->meanX;
    f.sxx = line->sxx;
    f.residualStdErr = line->n > 2 ? std::sqrt(line->sse / (line->n - 2)) : 0.0;
    const double s = f.residualStdErr;
    f.tMissStdErr = s * std::sqrt(1.0 / line->n + line->meanX * line->meanX / line->sxx);
    f.tHitStdErr = s * std::sqrt(1.0 / line->n + (1 - line->meanX) * (1 - line->meanX) / line->sxx);
    if (!(f.tHit > 0) || !(f.tMiss > 0))
        return fail("points",
            QStringLiteral("the fit gives a service time <= 0 (t_hit %1 us, t_miss %2 us): the points do not follow "
                           "1/X = t_miss - (t_miss - t_hit) h")
                .arg(f.tHit * 1e6)
                .arg(f.tMiss * 1e6));
    for (int i = 0; i < points.size(); ++i) {
        CurveResidual r;
        r.coverage = points.at(i).coverage;
        r.hitRatio = h[size_t(i)];
        r.hitMeasured = allMeasured;
        r.measured = points.at(i).opsPerSec;
        r.predicted = f.opsAtHitRatio(r.hitRatio);
        r.residual = r.measured - r.predicted;
        r.relative = r.residual / r.predicted;
        f.residuals.append(r);
    }
    return f;
}

} // namespace CurveFitter
