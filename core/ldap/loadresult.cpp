#include "core/ldap/loadresult.h"

#include "core/common/jsonread.h"
#include "core/common/units.h"
#include "core/ldap/ldapsession.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <ctime>

namespace {

double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

double round1(double v)
{
    return std::round(v * 10.0) / 10.0;
}

QJsonValue orNull(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

using JsonRead::number;

QJsonObject codesJson(const std::map<int, double>& codes)
{
    QJsonObject o;
    for (const auto& [code, n] : codes)
        o.insert(QString::number(code), n);
    return o;
}

std::map<int, double> codesFromJson(const QJsonObject& o)
{
    std::map<int, double> out;
    for (auto it = o.begin(); it != o.end(); ++it)
        out[it.key().toInt()] = it.value().toDouble();
    return out;
}

QJsonObject byKindJson(const OpFiguresByKind& m, bool full)
{
    QJsonObject o;
    for (const auto& [kind, f] : m)
        o.insert(kind, f.toJson(full));
    return o;
}

OpFiguresByKind byKindFromJson(const QJsonValue& v)
{
    OpFiguresByKind out;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it)
        out[it.key()] = OpFigures::fromJson(it.value().toObject());
    return out;
}

} // namespace

LatencyFigures LatencyFigures::of(const LatencyHistogram& h)
{
    LatencyFigures f;
    if (h.count() == 0)
        return f;
    auto ms = [](uint64_t ns) { return round3(double(ns) / 1e6); };
    f.mean = round3(h.mean() / 1e6);
    f.p50 = ms(h.percentile(0.5));
    f.p95 = ms(h.percentile(0.95));
    f.p99 = ms(h.percentile(0.99));
    f.p999 = ms(h.percentile(0.999));
    f.max = ms(h.max());
    f.min = ms(h.min());
    return f;
}

QJsonObject LatencyFigures::toJson(bool full) const
{
    QJsonObject o { { QStringLiteral("mean"), orNull(mean) }, { QStringLiteral("p50"), orNull(p50) },
        { QStringLiteral("p95"), orNull(p95) }, { QStringLiteral("p99"), orNull(p99) },
        { QStringLiteral("max"), orNull(max) } };
    if (full) {
        o.insert(QStringLiteral("p999"), orNull(p999));
        o.insert(QStringLiteral("min"), orNull(min));
    }
    return o;
}

LatencyFigures LatencyFigures::fromJson(const QJsonObject& o)
{
    LatencyFigures f;
    f.mean = number(o, "mean");
    f.p50 = number(o, "p50");
    f.p95 = number(o, "p95");
    f.p99 = number(o, "p99");
    f.p999 = number(o, "p999");
    f.max = number(o, "max");
    f.min = number(o, "min");
    return f;
}

OpFigures OpFigures::of(const LoadCounts& c, double seconds)
{
    OpFigures f;
    f.ops = double(c.ops());
    f.ok = double(c.ok);
    f.errors = double(c.errors);
    f.entries = double(c.entries);
    f.noEntry = double(c.noEntry);
    f.timeouts = double(c.timeouts);
    if (seconds > 0) {
        f.opsPerS = round1(f.ops / seconds);
        f.okPerS = round1(f.ok / seconds);
        f.entriesPerS = round1(f.entries / seconds);
    }
    for (const auto& [code, n] : c.resultCodes)
        f.resultCodes[code] = double(n);
    f.latencyMs = LatencyFigures::of(c.latency);
    return f;
}

LoadCounts OpFigures::counts() const
{
    LoadCounts c;
    c.latency = LatencyHistogram::fromJson(latencyHistogramNs);
    c.ok = uint64_t(ok);
    c.errors = uint64_t(errors);
    c.noEntry = uint64_t(noEntry);
    c.entries = uint64_t(entries);
    c.timeouts = uint64_t(timeouts);
    for (const auto& [code, n] : resultCodes)
        c.resultCodes[code] = uint64_t(n);
    return c;
}

QJsonObject OpFigures::toJson(bool full) const
{
    QJsonObject o { { QStringLiteral("ops"), ops }, { QStringLiteral("ok"), ok }, { QStringLiteral("errors"), errors },
        { QStringLiteral("ops_per_s"), opsPerS }, { QStringLiteral("ok_per_s"), okPerS },
        { QStringLiteral("entries"), entries }, { QStringLiteral("entries_per_s"), entriesPerS },
        { QStringLiteral("no_entry"), noEntry }, { QStringLiteral("timeouts"), timeouts },
        { QStringLiteral("result_codes"), codesJson(resultCodes) },
        { QStringLiteral("latency_ms"), latencyMs.toJson(full) } };
    if (!latencyHistogramNs.isEmpty())
        o.insert(QStringLiteral("latency_histogram_ns"), latencyHistogramNs);
    return o;
}

OpFigures OpFigures::fromJson(const QJsonObject& o)
{
    OpFigures f;
    f.ops = o.value(QStringLiteral("ops")).toDouble();
    f.errors = o.value(QStringLiteral("errors")).toDouble();
    f.opsPerS = o.value(QStringLiteral("ops_per_s")).toDouble();
    f.entries = o.value(QStringLiteral("entries")).toDouble();
    f.noEntry = o.value(QStringLiteral("no_entry")).toDouble();
    f.timeouts = o.value(QStringLiteral("timeouts")).toDouble();
    f.resultCodes = codesFromJson(o.value(QStringLiteral("result_codes")).toObject());
    f.latencyMs = LatencyFigures::fromJson(o.value(QStringLiteral("latency_ms")).toObject());
    f.latencyHistogramNs = o.value(QStringLiteral("latency_histogram_ns")).toObject();
    if (o.contains(QStringLiteral("ok"))) {
        f.ok = o.value(QStringLiteral("ok")).toDouble();
        f.okPerS = o.value(QStringLiteral("ok_per_s")).toDouble();
        f.entriesPerS = o.value(QStringLiteral("entries_per_s")).toDouble();
    } else { // a record made before successes were counted apart
        f.okDerived = true;
        f.ok = std::max(0.0, f.ops - f.errors);
        f.okPerS = f.ops > 0 ? round1(f.opsPerS * f.ok / f.ops) : 0.0;
        f.entriesPerS = f.ops > 0 && f.opsPerS > 0 ? round1(f.entries * f.opsPerS / f.ops) : 0.0;
    }
    return f;
}

QString OpFigures::topErrors(int count) const
{
    std::vector<std::pair<double, int>> failing;
    for (const auto& [code, n] : resultCodes)
        if (n > 0 && code != 0 && code != 5 && code != 6)
            failing.push_back({ n, code });
    std::sort(failing.begin(), failing.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList parts;
    for (size_t i = 0; i < failing.size() && int(i) < count; ++i)
        parts << Units::formatNumber(failing[i].first, 0) + QStringLiteral(" × ")
                + LdapSession::resultText(failing[i].second) + QStringLiteral(" (") + QString::number(failing[i].second)
                + u')';
    return parts.join(QStringLiteral(", "));
}

QJsonObject LoadInterval::toJson() const
{
    QJsonObject o = all.toJson(false);
    o.insert(QStringLiteral("t"), t);
    o.insert(QStringLiteral("seconds"), round3(seconds));
    o.insert(QStringLiteral("reconnects"), reconnects);
    o.insert(QStringLiteral("connect_failures"), connectFailures);
    o.insert(QStringLiteral("missed"), missed);
    if (!byOperation.empty())
        o.insert(QStringLiteral("by_operation"), byKindJson(byOperation, false));
    if (step)
        o.insert(QStringLiteral("step"), *step);
    if (targetRate)
        o.insert(QStringLiteral("target_rate"), *targetRate);
    if (outstanding)
        o.insert(QStringLiteral("outstanding"), *outstanding);
    if (agentsReporting)
        o.insert(QStringLiteral("agents_reporting"), *agentsReporting);
    o.insert(QStringLiteral("server"), server);
    return o;
}

LoadInterval LoadInterval::fromJson(const QJsonObject& o)
{
    LoadInterval i;
    i.t = o.value(QStringLiteral("t")).toDouble();
    i.seconds = o.value(QStringLiteral("seconds")).toDouble();
    i.all = OpFigures::fromJson(o);
    i.byOperation = byKindFromJson(o.value(QStringLiteral("by_operation")));
    i.reconnects = o.value(QStringLiteral("reconnects")).toDouble();
    i.connectFailures = o.value(QStringLiteral("connect_failures")).toDouble();
    i.missed = o.value(QStringLiteral("missed")).toDouble();
    if (o.value(QStringLiteral("step")).isDouble())
        i.step = o.value(QStringLiteral("step")).toInt();
    i.targetRate = number(o, "target_rate");
    if (o.value(QStringLiteral("outstanding")).isDouble())
        i.outstanding = o.value(QStringLiteral("outstanding")).toInt();
    if (o.value(QStringLiteral("agents_reporting")).isDouble())
        i.agentsReporting = o.value(QStringLiteral("agents_reporting")).toInt();
    i.server = o.value(QStringLiteral("server"));
    return i;
}

std::optional<double> LoadSummary::loadCpuUsPerOp() const
{
    if (!loadCpuS || all.ops <= 0)
        return std::nullopt;
    return round3(*loadCpuS * 1e6 / all.ops);
}

std::optional<double> LoadSummary::clientCpuUsPerOp() const
{
    if (!clientCpuS || all.ops <= 0)
        return std::nullopt;
    return round3(*clientCpuS * 1e6 / all.ops);
}

QJsonObject LoadSummary::toJson() const
{
    QJsonObject o = all.toJson(true);
    o.insert(QStringLiteral("seconds"), round3(seconds));
    o.insert(QStringLiteral("reconnects"), reconnects);
    o.insert(QStringLiteral("connect_failures"), connectFailures);
    o.insert(QStringLiteral("missed"), missed);
    if (!byOperation.empty())
        o.insert(QStringLiteral("by_operation"), byKindJson(byOperation, true));
    if (sendLagMs.p50)
        o.insert(QStringLiteral("send_lag_ms"), sendLagMs.toJson(true));
    if (!sendLagHistogramNs.isEmpty())
        o.insert(QStringLiteral("send_lag_histogram_ns"), sendLagHistogramNs);
    o.insert(QStringLiteral("client_cpu_s"), orNull(clientCpuS));
    o.insert(QStringLiteral("client_cpu_us_per_op"), orNull(clientCpuUsPerOp()));
    o.insert(QStringLiteral("load_cpu_s"), orNull(loadCpuS));
    o.insert(QStringLiteral("load_cpu_us_per_op"), orNull(loadCpuUsPerOp()));
    if (setupResultCode)
        o.insert(QStringLiteral("setup_result_code"), *setupResultCode);
    if (cleanupRemoved)
        o.insert(QStringLiteral("cleanup_removed"), *cleanupRemoved);
    if (bindConnections > 0)
        o.insert(QStringLiteral("bind_connections"), bindConnections);
    if (!latencyHistogramNs.isEmpty())
        o.insert(QStringLiteral("latency_histogram_ns"), latencyHistogramNs);
    o.insert(QStringLiteral("server"), server);
    return o;
}

LoadSummary LoadSummary::fromJson(const QJsonObject& o)
{
    LoadSummary s;
    s.all = OpFigures::fromJson(o);
    s.byOperation = byKindFromJson(o.value(QStringLiteral("by_operation")));
    s.seconds = o.value(QStringLiteral("seconds")).toDouble();
    s.reconnects = o.value(QStringLiteral("reconnects")).toDouble();
    s.connectFailures = o.value(QStringLiteral("connect_failures")).toDouble();
    s.missed = o.value(QStringLiteral("missed")).toDouble();
    s.sendLagMs = LatencyFigures::fromJson(o.value(QStringLiteral("send_lag_ms")).toObject());
    s.sendLagHistogramNs = o.value(QStringLiteral("send_lag_histogram_ns")).toObject();
    s.clientCpuS = number(o, "client_cpu_s");
    s.loadCpuS = number(o, "load_cpu_s");
    if (o.value(QStringLiteral("setup_result_code")).isDouble())
        s.setupResultCode = o.value(QStringLiteral("setup_result_code")).toInt();
    if (o.value(QStringLiteral("cleanup_removed")).isDouble())
        s.cleanupRemoved = o.value(QStringLiteral("cleanup_removed")).toInt();
    s.bindConnections = o.value(QStringLiteral("bind_connections")).toInt();
    s.latencyHistogramNs = o.value(QStringLiteral("latency_histogram_ns")).toObject();
    s.server = o.value(QStringLiteral("server"));
    return s;
}

QString scheduleLateMessage(const LatencyHistogram& sendLagNs)
{
    if (sendLagNs.count() == 0 || sendLagNs.percentile(0.99) <= kScheduleLateNs)
        return {};
    return QStringLiteral("1 % of the operations were sent more than ")
        + Units::formatNumber(double(sendLagNs.percentile(0.99)) / 1e6, 3)
        + QStringLiteral(" ms after their scheduled time (summary.send_lag_ms): the client fell behind its "
                         "schedule, and the latencies, counted from the schedule, include that");
}

QJsonObject windowEpochJson(uint64_t monoStartNs, uint64_t monoEndNs)
{
    timespec wall {}, mono {};
    clock_gettime(CLOCK_REALTIME, &wall);
    clock_gettime(CLOCK_MONOTONIC, &mono);
    const uint64_t wallNow = uint64_t(wall.tv_sec) * 1000000000ULL + uint64_t(wall.tv_nsec);
    const uint64_t monoNow = uint64_t(mono.tv_sec) * 1000000000ULL + uint64_t(mono.tv_nsec);
    auto onWall
        = [&](uint64_t m) { return QString::number(wallNow - std::min(wallNow, monoNow - std::min(monoNow, m))); };
    return QJsonObject { { QStringLiteral("start"), onWall(monoStartNs) },
        { QStringLiteral("end"), onWall(monoEndNs) } };
}
