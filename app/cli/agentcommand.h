#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli agent: one agent of a load from many hosts, speaking the agent protocol (core/agents/agentprotocol.h)
// on stdin and stdout; human text on stderr. Started by a coordinator (`ldap ... --agents`), over ssh or here.
int runAgentCommand(const QStringList& args);

} // namespace Cli
