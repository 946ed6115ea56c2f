#pragma once

#include "core/common/proberror.h"
#include "core/sizing/sizinginput.h"

#include <QList>
#include <QString>
#include <QStringList>

// The typed inputs of a sizing, named as the command line names them ("ram-mb", "entry-factor", …): their help,
// which server kind's calculator reads each, and setting one on a SizingInput. The CLI and the Sizing page read
// their inputs through these, so an input is spelled and checked once.
namespace SizingOptions {

struct NumberOption
{
    QString name; // "ram-mb"
    QString help; // the CLI's help text, the page's tooltip
};

const QList<NumberOption>& numbers();
// The inputs a server kind's calculator reads (numbers, and the texts backend, instance and ldif); any other is
// refused for that kind.
QStringList inputsOf(SizingServer server);
// "ram-mb" -> "ram_mb": the input's key in SizingInput::origin and in the record's spec.
QString originKey(const QString& option);
// Sets the number input `option` to v (and records its origin as "typed"); an error naming the option when v is not
// a whole number where one is needed, or when the option is not a number input.
ProbeError setNumber(SizingInput* in, const QString& option, double v);

} // namespace SizingOptions
