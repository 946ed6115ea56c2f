#include "core/ldap/loadstats.h"

void LoadStats::merge(const LoadStats& o)
{
    latency.merge(o.latency);
    ok += o.ok;
    errors += o.errors;
    noEntry += o.noEntry;
    entries += o.entries;
    timeouts += o.timeouts;
    reconnects += o.reconnects;
    connectFailures += o.connectFailures;
    for (const auto& [code, n] : o.resultCodes)
        resultCodes[code] += n;
}

void LoadStats::reset()
{
    *this = LoadStats();
}

QJsonObject LoadStats::resultCodesJson() const
{
    QJsonObject o;
    for (const auto& [code, n] : resultCodes)
        o.insert(QString::number(code), double(n));
    return o;
}
