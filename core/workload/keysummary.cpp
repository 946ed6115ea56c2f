#include "core/workload/keysummary.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <functional>

namespace {

uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

} // namespace

KeySummary::KeySummary()
    : m_sketch(size_t(SketchDepth) * SketchWidth, 0)
{
    m_entries.reserve(TopK);
    m_heap.reserve(TopK);
    m_slot.reserve(TopK * 2);
}

uint64_t KeySummary::hashKey(std::string_view key)
{
    return mix(std::hash<std::string_view> {}(key));
}

void KeySummary::swapHeap(size_t a, size_t b)
{
    std::swap(m_heap[a], m_heap[b]);
    m_entries[m_heap[a]].heapPos = uint32_t(a);
    m_entries[m_heap[b]].heapPos = uint32_t(b);
}

void KeySummary::siftDown(size_t pos)
{
    const size_t n = m_heap.size();
    for (;;) {
        const size_t l = 2 * pos + 1, r = l + 1;
        size_t m = pos;
        if (l < n && m_entries[m_heap[l]].count < m_entries[m_heap[m]].count)
            m = l;
        if (r < n && m_entries[m_heap[r]].count < m_entries[m_heap[m]].count)
            m = r;
        if (m == pos)
            return;
        swapHeap(pos, m);
        pos = m;
    }
}

void KeySummary::siftUp(size_t pos)
{
    while (pos > 0 && m_entries[m_heap[(pos - 1) / 2]].count > m_entries[m_heap[pos]].count) {
        swapHeap(pos, (pos - 1) / 2);
        pos = (pos - 1) / 2;
    }
}

void KeySummary::add(uint64_t key)
{
    ++m_total;
    const uint64_t h2 = mix(key ^ 0x9e3779b97f4a7c15ull) | 1;
    for (int d = 0; d < SketchDepth; ++d) {
        uint32_t& c = m_sketch[size_t(d) * SketchWidth + size_t((key + uint64_t(d) * h2) % SketchWidth)];
        if (c != UINT32_MAX)
            ++c;
    }
    const size_t reg = size_t(key >> (64 - HllBits));
    const uint64_t rest = (key << HllBits) | (uint64_t(1) << (HllBits - 1));
    const auto rank = uint8_t(__builtin_clzll(rest) + 1);
    m_hll[reg] = std::max(m_hll[reg], rank);

    const auto it = m_slot.find(key);
    if (it != m_slot.end()) {
        Entry& e = m_entries[it->second];
        ++e.count;
        siftDown(e.heapPos);
        return;
    }
    if (m_entries.size() < size_t(TopK)) {
        const auto slot = uint32_t(m_entries.size());
        m_entries.push_back({ key, 1, 0, uint32_t(m_heap.size()) });
        m_heap.push_back(slot);
        m_slot.emplace(key, slot);
        siftUp(m_heap.size() - 1);
        return;
    }
    // Space-saving: the new key takes the minimum's slot and count (+1), the minimum's count is its error bound.
    const uint32_t slot = m_heap[0];
    Entry& min = m_entries[slot];
    m_slot.erase(min.key);
    min.err = min.count;
    min.count += 1;
    min.key = key;
    m_slot.emplace(key, slot);
    siftDown(0);
}

uint64_t KeySummary::estimate(uint64_t key) const
{
    const uint64_t h2 = mix(key ^ 0x9e3779b97f4a7c15ull) | 1;
    uint64_t est = UINT64_MAX;
    for (int d = 0; d < SketchDepth; ++d)
        est = std::min<uint64_t>(
            est, m_sketch[size_t(d) * SketchWidth + size_t((key + uint64_t(d) * h2) % SketchWidth)]);
    return est;
}

double KeySummary::distinctEstimate() const
{
    constexpr double m = double(size_t(1) << HllBits);
    double sum = 0;
    int zeros = 0;
    for (uint8_t r : m_hll) {
        sum += std::ldexp(1.0, -int(r));
        zeros += r == 0;
    }
    const double alpha = 0.7213 / (1 + 1.079 / m);
    double e = alpha * m * m / sum;
    if (e <= 2.5 * m && zeros)
        e = m * std::log(m / zeros); // linear counting for small cardinalities
    // Never fewer than the keys the top-k holds exactly.
    return std::max(e, double(m_entries.size() < size_t(TopK) ? m_entries.size() : 0));
}

KeySummary::Fit KeySummary::fit() const
{
    Fit f;
    f.distinct = distinctEstimate();
    if (m_total == 0 || m_entries.empty())
        return f;
    struct Ranked
    {
        uint64_t est;
        bool reliable;
    };
    std::vector<Ranked> ranked;
    ranked.reserve(m_entries.size());
    for (const Entry& e : m_entries) {
        const uint64_t est = std::min(e.count, estimate(e.key));
        ranked.push_back({ est, double(e.err) <= 0.05 * double(e.count) });
    }
    std::sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) { return a.est > b.est; });
    const double total = double(m_total);
    f.topShare = double(ranked[0].est) / total;
    if (m_entries.size() == 1 || f.distinct < 1.5) {
        f.model = QStringLiteral("uniform");
        f.distinct = 1;
        return f;
    }
    // A step: the hot set.
    for (size_t h = 1; h < ranked.size(); ++h) {
        if (ranked[h].est == 0 || double(ranked[h - 1].est) < 3.0 * double(ranked[h].est))
            continue;
        if (double(ranked[0].est) > 2.0 * double(ranked[h - 1].est) || ranked[h - 1].est < 5)
            continue;
        double hotOps = 0;
        for (size_t i = 0; i < h; ++i)
            hotOps += double(ranked[i].est);
        f.model = QStringLiteral("hot");
        f.hotKeysPct = 100.0 * double(h) / std::max(f.distinct, double(h));
        f.hotOpsPct = std::min(100.0, 100.0 * hotOps / total);
        return f;
    }
    // Least squares on the reliable top ranks.
    double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
    int n = 0;
    for (size_t i = 0; i < ranked.size() && ranked[i].reliable && ranked[i].est >= 5; ++i) {
        const double x = std::log(double(i + 1)), y = std::log(double(ranked[i].est));
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
        ++n;
    }
    f.ranksFitted = n;
    if (n >= 3) {
        const double vx = sxx - sx * sx / n, vy = syy - sy * sy / n, cxy = sxy - sx * sy / n;
        f.alpha = vx > 0 ? -cxy / vx : 0;
        f.r2 = (vx > 0 && vy > 0) ? cxy * cxy / (vx * vy) : 0;
    }
    const double mean = total / std::max(1.0, f.distinct);
    const double sketchError = 2.718281828 * total / SketchWidth; // count-min: over by at most this, w.h.p.
    const bool noise = double(ranked[0].est) <= mean + 5.0 * std::sqrt(mean) + 5.0 + sketchError;
    f.model = (noise || n < 3 || f.alpha < 0.1) ? QStringLiteral("uniform") : QStringLiteral("zipf");
    return f;
}

QJsonObject KeySummary::Fit::toJson() const
{
    QJsonObject o { { QStringLiteral("model"), model }, { QStringLiteral("key"), QStringLiteral("all slot values") },
        { QStringLiteral("keys_estimated"), std::round(distinct) },
        { QStringLiteral("top_key_share"), round3(topShare) } };
    if (model == u"zipf") {
        o.insert(QStringLiteral("alpha"), round3(alpha));
        o.insert(QStringLiteral("r2"), round3(r2));
        o.insert(QStringLiteral("ranks_fitted"), ranksFitted);
    } else if (model == u"hot") {
        o.insert(QStringLiteral("keys_pct"), round3(hotKeysPct));
        o.insert(QStringLiteral("ops_pct"), round3(hotOpsPct));
    }
    return o;
}

QJsonObject KeySummary::boundsJson()
{
    return { { QStringLiteral("top_k"), TopK },
        { QStringLiteral("sketch"),
            QJsonObject { { QStringLiteral("kind"), QStringLiteral("count-min") },
                { QStringLiteral("depth"), SketchDepth }, { QStringLiteral("width"), SketchWidth } } },
        { QStringLiteral("distinct"), QStringLiteral("HyperLogLog, %1 registers").arg(1 << HllBits) } };
}

QString KeySummary::boundsText()
{
    return QStringLiteral("space-saving top-%1 + count-min sketch %2x%3 + HyperLogLog %4 registers per template")
        .arg(TopK)
        .arg(SketchDepth)
        .arg(SketchWidth)
        .arg(1 << HllBits);
}
