#pragma once

#include "core/agents/agenthosts.h"
#include "core/agents/agentprotocol.h"
#include "core/common/mounts.h"
#include "core/common/runrecord.h"
#include "core/disk/diskspec.h"

#include <QJsonObject>
#include <QStringList>

#include <functional>
#include <optional>

class RunContext;

// One engine run on the machine that matters (a server's host): `ssh HOST dirbench-cli agent` (or a local child
// process) is sent the engine's typed spec, runs it there, streams its progress and intervals, and sends back the
// record it made there (the host's own environment in it). The window and the CLI use it alike, off the GUI thread.
namespace Agents {

struct RemoteRunSpec
{
    AgentHost host;
    QStringList sshOptions; // one ssh argument each, before the host (e.g. "-F", "FILE" or "-Jbastion")
    QString agentCommand = QStringLiteral("dirbench-cli");
    QString engine; // "disk"
    QJsonObject engineSpec; // its wire form (DiskSpec::toWire)
    // The record's kind and spec when the host never makes one (it cannot be reached, the spec was refused).
    QString kind;
    QJsonObject recordSpec;
    double deadlineS = 0; // the agent stops by itself this long after the spec (0: none)
    int helloTimeoutMs = 30000; // launch to hello (ssh's own ConnectTimeout applies within it)
};

// Blocks until the agent is gone. Samples and progress go to ctx as they arrive; a stop asked of ctx is sent on
// (then stdin is closed; the agent is killed 15 s later if still there). The record is the host's, its spec
// naming the host ("host"); or a failed one whose failure says what happened: ssh could not reach the host, the
// program is not installed there, the host refused the spec (the field named), or the host was lost mid-run.
RunRecord runRemote(const RemoteRunSpec& spec, RunContext& ctx);

inline std::function<RunRecord(RunContext&)> makeRemoteJob(RemoteRunSpec spec)
{
    return [spec = std::move(spec)](RunContext& ctx) { return runRemote(spec, ctx); };
}

// Why `destination` is not an ssh destination ("" when it may be one): empty, an option, or with white space.
QString sshDestinationProblem(const QString& destination);

// A disk test on `host`: the engine, its spec as asked, the record's kind and spec, and a hard deadline that leaves
// the longest such test its time (the CLI's `disk --host` and the Disk page's "Run on" alike).
RemoteRunSpec remoteDisk(
    const AgentHost& host, const QStringList& sshOptions, const QString& agentCommand, const DiskSpec& spec);

// The Disk page's Check: the agent on `host` started as a test would start it, and the file systems it can test
// there (mount point, device, free space). Blocking: off the GUI thread.
struct HostCheck
{
    QString error; // the sentence (runRemote's) when the host could not be asked
    QString host; // as the host names itself
    QString version; // of the dirbench-cli there
    int cpus = 0;
    QList<Mounts::FileSystem> fileSystems;
};
HostCheck checkHost(const AgentHost& host, const QStringList& sshOptions, const QString& agentCommand);

// The sentence for an agent that ended before its hello: ssh's exit status 255 (not reached), the remote shell's
// 127 (program not found) and 126 (not executable), anything else with the last line it wrote on stderr.
QString launchFailureText(const RemoteRunSpec& spec, int exitCode, const QString& stderrText);

// The agent's side: the engine job its spec names, checked on this host (a refused field named in *error).
std::optional<std::function<RunRecord(RunContext&)>> engineJob(const AgentSpec& spec, QString* error);

// What the agent adds to its record's environment: how it was reached (SSH_CONNECTION's addresses), if over ssh.
void addReachedOver(QJsonObject* environment);

} // namespace Agents
