#include "core/common/histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

int LatencyHistogram::bucketOf(uint64_t value)
{
    if (value < ExactLimit)
        return int(value);
    const int msb = 63 - std::countl_zero(value);
    if (msb >= MaxBits)
        return OverflowBucket;
    const int shift = msb - SubBucketBits; // >= 1
    const int sub = int(value >> shift) - (1 << SubBucketBits); // 0..127
    return int(ExactLimit) + (shift - 1) * (1 << SubBucketBits) + sub;
}

uint64_t LatencyHistogram::bucketLow(int index)
{
    if (index < int(ExactLimit))
        return uint64_t(index);
    if (index >= OverflowBucket)
        return uint64_t(1) << MaxBits;
    const int rel = index - int(ExactLimit);
    const int shift = rel / (1 << SubBucketBits) + 1;
    const uint64_t sub = uint64_t(rel % (1 << SubBucketBits)) + (uint64_t(1) << SubBucketBits);
    return sub << shift;
}

uint64_t LatencyHistogram::bucketHigh(int index)
{
    if (index < int(ExactLimit))
        return uint64_t(index);
    if (index >= OverflowBucket)
        return UINT64_MAX;
    return bucketLow(index + 1) - 1;
}

void LatencyHistogram::record(uint64_t value)
{
    recordN(value, 1);
}

void LatencyHistogram::recordN(uint64_t value, uint64_t n)
{
    if (n == 0)
        return;
    m_counts[size_t(bucketOf(value))] += n;
    m_count += n;
    m_sum += value * n;
    m_min = std::min(m_min, value);
    m_max = std::max(m_max, value);
}

void LatencyHistogram::merge(const LatencyHistogram& other)
{
    if (other.m_count == 0)
        return;
    // Only the buckets between the other's min and max can hold anything.
    const auto last = size_t(bucketOf(other.m_max));
    for (auto i = size_t(bucketOf(other.m_min)); i <= last; ++i)
        m_counts[i] += other.m_counts[i];
    m_count += other.m_count;
    m_sum += other.m_sum;
    m_min = std::min(m_min, other.m_min);
    m_max = std::max(m_max, other.m_max);
}

void LatencyHistogram::reset()
{
    m_counts.fill(0);
    m_count = 0;
    m_min = UINT64_MAX;
    m_max = 0;
    m_sum = 0;
}

uint64_t LatencyHistogram::percentile(double q) const
{
    if (m_count == 0)
        return 0;
    q = std::clamp(q, 0.0, 1.0);
    const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(m_count))));
    uint64_t seen = 0;
    for (size_t i = 0; i < m_counts.size(); ++i) {
        seen += m_counts[i];
        if (seen >= rank) {
            if (int(i) == OverflowBucket)
                return m_max;
            const uint64_t lo = bucketLow(int(i));
            const uint64_t hi = bucketHigh(int(i));
            const uint64_t mid = lo + (std::min(hi, m_max) - lo) / 2;
            return std::clamp(mid, m_min, m_max);
        }
    }
    return m_max;
}

QJsonObject LatencyHistogram::toJson() const
{
    QJsonObject buckets;
    for (size_t i = 0; i < m_counts.size(); ++i)
        if (m_counts[i])
            buckets.insert(QString::number(i), double(m_counts[i]));
    QJsonObject o;
    o.insert(QStringLiteral("scheme"), QStringLiteral("log-linear/7"));
    o.insert(QStringLiteral("count"), double(m_count));
    o.insert(QStringLiteral("min"), double(min()));
    o.insert(QStringLiteral("max"), double(m_max));
    o.insert(QStringLiteral("sum"), double(m_sum));
    o.insert(QStringLiteral("buckets"), buckets);
    return o;
}

namespace {

// A JSON number as a count or a value: NaN and negatives are 0, beyond 2^64 the largest (a histogram read from a
// file or an agent's stream must not convert out of range).
uint64_t clampedU64(double v)
{
    if (!(v > 0))
        return 0;
    if (v >= 18446744073709551615.0)
        return UINT64_MAX;
    return uint64_t(v);
}

} // namespace

LatencyHistogram LatencyHistogram::fromJson(const QJsonObject& o)
{
    LatencyHistogram h;
    const QJsonObject buckets = o.value(QStringLiteral("buckets")).toObject();
    for (auto it = buckets.begin(); it != buckets.end(); ++it) {
        bool ok = false;
        const int idx = it.key().toInt(&ok);
        if (!ok || idx < 0 || idx >= BucketCount)
            continue;
        const uint64_t n = clampedU64(it.value().toDouble());
        h.m_counts[size_t(idx)] += n;
        h.m_count += n;
    }
    if (h.m_count) {
        // min and max must lie in the first and last non-empty buckets (merge() relies on it).
        int first = 0, last = BucketCount - 1;
        while (h.m_counts[size_t(first)] == 0)
            ++first;
        while (h.m_counts[size_t(last)] == 0)
            --last;
        const uint64_t mn = clampedU64(o.value(QStringLiteral("min")).toDouble());
        const uint64_t mx = clampedU64(o.value(QStringLiteral("max")).toDouble());
        h.m_min = bucketOf(mn) == first ? mn : bucketLow(first);
        h.m_max = bucketOf(mx) == last ? mx : std::min(bucketHigh(last), bucketLow(last) * 2);
        h.m_sum = clampedU64(o.value(QStringLiteral("sum")).toDouble());
    }
    return h;
}
