#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/loadspec.h"

#include <QList>

#include <functional>

class RunContext;

// The guide's experiments, one call each, each a RunRecord with its points (summary.points[]) and every load's
// intervals as its own series on one time axis. Each point has ok_per_s (successful operations per second: the
// throughput, and what "best" means), ops_per_s (completed), ok, ops, errors, latency_ms and the client's CPU per
// operation (load threads and whole process):
//  - thread sweep (guide Table 2): ok/s and latency as the client's threads grow, or, with serverThreads, as
//    389-ds's nsslapd-threadnumber grows under a fixed client load (set online, or by restarting a DirBench
//    389-ds sandbox; the original setting is put back on every exit path);
//  - TLS cost (guide Table 7): connect + bind per operation, plain and over TLS;
//  - database size (guide Table 5): ok/s against demo directories of growing size (DirBench starts each one).
// The guide's own figures, where it printed them, go into summary.reference with their source.
struct ThreadSweepSpec
{
    LdapLoadSpec load; // the search load; its threads field is replaced per point
    QList<int> threads { 1, 2, 4, 8, 16, 32 };
    double secondsPerPoint = 10;
    QList<int> serverThreads; // non-empty: the axis is the server's threads; load.threads stays as given
    bool restart = false; // serverThreads on a DirBench 389-ds sandbox: restart it for each point
    QString sandboxDir; // the sandbox to restart; empty = the one serving load.target.uri
};

struct TlsCostSpec
{
    LdapLoadSpec plain; // a bind load (new connection per bind) over ldap://
    LdapTarget tls; // the same server over ldaps:// or StartTLS (with its CA)
    double secondsEach = 10;
};

struct DatabaseSizeSpec
{
    QList<int> entries { 1000, 10000, 100000 };
    LdapLoadSpec load; // target and base are filled from each demo directory; the filter uses the whole range
    double secondsPerPoint = 10;
    QString parentDir; // where the demo directories go
};

namespace Experiments {

RunRecord runThreadSweep(const ThreadSweepSpec& spec, RunContext& ctx);
RunRecord runTlsCost(const TlsCostSpec& spec, RunContext& ctx);
RunRecord runDatabaseSize(const DatabaseSizeSpec& spec, RunContext& ctx);

inline std::function<RunRecord(RunContext&)> makeThreadSweepJob(ThreadSweepSpec s)
{
    return [s = std::move(s)](RunContext& ctx) { return runThreadSweep(s, ctx); };
}
inline std::function<RunRecord(RunContext&)> makeTlsCostJob(TlsCostSpec s)
{
    return [s = std::move(s)](RunContext& ctx) { return runTlsCost(s, ctx); };
}
inline std::function<RunRecord(RunContext&)> makeDatabaseSizeJob(DatabaseSizeSpec s)
{
    return [s = std::move(s)](RunContext& ctx) { return runDatabaseSize(s, ctx); };
}

} // namespace Experiments
