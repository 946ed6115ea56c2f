#include "core/agents/agentmerge.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <map>

namespace Agents {

namespace {

double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

struct Totals
{
    LoadCounts all;
    std::map<QString, LoadCounts> byKind;

    void add(const LoadInterval& iv)
    {
        all.merge(iv.all.counts());
        for (const auto& [kind, f] : iv.byOperation)
            byKind[kind].merge(f.counts());
    }
};

OpFigures figures(const LoadCounts& c, double seconds, bool keepHistogram)
{
    OpFigures f = OpFigures::of(c, seconds);
    if (keepHistogram)
        f.latencyHistogramNs = c.latency.toJson();
    return f;
}

} // namespace

QList<int> splitEvenly(int total, int parts)
{
    QList<int> out;
    for (int i = 0; i < parts; ++i)
        out << total / parts + (i < total % parts ? 1 : 0);
    return out;
}

QList<double> splitRate(double total, int parts)
{
    QList<double> out;
    if (total == std::floor(total) && total >= parts && total < 2e9) {
        for (int share : splitEvenly(int(total), parts))
            out << double(share);
        return out;
    }
    for (int i = 0; i < parts; ++i)
        out << total / parts;
    return out;
}

LoadInterval mergeInterval(const QList<LoadInterval>& parts, bool keepHistograms)
{
    LoadInterval m;
    Totals t;
    for (const LoadInterval& p : parts) {
        t.add(p);
        m.t = std::max(m.t, p.t);
        m.seconds = std::max(m.seconds, p.seconds);
        m.reconnects += p.reconnects;
        m.connectFailures += p.connectFailures;
        m.missed += p.missed;
        if (p.targetRate)
            m.targetRate = m.targetRate.value_or(0) + *p.targetRate;
    }
    if (!parts.isEmpty()) {
        m.step = parts.first().step;
        m.outstanding = parts.first().outstanding;
    }
    m.all = figures(t.all, m.seconds, keepHistograms);
    for (const auto& [kind, c] : t.byKind)
        m.byOperation[kind] = figures(c, m.seconds, keepHistograms);
    m.agentsReporting = int(parts.size());
    return m;
}

QList<LoadInterval> mergeByIndex(const QList<QList<LoadInterval>>& perAgent, bool keepHistograms)
{
    qsizetype count = 0;
    for (const auto& list : perAgent)
        count = std::max(count, list.size());
    QList<LoadInterval> out;
    for (qsizetype k = 0; k < count; ++k) {
        QList<LoadInterval> parts;
        for (const auto& list : perAgent)
            if (k < list.size())
                parts << list.at(k);
        out << mergeInterval(parts, keepHistograms);
    }
    return out;
}

namespace {

// The agents' send lags merged bucket-wise (open loop); nothing when one agent that had them sent no histogram.
void mergeSendLag(const QList<LoadSummary>& summaries, LoadSummary& s)
{
    LatencyHistogram h;
    for (const LoadSummary& a : summaries) {
        if (!a.sendLagMs.p50)
            continue;
        if (a.sendLagHistogramNs.isEmpty())
            return;
        h.merge(LatencyHistogram::fromJson(a.sendLagHistogramNs));
    }
    if (h.count() == 0)
        return;
    s.sendLagMs = LatencyFigures::of(h);
    s.sendLagHistogramNs = h.toJson();
}

} // namespace

LoadSummary mergeSummary(const QList<QList<LoadInterval>>& perAgent, const QList<LoadSummary>& summaries)
{
    LoadSummary s;
    Totals t;
    for (const auto& list : perAgent)
        for (const LoadInterval& iv : list)
            t.add(iv);
    double cpu = 0, loadCpu = 0;
    bool haveCpu = false, haveCleanup = false;
    int removed = 0;
    for (const LoadSummary& a : summaries) {
        s.seconds = std::max(s.seconds, a.seconds);
        s.reconnects += a.reconnects;
        s.connectFailures += a.connectFailures;
        s.missed += a.missed;
        s.bindConnections += a.bindConnections;
        if (a.clientCpuS) {
            haveCpu = true;
            cpu += *a.clientCpuS;
            loadCpu += a.loadCpuS.value_or(0);
        }
        if (a.cleanupRemoved) {
            haveCleanup = true;
            removed += *a.cleanupRemoved;
        }
    }
    s.all = OpFigures::of(t.all, s.seconds);
    for (const auto& [kind, c] : t.byKind)
        s.byOperation[kind] = OpFigures::of(c, s.seconds);
    if (haveCpu) {
        s.clientCpuS = round3(cpu);
        s.loadCpuS = round3(loadCpu);
    }
    if (haveCleanup)
        s.cleanupRemoved = removed;
    s.latencyHistogramNs = t.all.latency.toJson();
    mergeSendLag(summaries, s);
    return s;
}

namespace {

QString recordName(const QStringList& names, qsizetype i)
{
    return i < names.size() ? names.at(i) : QStringLiteral("record %1").arg(i + 1);
}

bool histogramsKept(const RunRecord& r)
{
    for (const auto& v : r.intervals) {
        const LoadInterval iv = LoadInterval::fromJson(v.toObject());
        if (iv.all.ops > 0 && iv.all.latencyHistogramNs.isEmpty())
            return false;
    }
    return true;
}

std::optional<QString> mismatch(const RunRecord& first, const RunRecord& r)
{
    if (r.kind != first.kind)
        return QStringLiteral("is a %1 run, the first is a %2 run").arg(r.kind, first.kind);
    auto num = [](const RunRecord& x, const char* key) { return x.spec.value(QLatin1String(key)).toDouble(); };
    if (num(r, "interval_s") != num(first, "interval_s"))
        return QStringLiteral("has another --interval than the first record");
    if (num(r, "start_at_epoch_ns") != num(first, "start_at_epoch_ns") || num(r, "start_at_epoch_ns") <= 0)
        return QStringLiteral("was not started at the same --start-at as the first record (its intervals would "
                              "not line up)");
    if (!histogramsKept(r))
        return QStringLiteral("has intervals without latency_histogram_ns: run it with --interval-histograms");
    return std::nullopt;
}

QJsonObject agentEntry(const RunRecord& r, const QString& name, const LoadSummary& s, const QJsonArray& intervals)
{
    return QJsonObject { { QStringLiteral("name"), name },
        { QStringLiteral("address"), r.environment.value(QStringLiteral("host")) },
        { QStringLiteral("share"),
            QJsonObject { { QStringLiteral("threads"), r.spec.value(QStringLiteral("threads")) },
                { QStringLiteral("rate"), r.spec.value(QStringLiteral("rate")) } } },
        { QStringLiteral("status"), r.status }, { QStringLiteral("ok"), s.all.ok },
        { QStringLiteral("cpu_s"), s.clientCpuS ? QJsonValue(*s.clientCpuS) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("intervals"), intervals } };
}

} // namespace

std::optional<RunRecord> mergeRecords(const QList<RunRecord>& records, const QStringList& names, QString* error)
{
    if (records.isEmpty()) {
        *error = QStringLiteral("no record to merge");
        return std::nullopt;
    }
    QList<QList<LoadInterval>> perAgent;
    QList<LoadSummary> summaries;
    QJsonArray agents;
    RunRecord out;
    out.kind = records.first().kind;
    out.spec = records.first().spec;
    out.environment = records.first().environment;
    out.server = records.first().server;
    out.started = records.first().started;
    double threads = 0, rate = 0;
    for (qsizetype i = 0; i < records.size(); ++i) {
        const RunRecord& r = records.at(i);
        if (const auto why = mismatch(records.first(), r)) {
            *error = recordName(names, i) + u' ' + *why;
            return std::nullopt;
        }
        QList<LoadInterval> list;
        for (const auto& v : r.intervals)
            list << LoadInterval::fromJson(v.toObject());
        perAgent << list;
        summaries << LoadSummary::fromJson(r.summary);
        agents.append(agentEntry(r, recordName(names, i), summaries.last(), r.intervals));
        threads += r.spec.value(QStringLiteral("threads")).toDouble();
        rate += r.spec.value(QStringLiteral("rate")).toDouble();
        out.started = std::min(out.started, r.started);
        if (r.status != u"ok" && out.status == u"ok") {
            out.status = r.status;
            out.failure = recordName(names, i) + QStringLiteral(": ") + r.failure;
        }
        for (const RunWarning& w : r.warnings)
            out.addWarning(w.code, recordName(names, i) + QStringLiteral(": ") + w.message);
    }
    for (const LoadInterval& iv : mergeByIndex(perAgent, true))
        out.intervals.append(iv.toJson());
    out.summary = mergeSummary(perAgent, summaries).toJson();
    out.spec.insert(QStringLiteral("threads"), threads);
    out.spec.insert(QStringLiteral("rate"), rate > 0 ? QJsonValue(rate) : QJsonValue(QJsonValue::Null));
    out.spec.insert(QStringLiteral("agents"),
        QJsonObject { { QStringLiteral("launcher"), QStringLiteral("merge") },
            { QStringLiteral("hosts"), QJsonArray::fromStringList(names) },
            { QStringLiteral("count"), int(records.size()) } });
    out.extra.insert(QStringLiteral("agents"), agents);
    return out;
}

} // namespace Agents
