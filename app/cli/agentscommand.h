#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli agents check --agents HOSTS [--uri URI]: per host the version, clock offset, round trip, CPU count
// and whether it reaches the target, through the same agent protocol as a run.
int runAgentsCommand(const QStringList& args);

} // namespace Cli
