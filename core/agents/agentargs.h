#pragma once

#include "core/common/proberror.h"
#include "core/ldap/loadspec.h"

#include <QStringList>

// A load from many hosts described by an LdapLoadSpec (the GUI's LDAP page): the agents' `ldap` command line and
// the rules of the split, so that what a page starts runs as `dirbench-cli ldap ... --agents` would.
namespace Agents {

// The agents' `ldap` arguments: the operation and every option of the spec that operation takes, the target's
// included (never the password: it goes over the agents' stdin), without --threads and --rate (set per agent)
// and with --no-server-counters (only the coordinator reads cn=monitor).
QStringList agentLoadArgs(const LdapLoadSpec& load);

// The split's rules, as `ldap --agents` applies them: at least one thread per agent (--threads is the total), no
// absolute start (a rate ramp is split step by step: agentRamp). An error naming the field ("threads",
// "start-at") or none.
ProbeError checkAgentSplit(const LdapLoadSpec& load, int agents);

// Agent `index` of `agents`'s share of a ramp: a rate ramp's every step split as --rate is (splitRate), so the
// agents' steps add up to the ramp's; any other ramp (outstanding, per thread) is the same for every agent.
QString agentRamp(const QString& ramp, int index, int agents);

} // namespace Agents
