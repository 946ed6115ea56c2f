#include "ui/report/loadfigures.h"

#include "core/ldap/loadrecordfacts.h"

namespace LoadFigures {

bool coalescedReads(const QJsonObject& spec)
{
    const QString key = QStringLiteral("coalesce_reads");
    if (spec.value(key).toBool())
        return true;
    for (const auto& v : spec) // an experiment's loads: "load", or "plain" and "tls"
        if (v.toObject().value(key).toBool())
            return true;
    return false;
}

} // namespace LoadFigures
