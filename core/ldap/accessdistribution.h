#pragma once

#include "core/common/proberror.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

// How keys are drawn from a range of n keys [0, n) (the `--access` option; it applies to every value pattern of a
// run). Text forms, case-insensitive:
//   uniform      every key equally likely
//   sequential   0, 1, 2, ..., n-1, 0, ... (one counter per Sampler, shared by its copies and threads: N client
//                threads walking one pattern together visit every key once per lap)
//   zipf:S       p(rank k) = (k+1)^-S / H(n, S), rank 0 the hottest; 0 < S <= 10 (S = 1 exactly is fine)
//   hot:P/Q      P % of the draws go uniformly to the first Q % of the ranks, the rest uniformly to the others
//                (0 <= P <= 100, 0 < Q < 100; the hot set has round(n * Q / 100) keys, at least 1 and at most n-1)
//
// zipf and hot draw a rank and map it through Scramble (below), so the hot keys are spread over [0, n) rather than
// packed at its low end (one B-tree page, one cache neighbourhood); uniform and sequential are not scrambled.
//
// Zipf uses rejection-inversion (W. Hörmann, G. Derflinger, "Rejection-inversion to generate variates from monotone
// discrete distributions", ACM TOMACS 6(3), 1996): exact, O(1) per draw (about 1.1 tries), no table, any n up to
// 2^53; it works on a continuous envelope, so S = 1 needs no special case.
class AccessDistribution
{
public:
    enum class Kind
    {
        Uniform,
        Sequential,
        Zipf,
        Hot
    };

    // xoshiro256** (Blackman & Vigna) seeded through splitmix64: small, fast, and good enough for load generation
    // (not cryptographic). One per thread; not thread-safe.
    class Rng
    {
    public:
        explicit Rng(uint64_t seed = 0x5eed5eed5eed5eedull) { reseed(seed); }
        void reseed(uint64_t seed);
        uint64_t next()
        {
            const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
            const uint64_t t = m_s[1] << 17;
            m_s[2] ^= m_s[0];
            m_s[3] ^= m_s[1];
            m_s[1] ^= m_s[2];
            m_s[0] ^= m_s[3];
            m_s[2] ^= t;
            m_s[3] = rotl(m_s[3], 45);
            return result;
        }
        // Uniform in [0, 1) with 53 random bits.
        double nextDouble() { return double(next() >> 11) * 0x1.0p-53; }
        // Uniform in [0, n), unbiased (Lemire's multiply-and-reject); n > 0.
        uint64_t below(uint64_t n);

    private:
        static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
        uint64_t m_s[4];
    };

    // A fixed bijection of [0, n): key = (a * rank + c) mod n with a the integer nearest n * (sqrt(5) - 1) / 2
    // moved up to the next value coprime with n, and c = floor(n * (3 - sqrt(5)) / 2). Ranks 0, 1, 2, ... land
    // on a golden-ratio (Weyl) sequence: any run of consecutive ranks (the hot set, the top of a Zipf) is spread
    // evenly over the whole range, and rank 0 sits at about 38 % of it, not at key 0.
    class Scramble
    {
    public:
        explicit Scramble(uint64_t n = 1);
        uint64_t operator()(uint64_t rank) const;
        uint64_t inverse(uint64_t key) const;
        uint64_t keyCount() const { return m_n; }
        uint64_t multiplier() const { return m_a; }
        uint64_t offset() const { return m_c; }

    private:
        uint64_t m_n = 1;
        uint64_t m_a = 0;
        uint64_t m_c = 0;
        uint64_t m_inverseA = 0;
    };

    // Draws keys of one range [0, n). Immutable after construction except the sequential counter, which is atomic
    // and shared by copies: one Sampler may be used by several threads at once, each with its own Rng.
    class Sampler
    {
    public:
        Sampler() = default; // n = 1: always 0
        uint64_t next(Rng& rng) const;
        uint64_t keyCount() const { return m_n; }
        Kind kind() const { return m_kind; }
        // The key that holds a rank (rank 0 is the most likely key): the scramble for zipf and hot, else identity.
        uint64_t keyOfRank(uint64_t rank) const;
        // Probability of drawing the key of a rank (for the cache model); sequential counts as uniform.
        double probabilityOfRank(uint64_t rank) const;

    private:
        friend class AccessDistribution;
        uint64_t zipfRank(Rng& rng) const;

        Kind m_kind = Kind::Uniform;
        uint64_t m_n = 1;
        Scramble m_scramble;
        std::shared_ptr<std::atomic<uint64_t>> m_counter; // sequential
        double m_exponent = 1; // zipf: S and the constants of rejection-inversion
        double m_hX1 = 0;
        double m_hN = 0;
        double m_sBound = 0;
        double m_zipfNorm = 1; // H(n, S)
        double m_hotFraction = 0; // hot: P / 100 and the size of the hot set
        uint64_t m_hotCount = 0;
    };

    AccessDistribution() = default; // uniform
    static AccessDistribution uniform() { return AccessDistribution(); }
    static AccessDistribution sequential();
    static AccessDistribution zipf(double exponent); // 0 < exponent <= 10
    static AccessDistribution hot(double hotPercent, double hotKeysPercent); // [0, 100], (0, 100)

    // Parses the text forms above; errors name the field "access".
    static std::optional<AccessDistribution> parse(const QString& text, ProbeError* error = nullptr);
    // The canonical text form; parse(toString()) gives the same distribution.
    QString toString() const;

    Kind kind() const { return m_kind; }
    double exponent() const { return m_exponent; }
    double hotPercent() const { return m_hotPercent; }
    double hotKeysPercent() const { return m_hotKeysPercent; }

    // A sampler over n >= 1 keys (n = 0 is treated as 1). Costs a few microseconds for zipf (the normalisation
    // constant); build samplers once, at parse time, not per draw.
    Sampler sampler(uint64_t n) const;

    // H(n, S) = sum of k^-S for k = 1..n, exact for n <= 10000 and by Euler-Maclaurin beyond (relative error
    // below 1e-12).
    static double zipfNormalisation(uint64_t n, double exponent);

    friend bool operator==(const AccessDistribution&, const AccessDistribution&) = default;

private:
    Kind m_kind = Kind::Uniform;
    double m_exponent = 1;
    double m_hotPercent = 80;
    double m_hotKeysPercent = 20;
};
