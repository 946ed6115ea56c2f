#include "core/ldap/operationsource.h"

#include <algorithm>

MixSource::MixSource(const QList<QPair<LdapOpKind, int>>& mix)
{
    uint64_t total = 0;
    for (const auto& [op, weight] : mix) {
        if (weight <= 0)
            continue;
        total += uint64_t(weight);
        m_cumulative.push_back(total);
        m_ops.push_back(op);
    }
    if (m_ops.empty()) { // compile() refuses an empty mix; stay defined anyway
        m_cumulative.push_back(1);
        m_ops.push_back(LdapOpKind::Search);
    }
}

LdapOpKind MixSource::next(AccessDistribution::Rng& rng) const
{
    if (m_ops.size() == 1)
        return m_ops.front();
    const uint64_t r = rng.below(m_cumulative.back());
    const auto it = std::upper_bound(m_cumulative.begin(), m_cumulative.end(), r);
    return m_ops[size_t(it - m_cumulative.begin())];
}
