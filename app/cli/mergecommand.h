#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli merge --in A.json --in B.json ... [--json OUT]: the exact merge of agents' records made by any
// launcher (each run with --start-at and --interval-histograms), as the live coordinator merges.
int runMergeCommand(const QStringList& args);

} // namespace Cli
