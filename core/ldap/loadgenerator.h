#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/loadspec.h"

#include <functional>

class RunContext;

namespace Ldap {

// Runs an LDAP load (search, bind, modify, compare, add+delete, or a mix) and returns its record: per-interval
// ops/s, latency percentiles, errors by result code, timeouts, reconnects, the server's own counters on the same
// time axis, and the client's CPU per operation. A run whose target is gone for longer than the failure window
// fails with what it measured so far; write loads remove what they added, also on cancel or failure.
RunRecord runLoad(const LdapLoadSpec& spec, RunContext& ctx);

inline std::function<RunRecord(RunContext&)> makeLoadJob(LdapLoadSpec spec)
{
    return [spec = std::move(spec)](RunContext& ctx) { return runLoad(spec, ctx); };
}

} // namespace Ldap
