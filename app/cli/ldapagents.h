#pragma once

#include "core/agents/coordinator.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QStringList>

// `ldap ... --agents`: the options of a load from many hosts, and the agents' own command line.
namespace Cli {

QList<QCommandLineOption> ldapAgentOptions(); // --agents --ssh-option --agent-command --allow-clock-skew ...
QStringList ldapAgentOptionNames();
QList<QCommandLineOption> ldapRunOptions(); // --start-at --interval-histograms (any load)

// --start-at and --interval-histograms into the spec (exit 2 naming the option).
int ldapRunOptionsFromParser(const QCommandLineParser& p, LdapLoadSpec* spec);

// Checks the agent options and fills the coordinator's spec: the hosts, the split (fewer threads than agents is
// refused), and the agents' command line made of the load (Agents::agentLoadArgs). Exit 2 naming the option.
int coordinatorFromParser(const QCommandLineParser& p, const LdapLoadSpec& load, Agents::CoordinatorSpec* spec);

} // namespace Cli
