#pragma once

#include "core/common/runrecord.h"
#include "core/experiments/curve.h"

class RunContext;

namespace Experiments {

// The 389-ds entry-cache sweep (CurveSpec::Mode::CacheSweep), bound as an admin:
//  1. finds the backend that holds the base (cn=ldbm database), keeps its nsslapd-cachememsize and
//     nsslapd-cachesize and the ldbm nsslapd-cache-autosize, turns autosize off and the entry-count limit off;
//  2. measures the cached size of an entry (one subtree search of the base fills the cache; size / count);
//  3. for each point: sets nsslapd-cachememsize to coverage × N × bytes per entry (it applies online), restarts
//     the server when spec.restart (points below 1 % are raised to 1 %), fills the cache with the same search,
//     runs the load (warm-up, then the measured seconds), and reads the cache's entry count and the hit ratio
//     from the interval deltas of entrycachehits/entrycachetries;
//  4. puts the three settings back, also after a failure or a cancel.
// Without restart the record warns "online": a 389-ds resized online ran 20–35 % slower than a fresh process.
RunRecord runCacheSweep(const CurveSpec& spec, RunContext& ctx);

} // namespace Experiments
