#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/loadrun.h"
#include "core/ldap/loadspec.h"

#include <functional>

class RunContext;

namespace Ldap {

// Runs an LDAP load (search, bind, modify, compare, add+delete, or a mix) and returns its record (LoadRun):
// per-interval successes and completions per second, latency percentiles, errors by result code, timeouts,
// reconnects, missed arrivals, the server's own counters on the same time axis, per operation kind for a mix,
// and the load threads' CPU per operation.
RunRecord runLoad(const LdapLoadSpec& spec, RunContext& ctx, LoadRunOptions options = {});

inline std::function<RunRecord(RunContext&)> makeLoadJob(LdapLoadSpec spec)
{
    return [spec = std::move(spec)](RunContext& ctx) { return runLoad(spec, ctx); };
}

} // namespace Ldap
