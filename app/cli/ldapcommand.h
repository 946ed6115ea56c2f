#pragma once

#include <QStringList>

namespace Cli {

// dirbench-cli ldap probe|search|bind|modify|compare|adddel|mixed --uri URI [...]; args[0] is the program name,
// args[1] the operation.
int runLdapCommand(const QStringList& args);

} // namespace Cli
