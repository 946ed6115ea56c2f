#include "core/store/ldapmetrics.h"

#include "core/ldap/loadresult.h"

#include <QJsonArray>

#include <algorithm>
#include <utility>

namespace Comparison::LdapMetrics {

namespace {

Metric metric(const QString& key, const QString& label, const QString& unit, bool higherIsBetter,
    std::optional<double> value, const QString& intervalKey = {})
{
    Metric m;
    m.key = key;
    m.label = label;
    m.unit = unit;
    m.higherIsBetter = higherIsBetter;
    m.value = value;
    m.intervalKey = intervalKey;
    return m;
}

// kind "" is the whole run (its rows keep the keys they always had: "ops_per_s", "latency_ms/p99", ...).
void appendFigures(QList<Metric>* out, const OpFigures& f, const QString& kind, const QString& latencyNote)
{
    const bool all = kind.isEmpty();
    const QString key = all ? QString() : kind + u'/';
    const QString label = all ? QString() : kind + u' ';
    // Old intervals have no ok_per_s: a chart of them plots what they hold.
    Metric ok = metric(key + QStringLiteral("ok_per_s"), label + QStringLiteral("ok/s"), QStringLiteral("ok/s"), true,
        f.okPerS, all ? (f.okDerived ? QStringLiteral("ops_per_s") : QStringLiteral("ok_per_s")) : QString());
    ok.derived = f.okDerived;
    *out << ok;
    if (all)
        *out << metric(QStringLiteral("ops_per_s"), QStringLiteral("ops/s (completed)"), QStringLiteral("ops/s"), true,
            f.opsPerS, QStringLiteral("ops_per_s"));
    *out << metric(key + QStringLiteral("errors"), label + QStringLiteral("errors"), QString(), false, f.errors);
    QList<std::pair<const char*, std::optional<double>>> latency { { "p50", f.latencyMs.p50 },
        { "p99", f.latencyMs.p99 } };
    if (all) // per operation: the percentiles only
        latency.prepend({ "mean", f.latencyMs.mean });
    for (const auto& [name, value] : std::as_const(latency))
        *out << metric(key + QStringLiteral("latency_ms/") + QLatin1String(name),
            label + QLatin1String(name) + QStringLiteral(" latency") + latencyNote, QStringLiteral("ms"), false, value);
}

} // namespace

QList<Metric> ofLoad(const RunRecord& r)
{
    if (r.summary.isEmpty())
        return {};
    const LoadSummary s = LoadSummary::fromJson(r.summary);
    const QString note = coalescedReads(r) ? QStringLiteral(" (coalesced reads)") : QString();
    QList<Metric> out;
    appendFigures(&out, s.all, QString(), note);
    for (const auto& [kind, f] : s.byOperation)
        appendFigures(&out, f, kind, note);
    return out;
}

std::optional<double> secondsPerPoint(const RunRecord& r)
{
    const QJsonValue each = r.spec.value(QStringLiteral("seconds_per_point"));
    if (each.isDouble() && each.toDouble() > 0)
        return each.toDouble();
    const QJsonValue load = r.spec.value(QStringLiteral("load")).toObject().value(QStringLiteral("duration_s"));
    if (load.isDouble() && load.toDouble() > 0)
        return load.toDouble();
    return std::nullopt;
}

std::optional<PointRate> pointOkPerS(const QJsonObject& p, std::optional<double> seconds)
{
    const QJsonValue ok = p.value(QStringLiteral("ok_per_s"));
    if (ok.isDouble())
        return PointRate { ok.toDouble(), false };
    const QJsonValue ops = p.value(QStringLiteral("ops_per_s"));
    if (!ops.isDouble())
        return std::nullopt;
    const double errors = p.value(QStringLiteral("errors")).toDouble();
    const double perS = seconds && errors > 0 ? errors / *seconds : 0.0;
    return PointRate { std::max(0.0, ops.toDouble() - perS), true };
}

Metric meanOverPoints(const RunRecord& r)
{
    const auto seconds = secondsPerPoint(r);
    double sum = 0;
    int n = 0;
    bool derived = false;
    const QJsonArray points = r.summary.value(QStringLiteral("points")).toArray();
    for (const auto& v : points) {
        if (const auto p = pointOkPerS(v.toObject(), seconds)) {
            sum += p->value;
            derived = derived || p->derived;
            ++n;
        }
    }
    Metric m = metric(QStringLiteral("mean_ok_per_s"), QStringLiteral("mean ok/s over the points"),
        QStringLiteral("ok/s"), true, n ? std::optional<double>(sum / n) : std::nullopt,
        derived ? QStringLiteral("ops_per_s") : QStringLiteral("ok_per_s"));
    m.derived = derived;
    return m;
}

Metric bestOfSweep(const RunRecord& r)
{
    Metric m = metric(QStringLiteral("best_ok_per_s"), QStringLiteral("best ok/s"), QStringLiteral("ok/s"), true,
        std::nullopt, QStringLiteral("ok_per_s"));
    const QJsonValue best = r.summary.value(QStringLiteral("best_ok_per_s"));
    if (best.isDouble()) {
        m.value = best.toDouble();
        return m;
    }
    const auto seconds = secondsPerPoint(r);
    const QJsonArray points = r.summary.value(QStringLiteral("points")).toArray();
    for (const auto& v : points)
        if (const auto p = pointOkPerS(v.toObject(), seconds); p && (!m.value || p->value > *m.value))
            m.value = p->value;
    const QJsonValue bestOps = r.summary.value(QStringLiteral("best_ops_per_s"));
    if (!m.value && bestOps.isDouble())
        m.value = bestOps.toDouble(); // no points to take the errors from
    m.derived = m.value.has_value();
    m.intervalKey = QStringLiteral("ops_per_s");
    return m;
}

} // namespace Comparison::LdapMetrics
