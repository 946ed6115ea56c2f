#include "core/experiments/replicationknee.h"

#include <algorithm>
#include <cmath>

namespace {

double percentile(const std::vector<double>& sorted, double q)
{
    const auto rank = size_t(std::ceil(q * double(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

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

ReplicationKnee::StepLag ReplicationKnee::stepLag(
    const std::vector<qint64>& acks, const std::vector<qint64>& seen, qint64 beginNs, qint64 endNs, qint64 nowNs)
{
    StepLag s;
    std::vector<double> all, seenAt, seenLag;
    for (size_t k = 0; k < acks.size(); ++k) {
        const qint64 ack = acks[k];
        if (ack <= 0 || ack < beginNs || ack >= endNs)
            continue;
        ++s.markers;
        if (k >= seen.size()) {
            ++s.unseen;
            all.push_back(double(std::max<qint64>(nowNs - ack, 0)) / 1e6);
            continue;
        }
        const double lag = double(std::max<qint64>(seen[k] - ack, 0)) / 1e6;
        all.push_back(lag);
        seenAt.push_back(double(ack - beginNs) / 1e9);
        seenLag.push_back(lag);
    }
    if (!all.empty()) {
        std::sort(all.begin(), all.end());
        s.p50Ms = percentile(all, 0.5);
        s.p99Ms = percentile(all, 0.99);
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
