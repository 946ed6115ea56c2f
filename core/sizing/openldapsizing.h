#pragma once

#include "core/common/proberror.h"
#include "core/sizing/recommendation.h"
#include "core/sizing/sizinginput.h"

#include <optional>

// OpenLDAP back-mdb (reference §3.4; slapd-mdb(5)). back-mdb "relies completely on the underlying operating system
// for memory management and does no caching of its own": the cache is the OS page cache over data.mdb.
//
//   maxsize = data.mdb × (1 + growth) × safety          (the map size: a hard cap on database growth)
//   RAM     = data.mdb + threads × 8 MiB + OS reserve    (searchstack: 512 KiB per level per thread, depth 16)
//
// data.mdb: --db-size-mb (its size now), else the LDIF's entry bytes (a lower bound: indexes and free pages come on
// top). threads: --threads, else slapd's default 16 (slapd.conf(5) "threads"). growth 0.25, safety 1.5 and the OS
// reserve 2,000 MB are the reference's example values, parameters here.
namespace OpenLdapSizing {

constexpr int kDefaultThreads = 16;
constexpr double kSearchStackMbPerThread = 8.0 * 1048576.0 / 1e6; // 8 MiB in MB

std::optional<SizingResult> compute(const SizingInput& in, ProbeError* error);
QString source();

} // namespace OpenLdapSizing
