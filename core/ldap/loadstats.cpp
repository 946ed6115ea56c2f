#include "core/ldap/loadstats.h"

void LoadCounts::merge(const LoadCounts& o)
{
    if (o.latency.count() > 0)
        latency.merge(o.latency);
    ok += o.ok;
    errors += o.errors;
    noEntry += o.noEntry;
    entries += o.entries;
    timeouts += o.timeouts;
    for (const auto& [code, n] : o.resultCodes)
        resultCodes[code] += n;
}

void LoadCounts::reset()
{
    if (latency.count() > 0)
        latency.reset();
    ok = errors = noEntry = entries = timeouts = 0;
    resultCodes.clear();
}

void LoadStats::merge(const LoadStats& o)
{
    all.merge(o.all);
    for (size_t i = 0; i < byOp.size(); ++i)
        if (!o.byOp[i].empty())
            byOp[i].merge(o.byOp[i]);
    reconnects += o.reconnects;
    connectFailures += o.connectFailures;
    missed += o.missed;
    if (o.sendLag.count() > 0)
        sendLag.merge(o.sendLag);
}

void LoadStats::reset()
{
    all.reset();
    for (LoadCounts& c : byOp)
        if (!c.empty())
            c.reset();
    reconnects = connectFailures = missed = 0;
    if (sendLag.count() > 0)
        sendLag.reset();
}
