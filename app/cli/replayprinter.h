#pragma once

#include "core/common/runrecord.h"

#include <cstdio>

struct ReplaySpec;
struct Workload;

namespace Cli {

void printReplayHeader(std::FILE* out, const ReplaySpec& spec, const Workload& workload);
// The per-template fidelity table (summary.fidelity): logged and replayed counts and shares, the most frequent
// result code of each, the log's etime and the replay's latency (p50/p99), then the drift sentences.
void printFidelity(std::FILE* out, const RunRecord& rec);

} // namespace Cli
