#include "ui/report/reportjson.h"

#include "core/catalog/sources.h"
#include "core/common/intervaljson.h"
#include "core/common/reportformat.h"

#include <QSet>

#include <algorithm>

namespace ReportJson {

namespace {

bool isObjectArray(const QJsonValue& v)
{
    if (!v.isArray() || v.toArray().isEmpty())
        return false;
    const QJsonArray items = v.toArray();
    for (const auto& e : items)
        if (!e.isObject())
            return false;
    return true;
}

QString join(const QString& prefix, const QString& key)
{
    return prefix.isEmpty() ? key : QString(prefix + u'.' + key);
}

} // namespace

QList<std::pair<QString, QJsonValue>> leaves(const QJsonObject& o, const QString& prefix, int depth)
{
    QList<std::pair<QString, QJsonValue>> out;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = join(prefix, it.key());
        const QJsonValue v = it.value();
        if (v.isObject() && depth > 1)
            out += leaves(v.toObject(), key, depth - 1);
        else if (!isObjectArray(v))
            out.append({ key, v });
    }
    return out;
}

QList<QStringList> keyValueRows(const QJsonObject& o, const QStringList& skip)
{
    QList<QStringList> rows;
    for (const auto& [key, v] : leaves(o)) {
        if (skip.contains(key.section(u'.', 0, 0)))
            continue;
        QStringList parts = key.split(u'.');
        for (QString& p : parts)
            p = ReportFormat::label(p);
        if (ReportFormat::isBytesKey(key) && v.isDouble()) {
            // "free: 83.2 GB (83,171,004,416 bytes)": the size a reader takes in, the exact figure beside it.
            QString& last = parts.last();
            if (last.endsWith(u" (bytes)"))
                last.chop(8);
            if (ReportFormat::isMemoryKey(key) && last == u"ram")
                last = QStringLiteral("RAM");
            rows.append({ parts.join(u" › "), ReportFormat::bytesOf(key, v.toDouble()) });
            continue;
        }
        const bool isSource = key.section(u'.', -1).endsWith(u"source") && v.isString();
        rows.append({ parts.join(u" › "), isSource ? Sources::readable(v.toString()) : ReportFormat::value(v) });
    }
    return rows;
}

// The order a reader reads a row in: what the row is (a name, what an experiment varied), then the figure that
// matters (ok/s, MB/s) and its errors, then latencies (p50 first), counts, anything else, and the status last. Keys of
// equal rank keep the order they were first seen in.
static int readingRank(const QString& key)
{
    static const QStringList kWhat = { QStringLiteral("label"), QStringLiteral("name"), QStringLiteral("case"),
        QStringLiteral("series"), QStringLiteral("test"), QStringLiteral("consumer"), QStringLiteral("uri"),
        QStringLiteral("threads"), QStringLiteral("server_threads"), QStringLiteral("entries"), QStringLiteral("tls"),
        QStringLiteral("target"), QStringLiteral("coverage") };
    static const QStringList kFigure = { QStringLiteral("ok_per_s"), QStringLiteral("mb_per_s"), QStringLiteral("iops"),
        QStringLiteral("commits_per_s"), QStringLiteral("ops_per_s") };
    const QString top = key.section(u'.', 0, 0);
    if (const qsizetype i = kWhat.indexOf(top); i >= 0)
        return int(i);
    if (const qsizetype i = kFigure.indexOf(top); i >= 0)
        return 100 + int(i);
    if (top == u"errors")
        return 110; // beside the rates it qualifies
    // Latencies as a reader scans them: the median, the tail, the worst; the mean and the least after.
    static const QStringList kLatency
        = { QStringLiteral("p50"), QStringLiteral("p90"), QStringLiteral("p95"), QStringLiteral("p99"),
              QStringLiteral("p999"), QStringLiteral("max"), QStringLiteral("mean"), QStringLiteral("min") };
    if (top.startsWith(u"latency")) {
        const qsizetype i = kLatency.indexOf(key.section(u'.', -1));
        return 200 + int(i < 0 ? kLatency.size() : i);
    }
    if (top.startsWith(u"p50") || top.startsWith(u"p99"))
        return 200;
    if (top == u"status")
        return 1000;
    return 300;
}

ReportTable tableOf(const QJsonArray& objects)
{
    ReportTable t;
    QStringList keys;
    QList<QList<std::pair<QString, QJsonValue>>> all;
    for (const auto& e : objects) {
        all.append(leaves(e.toObject(), {}, 2));
        for (const auto& kv : all.last())
            if (!keys.contains(kv.first))
                keys << kv.first;
    }
    std::stable_sort(
        keys.begin(), keys.end(), [](const QString& a, const QString& b) { return readingRank(a) < readingRank(b); });
    for (const QString& k : keys) {
        // "latency_ms.p99" is "p99 (ms)": a leaf takes its parent's unit.
        QString header = ReportFormat::label(k.section(u'.', -1));
        const QString unit = ReportFormat::unitOf(k.section(u'.', -2, -2));
        if (k.contains(u'.') && !unit.isEmpty() && !header.contains(u'('))
            header += QString(u" (" + unit + u')');
        t.header << header;
    }
    for (const auto& row : all) {
        QStringList cells(keys.size());
        for (const auto& [k, v] : row)
            cells[keys.indexOf(k)] = k.section(u'.', -1).endsWith(u"source") && v.isString()
                ? Sources::readable(v.toString())
                : ReportFormat::value(v);
        t.rows << cells;
    }
    return t;
}

// A table's title as a heading: "Points", not "points" (a unit such as "MB/s" keeps its case).
static QString capitalisedLabel(const QString& key)
{
    QString l = ReportFormat::label(key);
    if (!l.isEmpty() && l.at(0).isLower())
        l[0] = l.at(0).toUpper();
    return l;
}

QList<std::pair<QString, ReportTable>> tablesOf(const QJsonObject& o, const QStringList& skip)
{
    QList<std::pair<QString, ReportTable>> out;
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (skip.contains(it.key()))
            continue;
        if (isObjectArray(it.value()))
            out.append({ capitalisedLabel(it.key()), tableOf(it.value().toArray()) });
        else if (it.value().isObject())
            for (auto& [title, table] : tablesOf(it.value().toObject()))
                out.append({ QString(capitalisedLabel(it.key()) + u" › " + title), table });
    }
    return out;
}

QJsonValue at(const QJsonObject& o, const QString& dottedKey)
{
    const QStringList parts = dottedKey.split(u'.');
    QJsonValue v = o;
    for (const QString& p : parts) {
        if (!v.isObject())
            return QJsonValue::Undefined;
        v = v.toObject().value(p);
    }
    return v;
}

QStringList numericIntervalKeys(const QJsonArray& intervals)
{
    QStringList keys;
    for (const auto& e : intervals)
        for (const auto& [k, v] : leaves(e.toObject()))
            if (v.isDouble() && k != u"t" && !keys.contains(k))
                keys << k;
    return keys;
}

QList<QPointF> series(const QJsonArray& intervals, const QString& key)
{
    QList<QPointF> pts;
    for (qsizetype i = 0; i < intervals.size(); ++i) {
        const QJsonObject o = intervals.at(i).toObject();
        const QJsonValue v = at(o, key);
        if (!v.isDouble())
            continue;
        pts.append({ IntervalJson::timeOf(o).value_or(double(i + 1)), v.toDouble() });
    }
    return pts;
}

QStringList sourcesIn(const QJsonValue& v)
{
    static const QSet<QString> kKeys
        = { QStringLiteral("source"), QStringLiteral("sources"), QStringLiteral("reference"), QStringLiteral("url") };
    QStringList out;
    if (v.isArray()) {
        const QJsonArray items = v.toArray();
        for (const auto& e : items)
            out += sourcesIn(e);
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (kKeys.contains(it.key())) {
                if (it.value().isString() && !it.value().toString().isEmpty()) {
                    out << it.value().toString();
                } else if (it.value().isArray()) {
                    const QJsonArray items = it.value().toArray();
                    for (const auto& s : items) {
                        if (s.isString())
                            out << s.toString();
                        else
                            out += sourcesIn(s);
                    }
                }
            } else {
                out += sourcesIn(it.value());
            }
        }
    }
    return out;
}

} // namespace ReportJson
