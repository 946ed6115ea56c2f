#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <cstdio>

namespace Cli {

// One line per interval: MB/s, IOPS, p50/p99 latency and the witness device's bytes with their ratio to the test's.
void printDiskInterval(std::FILE* out, const Sample& s);
// The table of tests (a row per test or suite part), each sustained test's steady state, engine, verdicts,
// warnings and status.
void printDiskSummary(std::FILE* out, const RunRecord& rec);
// Disk under LDAP load: idle and loaded rows, the change, the LDAP load's summary.
void printDiskUnderLoadSummary(std::FILE* out, const RunRecord& rec);

} // namespace Cli
