#include "core/disk/steadystate.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "core/disk/diskspec.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace Steady {

namespace {

double round1(double v)
{
    return std::round(v * 10.0) / 10.0;
}

double mean(const QList<double>& v, qsizetype from, qsizetype n)
{
    double sum = 0;
    for (qsizetype i = from; i < from + n; ++i)
        sum += v[i];
    return n > 0 ? sum / double(n) : 0.0;
}

// The window of kWindowRounds rounds starting at `from`: steady, and its average in *avg.
bool steadyWindow(const QList<double>& r, qsizetype from, double* avg)
{
    const double m = mean(r, from, kWindowRounds);
    *avg = m;
    if (m <= 0)
        return false;
    double sxy = 0, sxx = 0;
    const double xm = (kWindowRounds - 1) / 2.0;
    for (int i = 0; i < kWindowRounds; ++i) {
        const double y = r[from + i];
        if (std::abs(y - m) > kBand * m)
            return false;
        sxy += (i - xm) * (y - m);
        sxx += (i - xm) * (i - xm);
    }
    const double slope = sxy / sxx; // per round, i.e. per second
    return std::abs(slope) * kWindowRounds < kSlope * m;
}

QString figure(double v, Unit unit)
{
    return Units::formatNumber(v, unit == Unit::Iops ? 0 : 1)
        + (unit == Unit::Iops ? QStringLiteral(" IOPS") : QStringLiteral(" MB/s"));
}

void warn(const QString& part, const Result& r, Unit unit, double capSec, RunRecord& rec)
{
    if (!r.evaluated)
        return;
    if (!r.reached) {
        QString m = part + QStringLiteral(": no ") + QString::number(kWindowRounds)
            + QStringLiteral(" s window of its ") + QString::number(r.rounds)
            + QStringLiteral(" s held steady (every 1 s round within ±10 % of the window's average, fitted slope "
                             "under 10 % of it); the whole-run figure may still be moving");
        if (capSec > 0)
            m += QStringLiteral(" — it ran to its cap of ") + Units::formatNumber(capSec, 0) + QStringLiteral(" s");
        rec.addWarning(QStringLiteral("not-steady"), m);
    }
    if (r.cacheAnswered) {
        QString m = part + QStringLiteral(": the first ") + QString::number(r.headRounds) + QStringLiteral(" s ran at ")
            + figure(r.headAvg, unit) + QStringLiteral(", the last ") + QString::number(r.tailRounds)
            + QStringLiteral(" s at ") + figure(r.tailAvg, unit)
            + QStringLiteral(": a write-back cache (host, controller or an SSD's fast area) answered first, then "
                             "the disk behind it");
        if (r.reached)
            m += QStringLiteral("; steady from ") + QString::number(r.atSec, 'f', 0) + QStringLiteral(" s at ")
                + figure(r.value, unit);
        rec.addWarning(QStringLiteral("cache-answered"), m);
    }
}

} // namespace

QList<double> rounds(const QList<DiskInterval>& intervals, Unit unit)
{
    QList<double> acc;
    double start = 0;
    for (const DiskInterval& i : intervals) {
        const double end = i.t;
        const double len = end - start;
        const double amount = unit == Unit::MBps ? i.bytes / 1e6 : i.ops;
        for (qsizetype k = qsizetype(std::floor(start)); len > 0 && double(k) < end; ++k) {
            const double overlap = std::min(end, double(k + 1)) - std::max(start, double(k));
            if (acc.size() <= k)
                acc.resize(k + 1, 0.0);
            if (overlap > 0)
                acc[k] += amount * overlap / len;
        }
        start = std::max(start, end);
    }
    acc.resize(std::min(acc.size(), qsizetype(std::floor(start + 1e-6))));
    return acc;
}

Result detect(const QList<double>& r)
{
    Result out;
    out.rounds = int(r.size());
    if (out.rounds < kWindowRounds)
        return out;
    out.evaluated = true;
    for (qsizetype i = 0; i + kWindowRounds <= r.size(); ++i) {
        double avg = 0;
        if (steadyWindow(r, i, &avg)) {
            out.reached = true;
            out.atSec = double(i + kWindowRounds);
            out.value = avg;
            break;
        }
    }
    out.headRounds = std::max(1, int(double(out.rounds) * kHeadShare));
    out.tailRounds = std::max(2, int(double(out.rounds) * kTailShare));
    out.headAvg = mean(r, 0, out.headRounds);
    out.tailAvg = mean(r, r.size() - out.tailRounds, out.tailRounds);
    out.cacheAnswered = out.headAvg > kCacheRatio * out.tailAvg;
    return out;
}

DiskSteadyState figures(const Result& r, Unit unit)
{
    DiskSteadyState s;
    s.evaluated = r.evaluated;
    s.rounds = r.rounds;
    s.reached = r.reached;
    s.windowS = kWindowRounds;
    s.cacheAnswered = r.cacheAnswered;
    s.rate = unit;
    if (r.reached) {
        s.atS = r.atSec;
        s.value = round1(r.value);
    }
    return s;
}

void annotate(const QString& part, const QList<DiskInterval>& intervals, Unit unit, int intervalMs, double capSec,
    bool complete, DiskSummary& summary, RunRecord& rec)
{
    // Intervals longer than a round cannot show rounds: nothing to evaluate.
    const Result r = intervalMs <= 1000 ? detect(rounds(intervals, unit)) : Result {};
    summary.steadyState = figures(r, unit);
    if (complete)
        warn(part, r, unit, capSec, rec);
}

DiskSteadyState mergeRepeats(const QList<DiskSummary>& runSummaries)
{
    QList<double> at, value;
    int evaluated = 0, reached = 0, roundsMin = -1;
    DiskSteadyState out;
    for (const DiskSummary& s : runSummaries) {
        const DiskSteadyState o = s.steadyState.value_or(DiskSteadyState {});
        if (o.rate == Unit::Iops)
            out.rate = Unit::Iops;
        roundsMin = roundsMin < 0 ? o.rounds : std::min(roundsMin, o.rounds);
        evaluated += o.evaluated ? 1 : 0;
        out.cacheAnswered = out.cacheAnswered || o.cacheAnswered;
        if (o.reached) {
            ++reached;
            at << o.atS.value_or(0);
            value << o.value.value_or(0);
        }
    }
    out.evaluated = evaluated == runSummaries.size();
    out.rounds = std::max(0, roundsMin);
    out.reached = reached > 0 && reached == runSummaries.size();
    out.reachedIn = reached;
    out.of = int(runSummaries.size());
    out.windowS = kWindowRounds;
    if (reached) {
        out.atS = median(at);
        out.value = round1(median(value));
    }
    return out;
}

std::function<bool()> untilSteady(const QList<DiskInterval>& intervals, Unit unit)
{
    auto seen = std::make_shared<qsizetype>(-1);
    auto steady = std::make_shared<bool>(false);
    return [&intervals, unit, seen, steady]() {
        if (!*steady && intervals.size() != *seen) {
            *seen = intervals.size();
            *steady = detect(rounds(intervals, unit)).reached;
        }
        return *steady;
    };
}

ProbeError validate(const DiskSpec& spec)
{
    const double cap = spec.untilSteadySec;
    if (cap == 0)
        return {};
    const QString field = QStringLiteral("until-steady");
    if (!(cap >= kWindowRounds && cap <= 86400))
        return ProbeError::invalid(field, QStringLiteral("must be between 5 and 86400 seconds (a window is 5 s)"));
    if (spec.profile == DiskProfile::Dd)
        return ProbeError::invalid(field, QStringLiteral("the dd profile is a fixed count of writes, not sustained"));
    if (spec.durationSec >= 0)
        return ProbeError::invalid(field, QStringLiteral("replaces --duration for the sustained part; give one"));
    if (spec.intervalMs > 1000)
        return ProbeError::invalid(field, QStringLiteral("needs --interval of at most 1 s (rounds are 1 s)"));
    return {};
}

double median(QList<double> v)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    const auto n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

} // namespace Steady
