#pragma once

#include "core/common/runrecord.h"
#include "core/disk/diskresult.h"

#include <QJsonObject>

#include <optional>

// A disk-under-LDAP-load record typed (Experiments::runDiskUnderLoad): the disk test alone and under load, the change
// the load made, the LDAP load's own summary. Read here only; the CLI printer and the window's view use the fields.
struct DiskUnderLoadSummary
{
    std::optional<DiskSummary> idle; // the disk test alone; none without a baseline
    DiskSummary loaded; // the disk test under the LDAP load
    bool hasLoaded = false; // the record holds the loaded test (false: cancelled before it)
    bool hasChange = false; // the record compares the two (a baseline ran)
    std::optional<double> mbPerSPct, iopsPct, p99Pct; // the loaded test against the idle one, in %
    QJsonObject ldapSummary; // the LDAP load's summary (LoadSummary::fromJson reads it); empty when none ran

    static DiskUnderLoadSummary of(const RunRecord& record);
    // The LDAP part as a load record of its own: the record with the LDAP load's summary, for the load's printer.
    static RunRecord ldapRecordOf(const RunRecord& record);
};
