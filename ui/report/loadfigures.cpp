#include "ui/report/loadfigures.h"

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

PointRate pointRate(const QJsonObject& point)
{
    const QJsonValue ok = point.value(QStringLiteral("ok_per_s"));
    if (ok.isDouble())
        return { ok.toDouble(), false, true };
    const QJsonValue ops = point.value(QStringLiteral("ops_per_s"));
    return { ops.toDouble(), true, ops.isDouble() };
}

} // namespace LoadFigures
