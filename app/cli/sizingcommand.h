#pragma once

#include "core/sizing/ldifstats.h"
#include "core/sizing/sizinginput.h"

#include <QMap>
#include <QStringList>

#include <optional>

namespace Cli {

// dirbench-cli sizing --server 389ds|openldap|edirectory|ad [...]; args[0] is the program name.
int runSizingCommand(const QStringList& args);

// The part after the arguments are parsed: applies a live server's monitor reading (MonitorReader::read's map;
// empty = none) to the input, sizes, prints, writes the record (--json) and saves it in the history. This is where
// the --uri path plugs in once it reads the server.
int runSizing(SizingInput input, const QMap<QString, double>& monitor, const std::optional<LdifStats>& ldif,
    const QString& jsonPath, bool saveHistory);

} // namespace Cli
