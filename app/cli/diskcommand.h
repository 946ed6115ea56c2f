#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli disk --dir DIR --profile NAME [...]; args[0] is the program name.
int runDiskCommand(const QStringList& args);

} // namespace Cli
