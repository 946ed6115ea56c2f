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
            m += QStringLiteral(" — it ran to the --until-steady cap of ") + Units::formatNumber(capSec, 0)
                + QStringLiteral(" s");
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

QList<double> rounds(const QJsonArray& intervals, Unit unit)
{
    QList<double> acc;
    double start = 0;
    const QString key = unit == Unit::MBps ? QStringLiteral("bytes") : QStringLiteral("ops");
    for (const auto& v : intervals) {
        const QJsonObject o = v.toObject();
        const double end = o.value(QStringLiteral("t")).toDouble();
        const double len = end - start;
        const double amount = o.value(key).toDouble() / (unit == Unit::MBps ? 1e6 : 1.0);
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

QString unitKey(Unit unit)
{
    return unit == Unit::MBps ? QStringLiteral("mb_per_s") : QStringLiteral("iops");
}

QJsonObject toJson(const Result& r, Unit unit)
{
    const QJsonValue null(QJsonValue::Null);
    return QJsonObject { { QStringLiteral("evaluated"), r.evaluated }, { QStringLiteral("rounds"), r.rounds },
        { QStringLiteral("reached"), r.reached }, { QStringLiteral("at_s"), r.reached ? QJsonValue(r.atSec) : null },
        { QStringLiteral("window_s"), kWindowRounds }, { QStringLiteral("cache_answered"), r.cacheAnswered },
        { unitKey(unit), r.reached ? QJsonValue(round1(r.value)) : null } };
}

void annotate(const QString& part, const QJsonArray& intervals, Unit unit, int intervalMs, double capSec, bool complete,
    QJsonObject& summary, RunRecord& rec)
{
    // Intervals longer than a round cannot show rounds: nothing to evaluate.
    const Result r = intervalMs <= 1000 ? detect(rounds(intervals, unit)) : Result {};
    summary.insert(QStringLiteral("steady_state"), toJson(r, unit));
    if (complete)
        warn(part, r, unit, capSec, rec);
}

QJsonObject mergeRepeats(const QList<QJsonObject>& runSummaries)
{
    QList<double> at, value;
    int evaluated = 0, reached = 0, roundsMin = -1;
    bool cache = false;
    QString key = QStringLiteral("mb_per_s");
    for (const auto& s : runSummaries) {
        const QJsonObject o = s.value(QStringLiteral("steady_state")).toObject();
        if (o.contains(QStringLiteral("iops")))
            key = QStringLiteral("iops");
        const int n = o.value(QStringLiteral("rounds")).toInt();
        roundsMin = roundsMin < 0 ? n : std::min(roundsMin, n);
        evaluated += o.value(QStringLiteral("evaluated")).toBool() ? 1 : 0;
        cache = cache || o.value(QStringLiteral("cache_answered")).toBool();
        if (o.value(QStringLiteral("reached")).toBool()) {
            ++reached;
            at << o.value(QStringLiteral("at_s")).toDouble();
            value << o.value(key).toDouble();
        }
    }
    const bool all = reached > 0 && reached == runSummaries.size();
    const QJsonValue null(QJsonValue::Null);
    return QJsonObject { { QStringLiteral("evaluated"), evaluated == runSummaries.size() },
        { QStringLiteral("rounds"), std::max(0, roundsMin) }, { QStringLiteral("reached"), all },
        { QStringLiteral("reached_in"), reached }, { QStringLiteral("of"), int(runSummaries.size()) },
        { QStringLiteral("at_s"), reached ? QJsonValue(median(at)) : null },
        { QStringLiteral("window_s"), kWindowRounds }, { QStringLiteral("cache_answered"), cache },
        { key, reached ? QJsonValue(round1(median(value))) : null } };
}

std::function<bool()> untilSteady(const QJsonArray& intervals, Unit unit)
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
