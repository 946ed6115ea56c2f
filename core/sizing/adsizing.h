#pragma once

#include "core/common/proberror.h"
#include "core/sizing/recommendation.h"
#include "core/sizing/sizinginput.h"

#include <optional>

// Active Directory (reference §3.6). AD has no cache to set: ESE grows its cache into free RAM, so the sizing is
// the RAM the domain controller needs to hold NTDS.dit in memory.
//
//   RAM   = OS (2..4 GB) + NTDS.dit + SYSVOL                   (capacity-planning summary)
//   NTDS.dit ≈ 0.4 GB per 1,000 users (WS2008 guide), when not measured; SYSVOL ≈ 500 MB
//   cores ≈ users authenticating at the peak / 1,000, then check the 40 % peak CPU target
//   e.g. 50,000 users: NTDS ≈ 20 GB -> RAM ≈ 4 + 20 + 0.5 = 24.5 GB
namespace AdSizing {

constexpr double kNtdsMbPerUser = 0.4; // 0.4 GB per 1,000 users
constexpr double kUsersPerCore = 1000.0;

std::optional<SizingResult> compute(const SizingInput& in, ProbeError* error);
QString source();

} // namespace AdSizing
