// Disk records: a single test, a test with repeats, or the "directory" suite (summary.tests) with verdicts.
#include "core/common/reportformat.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"

namespace ReportSections {

namespace {

QString numOr(const QJsonObject& o, const QString& key)
{
    const QJsonValue v = ReportJson::at(o, key);
    return v.isUndefined() ? QString() : ReportFormat::value(v);
}

QStringList testRow(const QString& name, const QJsonObject& s)
{
    return { name, numOr(s, QStringLiteral("mb_per_s")), numOr(s, QStringLiteral("iops")),
        numOr(s, QStringLiteral("latency_us.p50")), numOr(s, QStringLiteral("latency_us.p99")),
        numOr(s, QStringLiteral("latency_us.p999")), numOr(s, QStringLiteral("seconds")) };
}

const QStringList kHeader = { QStringLiteral("test"), QStringLiteral("MB/s"), QStringLiteral("IOPS"),
    QStringLiteral("p50 µs"), QStringLiteral("p99 µs"), QStringLiteral("p99.9 µs"), QStringLiteral("seconds") };

} // namespace

void disk(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    if (r.engine.isObject())
        section.blocks << ReportBlock::paragraph(
            QString(u"Engine: " + ReportFormat::value(r.engine) + u". MB/s is 10^6 bytes/s; latency in µs."));
    const QJsonObject tests = r.summary.value(QStringLiteral("tests")).toObject();
    ReportTable t;
    t.header = kHeader;
    if (!tests.isEmpty()) {
        for (auto it = tests.begin(); it != tests.end(); ++it)
            t.rows << testRow(it.key(), it.value().toObject());
        section.blocks << ReportBlock::subheading(QStringLiteral("Tests of the suite"));
    } else {
        t.rows << testRow(r.summary.value(QStringLiteral("test")).toString(), r.summary);
        section.blocks << ReportBlock::subheading(QStringLiteral("Result"));
    }
    section.blocks << ReportBlock::ofTable(t);

    // Repeats: the median is above; every repeat here (per test in a suite).
    auto repeatsOf = [&](const QString& name, const QJsonObject& s) {
        const QJsonArray reps = s.value(QStringLiteral("repeats")).toArray();
        if (reps.isEmpty())
            return;
        ReportTable rt;
        rt.header = kHeader;
        rt.header[0] = QStringLiteral("repeat");
        for (qsizetype i = 0; i < reps.size(); ++i)
            rt.rows << testRow(QString::number(i + 1), reps.at(i).toObject());
        section.blocks << ReportBlock::subheading(QString(u"Repeats of " + name + u" (the result is their median)"));
        section.blocks << ReportBlock::ofTable(rt);
    };
    if (!tests.isEmpty())
        for (auto it = tests.begin(); it != tests.end(); ++it)
            repeatsOf(it.key(), it.value().toObject());
    else
        repeatsOf(r.summary.value(QStringLiteral("test")).toString(), r.summary);

    // A suite's intervals name their part in "series": one line per part.
    intervalCharts(
        r.intervals, { QStringLiteral("mb_per_s") }, section, QStringLiteral("Throughput"), QStringLiteral("series"));
    intervalCharts(
        r.intervals, { QStringLiteral("iops") }, section, QStringLiteral("Operations"), QStringLiteral("series"));
    intervalCharts(r.intervals, { QStringLiteral("latency_us.p50"), QStringLiteral("latency_us.p99") }, section,
        QStringLiteral("Latency"), QStringLiteral("series"));
    for (const QString& s : ReportJson::sourcesIn(r.summary))
        cite(sources, s);
}

} // namespace ReportSections
