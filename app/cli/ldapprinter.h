#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <cstdio>

struct LdapLoadSpec;

namespace Cli {

void printProbe(std::FILE* out, const RunRecord& rec);
void printLoadHeader(std::FILE* out, const LdapLoadSpec& spec);
// One line per interval: ok/s (successes) first, then ops/s (completed), errors, p50/p99 latency ("(coalesced
// reads)" after them when the load held responses), missed arrivals when there were any, the server's rate.
void printLoadInterval(std::FILE* out, const Sample& s, bool coalescedReads = false);
// The summary: ok/s, ops/s, ok, errors and latency, all operations and, for a mix, each kind; load threads' and the
// whole client's CPU per operation; timeouts, reconnects, missed arrivals; result codes; server counters; warnings.
void printLoadSummary(std::FILE* out, const RunRecord& rec);

} // namespace Cli
