#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli history list|show|export|import|compare|rename|tag|delete
int runHistoryCommand(const QStringList& args);

} // namespace Cli
