// Sections for any kind of record: what every record has (spec, summary, intervals), printed generically.
#include "core/common/reportformat.h"
#include "core/experiments/pointaxis.h"
#include "core/ldap/loadrecordfacts.h"
#include "ui/report/loadfigures.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"

#include <QMap>

namespace ReportSections {

void cite(QStringList& sources, const QString& source)
{
    const QString s = source.trimmed();
    if (!s.isEmpty() && !sources.contains(s))
        sources << s;
}

void intervalCharts(const QJsonArray& intervals, const QStringList& keys, ReportSection& section, const QString& title,
    const QString& groupBy, const QString& oneAxis)
{
    if (intervals.isEmpty() || keys.isEmpty())
        return;
    // Split by the group column ("test" in a suite) so each part is its own series.
    QMap<QString, QJsonArray> groups;
    QStringList order;
    for (const auto& v : intervals) {
        const QString g = groupBy.isEmpty() ? QString() : v.toObject().value(groupBy).toString();
        if (!order.contains(g))
            order << g;
        groups[g].append(v);
    }
    QMap<QString, ReportChart> byUnit;
    QStringList unitOrder;
    for (const QString& key : keys) {
        const QString unit = ReportFormat::unitOf(key);
        const QString axis = !oneAxis.isEmpty() ? oneAxis : unit.isEmpty() ? ReportFormat::label(key) : unit;
        if (!byUnit.contains(axis)) {
            unitOrder << axis;
            ReportChart c;
            c.title = title;
            c.xLabel = QStringLiteral("t (s)");
            c.yLabel = axis;
            byUnit.insert(axis, c);
        }
        for (const QString& g : std::as_const(order)) {
            ReportSeries s;
            QStringList parts = key.split(u'.');
            if (parts.size() > 1 && parts.first() == u"server")
                parts.removeFirst(); // the server's counters: their chart says so
            for (QString& p : parts)
                p = ReportFormat::label(p);
            s.name = parts.join(u' ');
            if (!g.isEmpty())
                s.name = QString(g + u' ' + s.name);
            s.points = ReportJson::series(groups.value(g), key);
            s.markers = s.points.size() <= 3;
            if (!s.points.isEmpty())
                byUnit[axis].series << s;
        }
    }
    for (const QString& axis : std::as_const(unitOrder)) {
        ReportChart c = byUnit.value(axis);
        if (c.isEmpty())
            continue;
        c.title = QString(title + u": " + axis);
        section.blocks << ReportBlock::ofChart(c);
    }
}

// Experiments (thread sweep, TLS cost, database size) hold summary.points: ok/s against what the sweep varied
// (completed ops/s for a record made before points had ok/s, and the chart says so).
static void pointsChart(const RunRecord& r, ReportSection& section)
{
    const QJsonArray points = LoadRecordFacts::pointsOf(r);
    if (points.isEmpty() || !LoadFigures::pointRate(points.first().toObject()).present)
        return;
    // The axis the window draws (core/experiments/pointaxis.h): what the experiment varied.
    const PointAxis::Axis axis = PointAxis::of(r);
    const QString xKey = axis.key;
    if (!LoadRecordFacts::pointValue(points.first().toObject(), xKey))
        return;
    bool completed = false;
    for (const auto& v : points)
        completed = completed || LoadFigures::pointRate(v.toObject()).completed;
    const QString unit
        = completed ? QStringLiteral("ops/s (completed: the record predates ok/s)") : QStringLiteral("ok/s");
    ReportChart c;
    c.title = xKey == u"tls" ? QString(unit + u": plain (0) against TLS (1)")
                             : QString(unit + u" by " + axis.title.left(1).toLower() + axis.title.mid(1));
    c.xLabel = axis.title;
    c.yLabel = completed ? QStringLiteral("ops/s") : QStringLiteral("ok/s");
    ReportSeries sr;
    sr.name = QString(u"measured " + c.yLabel);
    sr.markers = true;
    for (const auto& v : points) {
        const QJsonObject o = v.toObject();
        const LoadFigures::PointRate rate = LoadFigures::pointRate(o);
        if (const auto x = LoadRecordFacts::pointValue(o, xKey); x && rate.present)
            sr.points.append({ *x, rate.perS });
    }
    c.series << sr;
    section.blocks << ReportBlock::ofChart(c);
}

// Intervals of an LDAP load (an experiment's, or the load beside a disk test), and the others.
static std::pair<QJsonArray, QJsonArray> splitLoadIntervals(const QJsonArray& intervals)
{
    QJsonArray load, other;
    for (const auto& v : intervals)
        (LoadRecordFacts::isLoadInterval(v.toObject()) ? load : other).append(v);
    return { load, other };
}

void generic(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    pointsChart(r, section);
    const QList<QStringList> rows = ReportJson::keyValueRows(r.summary);
    if (!rows.isEmpty()) {
        section.blocks << ReportBlock::subheading(QStringLiteral("Summary"));
        section.blocks << ReportBlock::keyValues(rows);
    }
    for (const auto& [title, table] : ReportJson::tablesOf(r.summary)) {
        section.blocks << ReportBlock::subheading(title);
        section.blocks << ReportBlock::ofTable(table);
    }
    for (const auto& [title, table] : ReportJson::tablesOf(r.extra)) {
        section.blocks << ReportBlock::subheading(title);
        section.blocks << ReportBlock::ofTable(table);
    }
    for (const QString& src : ReportJson::sourcesIn(r.summary) + ReportJson::sourcesIn(r.extra))
        cite(sources, src);
    const auto [load, other] = splitLoadIntervals(r.intervals);
    loadCharts(load, section, LoadFigures::coalescedReads(r.spec)); // an LDAP load's usual charts
    // Columns that never left 0 (errors, timeouts in a clean run) make empty charts: their tables say 0 already.
    QStringList keys;
    for (const QString& k : ReportJson::numericIntervalKeys(other)) {
        bool moved = false;
        for (const QPointF& p : ReportJson::series(other, k))
            moved = moved || p.y() != 0;
        if (moved)
            keys << k;
    }
    if (keys.size() > 8)
        keys = keys.mid(0, 8);
    intervalCharts(
        other, keys, section, QStringLiteral("Intervals"), load.isEmpty() ? QString() : QStringLiteral("series"));
}

} // namespace ReportSections
