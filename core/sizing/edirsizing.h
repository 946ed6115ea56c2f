#pragma once

#include "core/common/proberror.h"
#include "core/sizing/recommendation.h"
#include "core/sizing/sizinginput.h"

#include <optional>

// NetIQ / Novell eDirectory, FLAIM DIB (reference §3.5; Novell Cool Solutions "eDirectory cache" guidance).
//
//   block cache ≈ DIB × 1.0          (block cache : DIB ≈ 1:1)
//   entry cache ≈ DIB × 0.5          (entry cache : DIB ≈ 1:2 .. 1:4; exceeding these is better; 0.25 is the floor)
//   DIB < 250 MB: cache all of it in both caches (block = entry = DIB)
//   The total cache is split equally between block and entry cache by default, so with the default split
//   cache = 2 × max(block, entry)      e.g. DIB 4 GB -> block 4 GB + entry 2 GB; 8 GB with the 50/50 split
//
// The change is one `_ndsdb.ini` line in the DIB directory, `cache=<bytes>` (a hard limit); the file must end with
// a newline. DIB: --db-size-mb, else the LDIF's entry bytes (a lower bound).
namespace EdirSizing {

constexpr double kSmallDibMb = 250.0;
constexpr double kEntryRatio = 0.5;
constexpr double kEntryRatioFloor = 0.25;

std::optional<SizingResult> compute(const SizingInput& in, ProbeError* error);
QString source();

} // namespace EdirSizing
