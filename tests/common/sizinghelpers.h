#pragma once

// Small helpers of the sizing tests: a 389-ds input, a term of a result, a comparison with a tolerance.
#include "core/sizing/serversizing.h"

#include <cmath>

namespace SizingHelpers {

constexpr double kMiB = 1048576.0;

inline SizingInput ds389(int threads)
{
    SizingInput in;
    in.server = SizingServer::Ds389;
    in.threads = threads;
    return in;
}

inline double term(const SizingResult& r, const char* key)
{
    return r.terms.value(QLatin1String(key)).toDouble(std::nan(""));
}

inline bool near(double a, double b, double tol = 1e-6)
{
    return std::abs(a - b) <= tol;
}

} // namespace SizingHelpers
