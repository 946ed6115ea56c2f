// The charts of an LDAP load's intervals, read from the typed intervals (core/ldap/loadresult.h): ok/s (with
// completed ops/s where they differ, and the target rate), ok/s and latency per kind of operation for a mix,
// latency, faults, and the server's own rates (cn=monitor, free-form counters read as they are).
#include "core/common/reportformat.h"
#include "core/ldap/loadresult.h"
#include "ui/report/loadfigures.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"

#include <functional>

namespace ReportSections {

namespace {

using Pick = std::function<std::optional<double>(const LoadInterval&)>;

ReportSeries seriesOf(const QList<LoadInterval>& intervals, const QString& name, const Pick& pick)
{
    ReportSeries s;
    s.name = name;
    for (const LoadInterval& i : intervals)
        if (const auto v = pick(i))
            s.points.append({ i.t, *v });
    s.markers = s.points.size() <= 3;
    return s;
}

bool moved(const ReportSeries& s)
{
    for (const QPointF& p : s.points)
        if (p.y() != 0)
            return true;
    return false;
}

void addChart(ReportSection& section, const QString& title, const QString& yLabel, const QList<ReportSeries>& series)
{
    ReportChart c;
    c.title = title;
    c.xLabel = QStringLiteral("t (s)");
    c.yLabel = yLabel;
    for (const ReportSeries& s : series)
        if (!s.points.isEmpty())
            c.series << s;
    if (!c.isEmpty())
        section.blocks << ReportBlock::ofChart(c);
}

QString mark(const char16_t* note)
{
    return QString(u" (" + QString::fromUtf16(note) + u')');
}

void throughput(const QList<LoadInterval>& intervals, ReportSection& section)
{
    bool derived = false, differ = false;
    for (const LoadInterval& i : intervals) {
        derived = derived || i.all.okDerived;
        differ = differ || i.all.opsPerS != i.all.okPerS;
    }
    QList<ReportSeries> series;
    series << seriesOf(intervals, QString(u"ok/s" + (derived ? mark(LoadFigures::kDerived) : QString())),
        [](const LoadInterval& i) { return std::optional<double>(i.all.okPerS); });
    if (differ)
        series << seriesOf(intervals, QStringLiteral("completed ops/s"),
            [](const LoadInterval& i) { return std::optional<double>(i.all.opsPerS); });
    series << seriesOf(intervals, QStringLiteral("target rate"), [](const LoadInterval& i) { return i.targetRate; });
    addChart(section, QStringLiteral("Throughput: ok/s"), QStringLiteral("operations/s"), series);
}

QStringList kindsOf(const QList<LoadInterval>& intervals)
{
    QStringList kinds;
    for (const LoadInterval& i : intervals)
        for (const auto& [kind, f] : i.byOperation)
            if (!kinds.contains(kind))
                kinds << kind;
    return kinds;
}

void byOperation(const QList<LoadInterval>& intervals, const QString& latencyNote, ReportSection& section)
{
    const QStringList kinds = kindsOf(intervals);
    if (kinds.isEmpty())
        return;
    QList<ReportSeries> rates, latency;
    for (const QString& kind : kinds) {
        auto of = [kind](const LoadInterval& i) -> const OpFigures* {
            const auto it = i.byOperation.find(kind);
            return it == i.byOperation.end() ? nullptr : &it->second;
        };
        rates << seriesOf(intervals, QString(kind + u" ok/s"), [of](const LoadInterval& i) {
            const OpFigures* f = of(i);
            return f ? std::optional<double>(f->okPerS) : std::nullopt;
        });
        latency << seriesOf(intervals, QString(kind + u" p50"), [of](const LoadInterval& i) {
            const OpFigures* f = of(i);
            return f ? f->latencyMs.p50 : std::nullopt;
        });
        latency << seriesOf(intervals, QString(kind + u" p99"), [of](const LoadInterval& i) {
            const OpFigures* f = of(i);
            return f ? f->latencyMs.p99 : std::nullopt;
        });
    }
    addChart(section, QStringLiteral("Throughput by operation: ok/s"), QStringLiteral("ok/s"), rates);
    addChart(section, QString(u"Latency by operation (ms)" + latencyNote), QStringLiteral("ms"), latency);
}

void latency(const QList<LoadInterval>& intervals, const QString& note, ReportSection& section)
{
    QList<ReportSeries> series;
    series << seriesOf(intervals, QStringLiteral("p50"), [](const LoadInterval& i) { return i.all.latencyMs.p50; });
    series << seriesOf(intervals, QStringLiteral("p95"), [](const LoadInterval& i) { return i.all.latencyMs.p95; });
    series << seriesOf(intervals, QStringLiteral("p99"), [](const LoadInterval& i) { return i.all.latencyMs.p99; });
    addChart(section, QString(u"Latency (ms)" + note), QStringLiteral("ms"), series);
}

void faults(const QList<LoadInterval>& intervals, ReportSection& section)
{
    const QList<ReportSeries> series = {
        seriesOf(intervals, QStringLiteral("errors"),
            [](const LoadInterval& i) { return std::optional<double>(i.all.errors); }),
        seriesOf(intervals, QStringLiteral("timeouts"),
            [](const LoadInterval& i) { return std::optional<double>(i.all.timeouts); }),
        seriesOf(intervals, QStringLiteral("reconnects"),
            [](const LoadInterval& i) { return std::optional<double>(i.reconnects); }),
        seriesOf(intervals, QStringLiteral("missed arrivals"),
            [](const LoadInterval& i) { return std::optional<double>(i.missed); }),
    };
    QList<ReportSeries> shown;
    for (const ReportSeries& s : series)
        if (moved(s))
            shown << s;
    addChart(section, QStringLiteral("Faults per interval"), QStringLiteral("count"), shown);
}

// The server's own rates (cn=monitor) that moved during the run; bytes are left out (another scale).
void monitorRates(const QJsonArray& intervals, ReportSection& section)
{
    QStringList keys;
    for (const QString& k : ReportJson::numericIntervalKeys(intervals)) {
        if (!k.startsWith(u"server.") || !k.endsWith(u"_per_s") || k == u"server.bytes_sent_per_s") // bytes: no count
            continue;
        bool changed = false;
        for (const QPointF& p : ReportJson::series(intervals, k))
            changed = changed || p.y() != 0;
        if (changed)
            keys << k;
    }
    if (!keys.isEmpty())
        intervalCharts(intervals, keys.mid(0, 6), section, QStringLiteral("Server counters (cn=monitor)"), {},
            QStringLiteral("per second"));
}

} // namespace

void loadCharts(const QJsonArray& intervals, ReportSection& section, bool coalescedReads)
{
    if (intervals.isEmpty())
        return;
    QList<LoadInterval> typed;
    typed.reserve(intervals.size());
    for (const auto& v : intervals)
        typed << LoadInterval::fromJson(v.toObject());
    const QString note = coalescedReads ? QString(u", " + QString::fromUtf16(LoadFigures::kCoalesced)) : QString();
    throughput(typed, section);
    latency(typed, note, section);
    byOperation(typed, note, section);
    faults(typed, section);
    monitorRates(intervals, section);
}

} // namespace ReportSections
