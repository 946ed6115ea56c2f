#pragma once

#include "core/common/proberror.h"

#include <QList>
#include <QString>

#include <optional>

// --ok-codes C,C: the result codes a load counts as success (LdapLoadSpec::okCodes), read from text the same way for
// the command line and the window. Errors name "ok-codes": empty, not a code (0 to LdapLoadSpec::kMaxResultCode),
// given twice.
namespace OkCodes {

std::optional<QList<int>> parse(const QString& text, ProbeError* error);

} // namespace OkCodes
