#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli workload analyze --log FILE... [--format F] [--json OUT] [--save W.dbwl] [...]; args[0] is the
// program name. Reads access logs into a workload's analysis (core/workload); not a run: nothing goes into the
// history.
int runWorkloadCommand(const QStringList& args);

} // namespace Cli
