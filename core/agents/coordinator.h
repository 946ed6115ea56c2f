#pragma once

#include "core/agents/agenthosts.h"
#include "core/common/runrecord.h"
#include "core/ldap/loadspec.h"

#include <QStringList>

class RunContext;

namespace Agents {

// One load run from many agents (`ldap ... --agents`). The load's --rate and --threads are totals, split as
// evenly as possible; each agent runs its share (`dirbench-cli agent`, over ssh or as a child process here).
struct CoordinatorSpec
{
    LdapLoadSpec load; // the whole run: totals, the target (with the password, which goes over the agents' stdin)
    QStringList args; // the agents' `ldap` command line: the operation and its options, without --threads, --rate
    QList<AgentHost> hosts;
    QStringList sshOptions; // one ssh argument each, before the host
    QString agentCommand = QStringLiteral("dirbench-cli");
    bool allowClockSkew = false;
    bool continueOnLoss = false; // else an agent lost stops the run (failed)
    double readyTimeoutS = 60; // launch to ready, per agent
    bool printAgentStderr = true; // each agent's stderr to this stderr, prefixed with its name
    bool publishAgentStates = false; // each agent's state, ok/s and CPU as status samples (agentlive.h): the GUI
};

// Launches the agents, measures their clock offsets, starts them at one instant, merges their intervals by index
// exactly (agentmerge.h) into an ordinary ldap-* record with `spec.agents` and `agents[]`; only the coordinator
// reads the server's counters (cn=monitor). Blocks until every agent process is gone (it runs an event loop of
// its own in the calling thread, a worker thread of ProbeRunner or a test).
RunRecord runAgents(const CoordinatorSpec& spec, RunContext& ctx);

// The ssh (or local) command line of one agent: program and arguments.
QStringList agentCommandLine(const CoordinatorSpec& spec, const AgentHost& host);
QStringList agentCommandLine(const QStringList& sshOptions, const QString& agentCommand, const AgentHost& host);

} // namespace Agents
