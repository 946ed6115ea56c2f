#pragma once

#include "core/common/runrecord.h"
#include "core/experiments/curve.h"

class RunContext;

namespace Experiments {

// The working-set sweep (CurveSpec::Mode::WorkingSet), for any server and any bind: the server is not changed.
// The cache holds C entries (spec.cacheEntries, or, on 389-ds, maxentrycachesize / the cached size of an entry);
// for coverage c the filter's range is cut to its first round(C / c) keys (at most N; c = 0 takes all N), so the
// cache can hold c of what the load touches. Each point warms up on its own key range, then is measured.
// hit_ratio is null where the server exposes no entry cache counters (OpenLDAP back-mdb relies on the page cache).
RunRecord runWorkingSetSweep(const CurveSpec& spec, RunContext& ctx);

} // namespace Experiments
