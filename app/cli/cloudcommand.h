#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli cloud list|eval|need|compare: the cloud disk catalog, "what do I need", measured vs listed.
int runCloudCommand(const QStringList& args);

} // namespace Cli
