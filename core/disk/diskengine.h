#pragma once

#include "core/common/runrecord.h"
#include "core/disk/diskspec.h"

#include <functional>

class RunContext;

namespace Disk {

// Runs a whole disk test (repeats, suite parts, verdicts) synchronously and returns its record. Samples go to the
// context as they are measured; a stop request ends the run within one I/O round (no new I/O is issued after it).
// The record's status is "ok", "failed" (with `failure` set; the intervals measured so far are kept) or
// "cancelled". The test file never outlives the call, nor the process.
RunRecord run(const DiskSpec& spec, RunContext& ctx);

inline std::function<RunRecord(RunContext&)> makeJob(DiskSpec spec)
{
    return [spec = std::move(spec)](RunContext& ctx) { return run(spec, ctx); };
}

} // namespace Disk
