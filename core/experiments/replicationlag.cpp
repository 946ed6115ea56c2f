#include "core/experiments/replicationlag.h"

#include "core/common/units.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

// The 1-based rank of percentile q among n values (nearest rank), as an index.
size_t rankIndex(size_t n, double q)
{
    const auto rank = size_t(std::ceil(q * double(n)));
    return std::min(n - 1, rank == 0 ? 0 : rank - 1);
}

double rounded(double ms)
{
    return std::round(ms * 1000.0) / 1000.0;
}

} // namespace

qint64 ReplicationLag::Lags::censoredCount() const
{
    return qint64(std::count(censored.begin(), censored.end(), true));
}

ReplicationLag::Lags ReplicationLag::lags(const std::vector<qint64>& acks, const std::vector<qint64>& sends,
    const std::vector<qint64>& seen, qint64 watchEndNs, qint64 beginNs, qint64 endNs)
{
    Lags out;
    for (size_t k = 0; k < acks.size(); ++k) {
        const qint64 ack = acks[k];
        if (ack <= 0 || ack < beginNs || ack >= endNs)
            continue; // in flight, failed or missed: no acknowledgement to measure from
        const qint64 sent = k < sends.size() && sends[k] > 0 ? sends[k] : ack;
        const bool unseen = k >= seen.size() || seen[k] <= 0;
        const qint64 at = unseen ? std::max(watchEndNs, ack) : seen[k];
        out.seenBeforeAck += !unseen && at < ack ? 1 : 0;
        out.fromAckMs.push_back(double(std::max<qint64>(at - ack, 0)) / 1e6);
        out.fromSendMs.push_back(double(std::max<qint64>(at - sent, 0)) / 1e6);
        out.censored.push_back(unseen);
    }
    return out;
}

std::optional<ReplicationLag::Figures> ReplicationLag::figures(
    const std::vector<double>& ms, const std::vector<bool>& censored)
{
    if (ms.empty())
        return std::nullopt;
    std::vector<size_t> order(ms.size());
    std::iota(order.begin(), order.end(), size_t(0));
    // Among equal values a censored one sorts last: the figure at a tie is exact when an observed value holds it.
    std::sort(order.begin(), order.end(),
        [&](size_t a, size_t b) { return ms[a] != ms[b] ? ms[a] < ms[b] : (!censored[a] && censored[b]); });
    // A true order statistic is never below the one of the lower bounds, and equals it when no censored value
    // stands at or below its rank (the censored values can only move up).
    std::vector<bool> boundUpTo(order.size());
    bool any = false;
    for (size_t i = 0; i < order.size(); ++i)
        boundUpTo[i] = any = any || censored[order[i]];
    Figures f;
    f.count = qint64(ms.size());
    f.censored = qint64(std::count(censored.begin(), censored.end(), true));
    const size_t i50 = rankIndex(order.size(), 0.5), i99 = rankIndex(order.size(), 0.99);
    f.p50 = ms[order[i50]];
    f.p99 = ms[order[i99]];
    f.max = ms[order.back()];
    f.p50AtLeast = boundUpTo[i50];
    f.p99AtLeast = boundUpTo[i99];
    f.maxAtLeast = boundUpTo.back();
    return f;
}

QJsonValue ReplicationLag::figuresJson(const std::vector<double>& ms, const std::vector<bool>& censored)
{
    const std::optional<Figures> f = figures(ms, censored);
    return f ? QJsonValue(f->toJson()) : QJsonValue(QJsonValue::Null);
}

QJsonObject ReplicationLag::Figures::toJson() const
{
    return { { QStringLiteral("p50"), rounded(p50) }, { QStringLiteral("p99"), rounded(p99) },
        { QStringLiteral("max"), rounded(max) }, { QStringLiteral("markers"), count },
        { QStringLiteral("censored"), censored }, { QStringLiteral("p50_at_least"), p50AtLeast },
        { QStringLiteral("p99_at_least"), p99AtLeast }, { QStringLiteral("max_at_least"), maxAtLeast } };
}

std::optional<ReplicationLag::Figures> ReplicationLag::Figures::fromJson(const QJsonValue& v)
{
    const QJsonObject o = v.toObject();
    if (!o.value(QStringLiteral("p99")).isDouble())
        return std::nullopt;
    Figures f;
    f.p50 = o.value(QStringLiteral("p50")).toDouble();
    f.p99 = o.value(QStringLiteral("p99")).toDouble();
    f.max = o.value(QStringLiteral("max")).toDouble();
    f.count = qint64(o.value(QStringLiteral("markers")).toDouble());
    f.censored = qint64(o.value(QStringLiteral("censored")).toDouble());
    f.p50AtLeast = o.value(QStringLiteral("p50_at_least")).toBool();
    f.p99AtLeast = o.value(QStringLiteral("p99_at_least")).toBool();
    f.maxAtLeast = o.value(QStringLiteral("max_at_least")).toBool();
    return f;
}

QString ReplicationLag::text(double ms, bool atLeast)
{
    const QString n = Units::formatNumber(ms, 1);
    return atLeast ? QStringLiteral("> ") + n : n;
}
