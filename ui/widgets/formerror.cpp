#include "ui/widgets/formerror.h"

namespace FormError {

QString text(const ProbeError& error, const Labeller& label, bool formsField)
{
    const auto quoted = [&label](const QString& field) { return QString(u'“' + label(field) + u'”'); };
    if (formsField && error.kind == ProbeError::Kind::InvalidSpec && !error.field.isEmpty())
        return label(error.field) + QStringLiteral(": ") + error.detailNaming(quoted);
    ProbeError named = error;
    named.detail = error.detailNaming(quoted); // message() then finds no reference left to name as an option
    return named.message();
}

} // namespace FormError
