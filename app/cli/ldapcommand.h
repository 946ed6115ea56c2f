#pragma once

#include <QByteArray>
#include <QStringList>

struct LdapLoadSpec;

namespace Cli {

// dirbench-cli ldap probe|search|bind|modify|compare|adddel|mixed --uri URI [...]; args[0] is the program name,
// args[1] the operation.
int runLdapCommand(const QStringList& args);

// An agent's share: its `ldap` command line (the operation first, no program name) to a load spec, checked as
// the ldap command checks it; the password is the one that came over the agent's stdin. Returns an exit code.
int ldapLoadFromArgs(const QStringList& args, const QByteArray& password, LdapLoadSpec* spec);

} // namespace Cli
