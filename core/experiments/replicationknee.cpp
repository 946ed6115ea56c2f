#include "core/experiments/replicationknee.h"

#include "core/experiments/replicationlag.h"

#include <algorithm>
#include <cmath>

namespace {

// y against x by least squares; nullopt below two points or when every x is the same.
std::optional<double> slope(const std::vector<double>& x, const std::vector<double>& y)
{
    const size_t n = x.size();
    if (n < 2)
        return std::nullopt;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= double(n);
    my /= double(n);
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
    }
    if (sxx <= 0)
        return std::nullopt;
    return sxy / sxx;
}

} // namespace

ReplicationKnee::StepLag ReplicationKnee::stepLag(const std::vector<qint64>& acks, const std::vector<qint64>& sends,
    const std::vector<qint64>& seen, qint64 beginNs, qint64 endNs, qint64 nowNs)
{
    StepLag s;
    const ReplicationLag::Lags l = ReplicationLag::lags(acks, sends, seen, nowNs, beginNs, endNs);
    s.markers = qint64(l.fromAckMs.size());
    s.unseen = l.censoredCount();
    if (const std::optional<ReplicationLag::Figures> f = ReplicationLag::figures(l.fromAckMs, l.censored)) {
        s.p50Ms = f->p50;
        s.p99Ms = f->p99;
        s.p99AtLeast = f->p99AtLeast;
    }
    if (const std::optional<ReplicationLag::Figures> f = ReplicationLag::figures(l.fromSendMs, l.censored);
        f && !sends.empty()) {
        s.p50FromSendMs = f->p50;
        s.p99FromSendMs = f->p99;
    }
    std::vector<double> seenAt, seenLag;
    for (size_t k = 0; k < acks.size(); ++k) {
        if (acks[k] <= 0 || acks[k] < beginNs || acks[k] >= endNs || k >= seen.size())
            continue;
        seenAt.push_back(double(acks[k] - beginNs) / 1e9);
        seenLag.push_back(double(std::max<qint64>(seen[k] - acks[k], 0)) / 1e6);
    }
    s.slopeMsPerS = slope(seenAt, seenLag);
    return s;
}

bool ReplicationKnee::growing(const StepLag& s)
{
    return s.unseen > 0 || (s.slopeMsPerS && *s.slopeMsPerS > 0);
}

std::optional<size_t> ReplicationKnee::kneeStep(const std::vector<StepLag>& steps, double floorMs)
{
    if (steps.empty() || !steps.front().p99Ms)
        return std::nullopt;
    const double threshold = kKneeFactor * std::max(*steps.front().p99Ms, floorMs);
    for (size_t i = 1; i < steps.size(); ++i)
        if (steps[i].p99Ms && *steps[i].p99Ms > threshold && growing(steps[i]))
            return i;
    return std::nullopt;
}
