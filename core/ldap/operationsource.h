#pragma once

#include "core/ldap/accessdistribution.h"
#include "core/ldap/loadspec.h"

#include <memory>
#include <vector>

// Where a load's next operation comes from. The load generator's own source draws from the mix; a replay or a
// remote agent can supply another. Called from the load threads: next() must be safe to call concurrently (it
// may only use the caller's generator).
class OperationSource
{
public:
    virtual ~OperationSource() = default;
    virtual LdapOpKind next(AccessDistribution::Rng& rng) const = 0;
};

// The spec's mix, every positive integer weight honoured exactly in proportion (search=999,compare=1 sends
// compares with probability 1/1000).
class MixSource : public OperationSource
{
public:
    explicit MixSource(const QList<QPair<LdapOpKind, int>>& mix);
    LdapOpKind next(AccessDistribution::Rng& rng) const override;

private:
    std::vector<uint64_t> m_cumulative; // running sums of the weights
    std::vector<LdapOpKind> m_ops;
};
