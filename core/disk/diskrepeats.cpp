#include "core/disk/diskrepeats.h"

#include "core/common/runrecord.h"
#include "core/common/samplestats.h"
#include "core/common/units.h"
#include "core/disk/steadystate.h"

#include <algorithm>
#include <cmath>

namespace Disk {

namespace {

using Field = std::optional<double> DiskSummary::*;
using LatencyField = std::optional<double> DiskLatency::*;

// The median over the repeats that have the figure, when the first one has it.
template <typename Get> std::optional<double> medianOf(const QList<DiskSummary>& runs, Get get)
{
    if (!get(runs.first()))
        return std::nullopt;
    QList<double> v;
    for (const DiskSummary& r : runs)
        if (const std::optional<double> x = get(r))
            v << *x;
    return Steady::median(v);
}

DiskSummary medianSummary(const QList<DiskSummary>& runs)
{
    DiskSummary out;
    out.test = runs.first().test;
    for (Field f : { &DiskSummary::mbPerS, &DiskSummary::iops, &DiskSummary::bytes, &DiskSummary::ops,
             &DiskSummary::seconds, &DiskSummary::setupS, &DiskSummary::commitsPerS })
        out.*f = medianOf(runs, [f](const DiskSummary& s) { return s.*f; });
    for (LatencyField f : { &DiskLatency::mean, &DiskLatency::p50, &DiskLatency::p95, &DiskLatency::p99,
             &DiskLatency::p999, &DiskLatency::min, &DiskLatency::max })
        out.latencyUs.*f = medianOf(runs, [f](const DiskSummary& s) { return s.latencyUs.*f; });
    out.deviceBytesBeforeSync = medianOf(runs, [](const DiskSummary& s) { return s.deviceBytesBeforeSync; });
    out.hasDeviceBytesBeforeSync = out.deviceBytesBeforeSync.has_value();
    return out;
}

// *cv: the coefficient of variation before it is rounded for the record.
DiskSpread spreadOf(const QList<DiskSummary>& runs, Field field, double* cv)
{
    QList<double> v;
    for (const DiskSummary& r : runs)
        v << (r.*field).value_or(0);
    const MeanSd s = meanSd(v);
    *cv = s.mean > 0 && v.size() > 1 ? s.sd / s.mean : 0;
    return DiskSpread { *std::min_element(v.begin(), v.end()), Steady::median(v), *std::max_element(v.begin(), v.end()),
        std::round(*cv * 1000.0) / 1000.0 };
}

} // namespace

DiskSummary mergeRepeats(const QString& part, const QList<DiskSummary>& runs, RunRecord& rec)
{
    if (runs.size() == 1)
        return runs.first();
    DiskSummary s = medianSummary(runs);
    s.repeats.assign(runs.begin(), runs.end());
    if (runs.first().steadyState)
        s.steadyState = Steady::mergeRepeats(runs);
    double cvMb = 0, cvIops = 0;
    s.spreadMbPerS = spreadOf(runs, &DiskSummary::mbPerS, &cvMb);
    s.spreadIops = spreadOf(runs, &DiskSummary::iops, &cvIops);
    const double cv = std::max(cvMb, cvIops);
    if (cv > 0.2)
        rec.addWarning(QStringLiteral("spread"),
            part + QStringLiteral(": repeats differ by more than 20 % (coefficient of variation ")
                + Units::formatNumber(cv * 100.0) + QStringLiteral(" %); one run says little"));
    return s;
}

} // namespace Disk
