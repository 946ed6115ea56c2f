#pragma once

#include "core/common/runrecord.h"
#include "core/disk/diskspec.h"
#include "core/ldap/loadspec.h"

#include <functional>

class RunContext;

// The seed's own experiment (304 -> 297 MB/s "when running a continuous LDAP thread"), done properly: the disk
// test runs once alone, then again while an LDAP load runs against a server on the same host. One record holds
// every series on one time axis: "disk (idle)", then "disk (under load)" and "ldap" side by side; the summary
// has each part and the change the load made.
struct DiskUnderLoadSpec
{
    DiskSpec disk;
    LdapLoadSpec load; // its duration is ignored: the load runs for as long as the loaded disk test
    double leadSeconds = 2; // the load runs alone this long before the loaded disk test starts
    bool baseline = true; // run the disk test alone first

    ProbeError validate() const;
    QJsonObject toJson() const;
};

namespace Experiments {

RunRecord runDiskUnderLoad(const DiskUnderLoadSpec& spec, RunContext& ctx);

inline std::function<RunRecord(RunContext&)> makeDiskUnderLoadJob(DiskUnderLoadSpec spec)
{
    return [spec = std::move(spec)](RunContext& ctx) { return runDiskUnderLoad(spec, ctx); };
}

} // namespace Experiments
