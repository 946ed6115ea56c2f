#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli curve --uri URI --base DN --filter T --mode cache-sweep|working-set [...]; args[0] is the program
// name. The entry-cache coverage vs ops/s curve (core/experiments/curve.h).
int runCurveCommand(const QStringList& args);

} // namespace Cli
