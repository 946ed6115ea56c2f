#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli replication: the marker probe (core/experiments/replication.h).
int runReplicationCommand(const QStringList& args);

} // namespace Cli
