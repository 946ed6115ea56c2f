// Disk records: a single test, a test with repeats, or the "directory" suite (summary.tests) with verdicts.
#include "core/common/reportformat.h"
#include "core/disk/diskresult.h"
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
    // The typed summary; each row shows the figures as the record holds them (its JSON, n/a for a null).
    const DiskSummary sum = DiskSummary::fromJson(r.summary);
    const std::vector<DiskSummary>& tests = sum.tests;
    ReportTable t;
    t.header = kHeader;
    if (!tests.empty()) {
        for (const DiskSummary& part : tests)
            t.rows << testRow(part.test, part.toJson());
        section.blocks << ReportBlock::subheading(QStringLiteral("Tests of the suite"));
    } else {
        t.rows << testRow(sum.test, r.summary);
        section.blocks << ReportBlock::subheading(QStringLiteral("Result"));
    }
    section.blocks << ReportBlock::ofTable(t);

    // Repeats: the median is above; every repeat here (per test in a suite).
    auto repeatsOf = [&](const QString& name, const DiskSummary& s) {
        const std::vector<DiskSummary>& reps = s.repeats;
        if (reps.empty())
            return;
        ReportTable rt;
        rt.header = kHeader;
        rt.header[0] = QStringLiteral("repeat");
        for (size_t i = 0; i < reps.size(); ++i)
            rt.rows << testRow(QString::number(i + 1), reps.at(i).toJson());
        section.blocks << ReportBlock::subheading(QString(u"Repeats of " + name + u" (the result is their median)"));
        section.blocks << ReportBlock::ofTable(rt);
    };
    if (!tests.empty())
        for (const DiskSummary& part : tests)
            repeatsOf(part.test, part);
    else
        repeatsOf(sum.test, sum);

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
