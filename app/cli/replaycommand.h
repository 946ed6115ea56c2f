#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli replay: a workload (.dbwl, or access logs) replayed against a server, with its fidelity report.
int runReplayCommand(const QStringList& args);

} // namespace Cli
