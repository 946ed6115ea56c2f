#pragma once

#include <QJsonObject>

#include <array>
#include <cstdint>

// A log-linear latency histogram in the HdrHistogram style: values below 256 are counted exactly, above that
// each power of two is split into 128 equal sub-buckets, so a bucket is never wider than 1/128 of its value
// and a percentile read at the bucket's middle is within 0.4 % of the exact one. Fixed memory (about 36 KiB,
// values up to 2^40), mergeable across threads and hosts. Units are the caller's (DirBench uses nanoseconds).
class LatencyHistogram
{
public:
    static constexpr int SubBucketBits = 7;
    static constexpr uint64_t ExactLimit = uint64_t(1) << (SubBucketBits + 1); // 256
    static constexpr int MaxBits = 40;
    // The last bucket takes every value from 2^MaxBits up (percentiles there report the exact max).
    static constexpr int OverflowBucket = int(ExactLimit) + (MaxBits - SubBucketBits - 1) * (1 << SubBucketBits);
    static constexpr int BucketCount = OverflowBucket + 1;

    void record(uint64_t value);
    void recordN(uint64_t value, uint64_t n);
    void merge(const LatencyHistogram& other);
    void reset();

    uint64_t count() const { return m_count; }
    uint64_t min() const { return m_count ? m_min : 0; }
    uint64_t max() const { return m_max; }
    double mean() const { return m_count ? double(m_sum) / double(m_count) : 0.0; }
    // q in [0, 1]; the value at rank ceil(q * count), as the middle of its bucket clamped to [min, max].
    uint64_t percentile(double q) const;

    // Sparse {"index": count} form for records; fromJson accepts what toJson wrote.
    QJsonObject toJson() const;
    static LatencyHistogram fromJson(const QJsonObject& o);

    static int bucketOf(uint64_t value);
    static uint64_t bucketLow(int index);
    static uint64_t bucketHigh(int index); // inclusive

private:
    std::array<uint64_t, BucketCount> m_counts {};
    uint64_t m_count = 0;
    uint64_t m_min = UINT64_MAX;
    uint64_t m_max = 0;
    // Sum can overflow only past ~584 years of total nanoseconds; fine for any run.
    uint64_t m_sum = 0;
};
