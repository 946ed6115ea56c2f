#pragma once

#include "core/common/proberror.h"

#include <QString>

#include <functional>

// What a form shows for an error, in its own words: "Label: detail" for an input of the form, with every input the
// detail refers to (ProbeError::ref) named by its label in quotes, never by a command-line option; any other failure
// as its message, the inputs it names labelled alike. `label` maps a field id to the form's label.
namespace FormError {

using Labeller = std::function<QString(const QString& field)>;
QString text(const ProbeError& error, const Labeller& label, bool formsField);

} // namespace FormError
