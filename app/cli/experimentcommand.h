#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli experiment threads|tls|dbsize [...]: the guide's experiments, one command each.
int runExperimentCommand(const QStringList& args);

} // namespace Cli
