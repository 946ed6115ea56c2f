#pragma once

#include "core/common/proberror.h"
#include "core/sizing/recommendation.h"
#include "core/sizing/sizinginput.h"

#include <optional>

// 389 Directory Server / Red Hat DS / HP-UX DS: the HP-UX Directory Server 8.1 tuning guide's formula as printed on
// its page 5 (reference §0.1, §3.1):
//
//   Total RAM = 1.2 × (27 MB + threads × 0.25 MB + dbcache + 2.3 × Σ entry caches in use + import cache)
//
//   1.2          "20 % headroom for handling operations"
//   27 MB        base size of the slapd process; 0.25 MB per worker thread (nsslapd-threadnumber)
//   2.3          applies to Σ nsslapd-cachememsize of the back ends in use (the seed text shows 2: --entry-factor)
//   import cache can share the dbcache memory if you never import online (then 0)
//   Equation 1   dbcachesize ≈ Σ size of the db4 files your operations need (page 8: 685 MB for all files of a
//                250k-entry database, 354 MB when only exact searches on cn are needed)
//   Equation 2   cachememsize = entries × currententrycachesize / currententrycachecount (page 9/10, after priming)
//   threads      close to the CPU count (page 6: best exact-search throughput with 6-8 threads on 8 CPUs)
//
// When an input is missing it is estimated, in this order, and a warning says so:
//   dbcache       --dbcache-mb, else --db-size-mb (Equation 1), else the LDIF's entry bytes (id2entry alone: a
//                 lower bound, the index files come on top)
//   entry cache   --entry-cache-mb, else Equation 2 with --entry-cache-bytes-per-entry (typed or the monitor's
//                 ratio), else LDIF mean entry bytes × --ldif-cache-factor (3.8: Sun ONE 5.2's cachememsize ≈
//                 3.8 × id2entry, taking id2entry ≈ the LDIF text)
//   threads       --threads, else --cpus
namespace Ds389Sizing {

constexpr double kBaseMb = 27.0;
constexpr double kPerThreadMb = 0.25;
constexpr double kHeadroom = 1.2;

// The total and its terms (MB) for given settings: the formula alone.
struct Terms
{
    double baseMb = 0;
    double dbcacheMb = 0;
    double entryCachesMb = 0; // Σ cachememsize
    double entryFactor = 2.3;
    double importCacheMb = 0;
    double cachesMb() const { return dbcacheMb + entryFactor * entryCachesMb + importCacheMb; }
    double totalMb() const { return kHeadroom * (baseMb + cachesMb()); }
};
Terms terms(int threads, double dbcacheMb, double entryCachesMb, double importCacheMb, double entryFactor = 2.3);

// Equation 2, in MB.
double equation2Mb(qint64 entries, double bytesPerEntry);

std::optional<SizingResult> compute(const SizingInput& in, ProbeError* error);

QString guidePage(int page); // "HP-UX DS 8.1 tuning guide, page N (URL)"

} // namespace Ds389Sizing
