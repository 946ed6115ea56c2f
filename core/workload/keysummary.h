#pragma once

#include <QJsonObject>
#include <QString>

#include <array>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

// The skew of one template's keys (the tuple of its slot values) in bounded memory, whatever the number of keys:
//   - a space-saving top-k (Metwally et al.) of TopK keys, each with its count and its overestimate bound;
//   - a count-min sketch of SketchDepth x SketchWidth 32-bit counters, whose minimum tightens the top-k's counts;
//   - a HyperLogLog of 2^HllBits registers for the number of distinct keys (about 1.6 % standard error).
// Keys are held as 64-bit hashes, never as values. About 150 KiB per template.
//
// The fit (fit()): the tracked keys in rank order with their estimates, then, in this order:
//   - "hot" when the rank-frequency curve has a step (an estimate at least 3x the next one, with the keys above it
//     within 2x of the top): P % of the keys (the ranks above the step, of the distinct keys) get Q % of the
//     operations. A hot set is seen when it has fewer than TopK keys;
//   - "uniform" when the top key's count is within Poisson noise of the mean count per key
//     plus the sketch's error bound (top <= mean + 5 sqrt(mean) + 5 + e total / SketchWidth), or fewer than 3 ranks
//     are known well enough to fit, or the fitted alpha is below 0.1;
//   - else "zipf": alpha from least squares of log(count) on log(rank) over the top ranks whose count is known to
//     5 % (the space-saving bound) and at least 5, with the fit's r^2.
class KeySummary
{
public:
    static constexpr int TopK = 1024;
    static constexpr int SketchDepth = 4;
    static constexpr int SketchWidth = 8192;
    static constexpr int HllBits = 12;

    KeySummary();
    void add(uint64_t keyHash);
    uint64_t total() const { return m_total; }
    double distinctEstimate() const;
    uint64_t estimate(uint64_t keyHash) const; // count-min estimate

    struct Fit
    {
        QString model = QStringLiteral("uniform"); // "zipf", "hot", "uniform"
        double alpha = 0, r2 = 0;
        int ranksFitted = 0;
        double hotKeysPct = 0, hotOpsPct = 0; // "hot": P % of keys get Q % of the operations
        double topShare = 0; // the most frequent key's share of the operations
        double distinct = 0;
        QJsonObject toJson() const;
    };
    Fit fit() const;

    // The bounds as the --help text and the JSON state them.
    static QJsonObject boundsJson();
    static QString boundsText();

    static uint64_t hashKey(std::string_view key);

private:
    struct Entry
    {
        uint64_t key;
        uint64_t count;
        uint64_t err;
        uint32_t heapPos;
    };
    void siftDown(size_t pos);
    void siftUp(size_t pos);
    void swapHeap(size_t a, size_t b);

    uint64_t m_total = 0;
    std::vector<Entry> m_entries; // stable slots
    std::vector<uint32_t> m_heap; // slot indices, a min-heap on count
    std::unordered_map<uint64_t, uint32_t> m_slot; // key -> slot
    std::vector<uint32_t> m_sketch; // SketchDepth rows of SketchWidth
    std::array<uint8_t, size_t(1) << HllBits> m_hll {};
};
