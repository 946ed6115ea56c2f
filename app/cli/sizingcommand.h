#pragma once

#include "core/ldap/serverinventory.h"
#include "core/sizing/ldifstats.h"
#include "core/sizing/sizinginput.h"

#include <QStringList>

#include <optional>

namespace Cli {

// dirbench-cli sizing --server 389ds|openldap|edirectory|ad [...]; args[0] is the program name.
int runSizingCommand(const QStringList& args);

// The part after the arguments are parsed: applies what a live server said (--uri; typed inputs win) to the input,
// sizes, prints, writes the record (--json; the reading in "server_inventory") and saves it in the history.
int runSizing(SizingInput input, const std::optional<ServerInventory>& live, const std::optional<LdifStats>& ldif,
    const QString& jsonPath, bool saveHistory);

} // namespace Cli
