#pragma once

#include "core/agents/remoterun.h"
#include "core/workload/workloadanalyze.h"

#include <optional>

class RunContext;

// `workload analyze HOST:/var/log/dirsrv/slapd-x/access*`: the logs are read and parsed on their host (rotated and
// gzip'd files as there), and only the analysis, and the workload when one is asked for (pseudonymised unless
// values are kept), come over ssh. Nothing of the log itself is copied.
namespace Agents {

struct HostPath
{
    QString host; // the ssh destination
    QString path; // absolute, on that host
};
// "HOST:/path" (a path on a host); nullopt for a local path.
std::optional<HostPath> hostPath(const QString& text);

// The logs' host when they are all on one ("" when all are local); *error when some are local and some on a host,
// or on different hosts.
QString logsHost(const QStringList& logs, QString* error);

// The analysis run on `target`'s host (its engine spec filled in here) for logs given as HOST:/path; the result as
// a local run gives it, with the host's own errors ("--log: ...") and warnings. Blocking, off the GUI thread;
// ctx's stop ends it.
AnalyzeResult analyzeOnHost(RemoteRunSpec target, const AnalyzeOptions& options, RunContext& ctx);

// The agent's side: the engine spec back to options (the logs are paths on this host).
std::optional<AnalyzeOptions> analyzeOptionsFromWire(const QJsonObject& o, QString* error);
// Runs it here into the record the agent sends back.
RunRecord analyzeHere(const AnalyzeOptions& options, RunContext& ctx);

} // namespace Agents
