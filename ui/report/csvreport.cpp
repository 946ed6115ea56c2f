// Report::csvOf: the intervals of every run, one row per interval, for spreadsheets. Numbers as the record holds
// them (no separators, full precision); the header names each column's unit.
#include "core/common/reportformat.h"
#include "ui/report/report.h"
#include "ui/report/reportjson.h"

#include <QHash>

namespace Report {

namespace {

QString cell(const QString& s)
{
    if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n'))
        return s;
    QString q = s;
    q.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QString(u'"' + q + u'"');
}

QString raw(const QJsonValue& v)
{
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest);
    if (v.isUndefined() || v.isNull())
        return {};
    return ReportFormat::value(v);
}

// An interval's columns. Looked up by the leaves' own keys, not by a dotted path: a replication interval's keys
// are consumer URIs (ldap://127.0.0.1:389/), dots and all, and its lag lies one level deeper
// (consumers.URI.lag_ms.p99).
int leafDepth(const RunRecord& r)
{
    return r.kind == u"replication" ? 4 : 3;
}

QHash<QString, QJsonValue> columnsOf(const RunRecord& r, const QJsonValue& interval)
{
    QHash<QString, QJsonValue> out;
    for (const auto& [key, value] : ReportJson::leaves(interval.toObject(), {}, leafDepth(r)))
        out.insert(key, value);
    return out;
}

} // namespace

QString csvOf(const QList<RunRecord>& records, const ReportOptions& options)
{
    QStringList keys;
    for (const RunRecord& r : records)
        for (const auto& v : r.intervals)
            for (const auto& kv : ReportJson::leaves(v.toObject(), {}, leafDepth(r)))
                if (!keys.contains(kv.first))
                    keys << kv.first;
    // "t" first: it is the time axis of every row.
    if (keys.removeAll(QStringLiteral("t")) > 0)
        keys.prepend(QStringLiteral("t"));
    QStringList header = { QStringLiteral("run"), QStringLiteral("kind"), QStringLiteral("interval") };
    for (const QString& k : keys) {
        const QString unit = ReportFormat::unitOf(k);
        header << cell(unit.isEmpty() ? k : QString(k + u" [" + unit + u']'));
    }
    QString out = header.join(u',') + u"\r\n";
    for (qsizetype i = 0; i < records.size(); ++i) {
        const RunRecord& r = records.at(i);
        const QString name = cell(runName(records, options, i));
        for (qsizetype j = 0; j < r.intervals.size(); ++j) {
            const QHash<QString, QJsonValue> columns = columnsOf(r, r.intervals.at(j));
            QStringList row = { name, cell(r.kind), QString::number(j + 1) };
            for (const QString& k : std::as_const(keys))
                row << cell(raw(columns.value(k)));
            out += row.join(u',') + u"\r\n";
        }
    }
    return out;
}

} // namespace Report
