#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli sandbox start|stop|status [...]; args[0] is the program name, args[1] the subcommand.
int runSandboxCommand(const QStringList& args);

} // namespace Cli
