#include "core/experiments/diskunderloadsummary.h"

#include "core/common/jsonread.h"

DiskUnderLoadSummary DiskUnderLoadSummary::of(const RunRecord& record)
{
    const QJsonObject& s = record.summary;
    DiskUnderLoadSummary d;
    if (const QJsonValue idle = s.value(QLatin1String("disk_idle")); idle.isObject())
        d.idle = DiskSummary::fromJson(idle.toObject());
    const QJsonValue loaded = s.value(QLatin1String("disk_loaded"));
    d.hasLoaded = loaded.isObject();
    d.loaded = DiskSummary::fromJson(loaded.toObject());
    const QJsonObject change = s.value(QLatin1String("change")).toObject();
    d.hasChange = !change.isEmpty();
    d.mbPerSPct = JsonRead::number(change, "mb_per_s_pct");
    d.iopsPct = JsonRead::number(change, "iops_pct");
    d.p99Pct = JsonRead::number(change, "p99_pct");
    d.ldapSummary = s.value(QLatin1String("ldap")).toObject();
    return d;
}

RunRecord DiskUnderLoadSummary::ldapRecordOf(const RunRecord& record)
{
    RunRecord ldap = record;
    ldap.summary = of(record).ldapSummary;
    return ldap;
}
