#pragma once

#include <cmath>

// The mean and the sample standard deviation (divided by n - 1) of a list of values, as repeats and intervals
// use them; sd is 0 for fewer than two values, both are 0 for none.
struct MeanSd
{
    double mean = 0;
    double sd = 0;
};

template <typename Values> MeanSd meanSd(const Values& values)
{
    MeanSd out;
    if (values.empty())
        return out;
    for (double x : values)
        out.mean += x;
    const auto n = double(values.size());
    out.mean /= n;
    if (values.size() < 2)
        return out;
    double ss = 0;
    for (double x : values)
        ss += (x - out.mean) * (x - out.mean);
    out.sd = std::sqrt(ss / (n - 1));
    return out;
}
