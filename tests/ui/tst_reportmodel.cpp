// The report's document model (Report::build) and its number rule, without any output format: what sections a
// report has, that every cited source is collected once, that warnings and verdicts land in their run's section.
#include "core/catalog/catalog.h"
#include "core/catalog/compare.h"
#include "core/catalog/comparerecord.h"
#include "core/catalog/seedexample.h"
#include "core/common/reportformat.h"
#include "core/ldap/loadresult.h"
#include "tests/common/loadfigures.h"
#include "ui/report/chartgeometry.h"
#include "ui/report/report.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsummary.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>

class TstReportModel : public QObject
{
    Q_OBJECT

private slots:
    void numbersInFull_data();
    void numbersInFull();
    void sectionsAndSources();
    void experimentsAndCurvesAnswerTheirQuestion();
    void pointColumnsInReadingOrder();
    void timeAxisEndsWithTheRun();
    void csvRowsAndUnits();
    void ldapHeadlineIsOkPerSecond();
    void mixedLoadHasARowPerKind();
    void oldLoadIsMarkedDerived();
    void coalescedReadsAreNoted();
    void pointsReadOkPerSecond();
    void byteSizesReadable();
    void summaryInPlainWords();
    void cloudBoundFailsOnPageOne();
    void settingsThatDiffer();
};

namespace {

constexpr auto figures = &testFigures;

// A load of `kind` whose summary and two intervals are written by the core's own toJson, as the engine does.
RunRecord load(const QString& kind, const LoadSummary& s)
{
    RunRecord r;
    r.kind = kind;
    r.status = "ok";
    r.summary = s.toJson();
    for (double t : { 1.0, 2.0 }) {
        LoadInterval i;
        i.t = t;
        i.seconds = 1;
        i.all = s.all;
        i.byOperation = s.byOperation;
        r.intervals.append(i.toJson());
    }
    return r;
}

LoadSummary mixedSummary()
{
    LoadSummary s;
    s.seconds = 10;
    s.all = figures(10000, 30, 10, 4.5);
    s.byOperation["search"] = figures(9000, 0, 10, 1.25);
    s.byOperation["modify"] = figures(1000, 30, 10, 9.5);
    s.loadCpuS = 0.125;
    return s;
}

// Every text of a section: paragraphs, headings, table cells, chart titles and series names.
QStringList textOf(const ReportSection& section)
{
    QStringList out;
    for (const ReportBlock& b : section.blocks) {
        out << b.text << b.table.header.join(" | ") << b.chart.title;
        for (const QStringList& row : b.table.rows)
            out << row.join(" | ");
        for (const ReportSeries& sr : b.chart.series)
            out << sr.name;
    }
    return out;
}

const ReportSection& runSection(const ReportDocument& doc)
{
    return doc.sections.at(2); // after the summary and the runs-and-verdicts overview
}

// The run's section and its part of the appendix of details (the charts after the first, the detail tables).
QStringList runText(const ReportDocument& doc)
{
    QStringList t = textOf(runSection(doc));
    for (const ReportSection& s : doc.sections)
        if (s.heading == "Appendix: details of the runs")
            t += textOf(s);
    return t;
}

} // namespace

void TstReportModel::numbersInFull_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("whole") << 23456.0 << "23,456";
    QTest::newRow("large") << 23456.78 << "23,456.8";
    QTest::newRow("keeps .0") << 1234.04 << "1,234.0";
    QTest::newRow("two decimals") << 12.345 << "12.35";
    QTest::newRow("trailing zero") << 2.5 << "2.5";
    QTest::newRow("small") << 0.012345 << "0.0123";
    QTest::newRow("negative") << -1500.25 << "-1,500.3";
    QTest::newRow("huge") << 18446744073709551615.0 << "18,446,744,073,709,551,616";
}

void TstReportModel::numbersInFull()
{
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(ReportFormat::number(value), text);
}

void TstReportModel::sectionsAndSources()
{
    RunRecord a;
    a.kind = "disk";
    a.summary = QJsonObject { { "test", "seq-write" }, { "mb_per_s", 312.4 } };
    a.verdicts << Verdict { "sequential write >= 100 MB/s", "eDirectory KB (seed 000)", true, 312.4, 100, "MB/s", {},
        {} };
    a.addWarning("size-below-ram", "the test file is smaller than RAM");
    RunRecord b;
    b.kind = "vendor-check"; // a kind without its own section: sources found generically
    b.summary = QJsonObject { { "rows",
        QJsonArray { QJsonObject { { "metric", "iops" }, { "source", "Vendor table" } },
            QJsonObject { { "metric", "mb_per_s" }, { "source", "Vendor table" } } } } };
    b.verdicts << Verdict { "IOPS as listed", "eDirectory KB (seed 000)", false, 10, 20, "IO/s", {}, {} };
    ReportOptions o;
    o.title = "T";
    o.runNames = { "first" };
    const ReportDocument doc = Report::build({ a, b }, o);
    QStringList headings;
    for (const ReportSection& s : doc.sections)
        headings << s.heading;
    // The summary is page 1, the runs follow, then the appendices and the sources; the environment comes last.
    QCOMPARE(headings,
        QStringList({ "Summary", "Runs and verdicts", "Run 1: first (disk)", "Run 2: vendor-check #2 (vendor-check)",
            "Appendix: full settings", "Appendix: details of the runs", "Sources", "Environment" }));
    QVERIFY(!doc.sections.at(1).newPage); // the overview follows the decision; the appendices start pages
    QVERIFY(doc.sections.at(4).newPage);
    // Each source once, in order of appearance; a document of the catalog by its title and publisher.
    const QString kb = "“eDirectory 9.2 on the Amazon AWS or Microsoft Azure cloud platform”, knowledge-base article, "
                       "NetIQ / Micro Focus";
    QCOMPARE(doc.sources.size(), 2);
    QVERIFY2(doc.sources.at(0).startsWith(kb + "; it links “Amazon EBS volume types”"), qPrintable(doc.sources.at(0)));
    QCOMPARE(doc.sources.at(1), QString("Vendor table"));
    const ReportSection& run1 = doc.sections.at(2);
    bool warned = false, judged = false;
    for (const ReportBlock& blk : run1.blocks) {
        warned = warned || (blk.kind == ReportBlock::Kind::Warnings && blk.warnings.first().code == "size-below-ram");
        judged = judged || (blk.kind == ReportBlock::Kind::Verdicts && blk.verdicts.size() == 1);
    }
    QVERIFY(warned);
    QVERIFY(judged);
    QCOMPARE(Report::verdictLine(b.verdicts.first()),
        QString("FAIL  IOPS as listed: measured 10 IO/s, threshold 20 IO/s (source: " + kb + ")"));
}

void TstReportModel::csvRowsAndUnits()
{
    RunRecord a;
    a.kind = "ldap-search";
    a.intervals = QJsonArray { QJsonObject { { "t", 1 }, { "ops_per_s", 1000.5 },
                                   { "latency_ms", QJsonObject { { "p50", 0.25 } } } },
        QJsonObject { { "t", 2 }, { "ops_per_s", 1200 } } };
    RunRecord b;
    b.kind = "disk";
    b.intervals = QJsonArray { QJsonObject { { "t", 0.25 }, { "mb_per_s", 300.5 }, { "series", "a,b" } } };
    // Columns in first-seen order; within an interval, keys come as QJsonObject keeps them (sorted).
    const QStringList lines = Report::csvOf({ a, b }, {}).split("\r\n", Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 3);
    QCOMPARE(
        lines.at(0), QString("run,kind,interval,t [s],latency_ms.p50 [ms],ops_per_s [ops/s],mb_per_s [MB/s],series"));
    QCOMPARE(lines.at(1), QString("ldap-search #1,ldap-search,1,1,0.25,1000.5,,"));
    QCOMPARE(lines.at(2), QString("ldap-search #1,ldap-search,2,2,,1200,,"));
    QCOMPARE(lines.at(3), QString("disk #2,disk,1,0.25,,,300.5,\"a,b\""));
}

void TstReportModel::ldapHeadlineIsOkPerSecond()
{
    const ReportDocument doc = Report::build({ load("ldap-mixed", mixedSummary()) }, {});
    const QStringList overview = textOf(doc.sections.at(1));
    QVERIFY2(overview.filter("ldap-mixed").join('\n').contains("997 ok/s, p99 4.5 ms, 30 errors"),
        qPrintable(overview.join('\n')));
    const QStringList t = runText(doc);
    QVERIFY(t.contains("ok/s (successes per second) | 997"));
    QVERIFY(t.contains("ops/s (completed per second) | 1,000"));
    QVERIFY(t.contains("errors | 30: 30 × No such object (32)"));
    QVERIFY(t.contains("load threads' CPU per op (µs) | 12.5"));
    // Throughput drawn as ok/s, and completed ops/s beside it where they differ.
    QVERIFY(t.contains("Throughput: ok/s"));
    QVERIFY(t.contains("ok/s"));
    QVERIFY(t.contains("completed ops/s"));
}

void TstReportModel::mixedLoadHasARowPerKind()
{
    const QStringList t = runText(Report::build({ load("ldap-mixed", mixedSummary()) }, {}));
    QVERIFY(t.contains("By operation"));
    QVERIFY(t.contains("operation | ops | ok/s | errors | p50 (ms) | p95 (ms) | p99 (ms) | p99.9 (ms) | max (ms)"));
    QVERIFY2(t.contains("modify | 1,000 | 97 | 30 | 2.38 | 4.75 | 9.5 | 14.25 | 19"), qPrintable(t.join('\n')));
    QVERIFY2(t.contains("search | 9,000 | 900 | 0 | 0.313 | 0.625 | 1.25 | 1.88 | 2.5"), qPrintable(t.join('\n')));
    QVERIFY(t.contains("all | 10,000 | 997 | 30 | 1.13 | 2.25 | 4.5 | 6.75 | 9"));
    // ok/s and latency per kind over time.
    QVERIFY(t.contains("Throughput by operation: ok/s"));
    for (const char* s : { "search ok/s", "modify ok/s", "search p99", "modify p99", "modify p50" })
        QVERIFY2(t.contains(s), s);
    // A single operation has no such table.
    LoadSummary single = mixedSummary();
    single.byOperation.clear();
    QVERIFY(!runText(Report::build({ load("ldap-search", single) }, {})).contains("By operation"));
}

void TstReportModel::oldLoadIsMarkedDerived()
{
    RunRecord r = load("ldap-search", mixedSummary());
    auto older = [](QJsonObject o) {
        for (const char* k : { "ok", "ok_per_s", "entries_per_s", "by_operation" })
            o.remove(QLatin1String(k));
        return o;
    };
    r.summary = older(r.summary);
    for (qsizetype i = 0; i < r.intervals.size(); ++i)
        r.intervals[i] = older(r.intervals.at(i).toObject());
    const ReportDocument doc = Report::build({ r }, {});
    const QStringList t = runText(doc);
    QVERIFY2(t.contains("ok/s (successes per second) | 997 (derived: ops − errors)"), qPrintable(t.join('\n')));
    QVERIFY(t.contains("operations succeeded | 9,970 (derived: ops − errors)"));
    QVERIFY(t.contains("ok/s (derived: ops − errors)")); // the chart's series
    QVERIFY(t.join('\n').contains("made before successful operations were counted apart"));
    QVERIFY(textOf(doc.sections.at(1)).join('\n').contains("997 ok/s (derived: ops − errors)"));
    // Today's record: no mark anywhere.
    QVERIFY(!runText(Report::build({ load("ldap-search", mixedSummary()) }, {})).join('\n').contains("derived"));
}

void TstReportModel::coalescedReadsAreNoted()
{
    RunRecord r = load("ldap-mixed", mixedSummary());
    r.spec = QJsonObject { { "coalesce_reads", true } };
    const QStringList t = runText(Report::build({ r }, {}));
    for (const char* row : { "latency p50 (ms, coalesced reads) | 1.13", "latency p99 (ms, coalesced reads) | 4.5",
             "latency max (ms, coalesced reads) | 9", "By operation (latency with coalesced reads)",
             "Latency (ms), coalesced reads", "Latency by operation (ms), coalesced reads" })
        QVERIFY2(t.contains(row), row);
    QVERIFY(t.join('\n').contains("Reads were coalesced"));
    r.spec = QJsonObject { { "coalesce_reads", false } };
    QVERIFY(!runText(Report::build({ r }, {})).join('\n').contains("coalesced"));
    // An experiment's load says it in its own spec.
    RunRecord sweep;
    sweep.kind = "thread-sweep";
    sweep.spec = QJsonObject { { "load", QJsonObject { { "coalesce_reads", true } } } };
    sweep.intervals = r.intervals;
    QVERIFY(runText(Report::build({ sweep }, {})).contains("Latency (ms), coalesced reads"));
}

void TstReportModel::pointsReadOkPerSecond()
{
    RunRecord sweep;
    sweep.kind = "thread-sweep";
    sweep.summary = QJsonObject { { "points",
        QJsonArray { QJsonObject { { "threads", 1 }, { "ok_per_s", 900.0 }, { "ops_per_s", 1000.0 } },
            QJsonObject { { "threads", 2 }, { "ok_per_s", 1700.0 }, { "ops_per_s", 1800.0 } } } } };
    auto chartOf = [](const RunRecord& r) {
        const ReportDocument doc = Report::build({ r }, {});
        for (const ReportBlock& b : runSection(doc).blocks)
            if (b.kind == ReportBlock::Kind::Chart)
                return b.chart;
        return ReportChart();
    };
    ReportChart c = chartOf(sweep);
    QCOMPARE(c.title, QString("ok/s by client threads")); // the window's axis: what the sweep varied
    QCOMPARE(c.series.first().points, QList<QPointF>({ { 1, 900 }, { 2, 1700 } }));
    // A sweep older than ok/s: its completed ops/s, said so.
    sweep.summary = QJsonObject { { "points",
        QJsonArray { QJsonObject { { "threads", 1 }, { "ops_per_s", 1000.0 } },
            QJsonObject { { "threads", 2 }, { "ops_per_s", 1800.0 } } } } };
    c = chartOf(sweep);
    QVERIFY2(c.title.contains("predates ok/s"), qPrintable(c.title));
    QCOMPARE(c.series.first().points, QList<QPointF>({ { 1, 1000 }, { 2, 1800 } }));
    // A curve's table and chart: ok/s.
    RunRecord curve;
    curve.kind = "curve";
    curve.summary = QJsonObject { { "points",
        QJsonArray { QJsonObject { { "coverage", 0.5 }, { "ok_per_s", 4000.0 }, { "ops_per_s", 4100.0 } } } } };
    const QStringList t = runText(Report::build({ curve }, {}));
    // Shares of the entries in % (as the chart's axis), not fractions beside a series named "50 %".
    QVERIFY(t.contains("point | asked (% cached) | measured (% cached) | hit ratio (%) | ok/s"));
    QVERIFY2(t.filter(QRegularExpression("\\| 50 \\|")).size() == 1, qPrintable(t.join('\n')));
    QVERIFY2(t.filter(QRegularExpression("\\| 4,000$")).size() == 1 && t.filter("4,100").isEmpty(),
        qPrintable(t.join('\n')));
}

void TstReportModel::byteSizesReadable()
{
    QCOMPARE(ReportFormat::bytes(83171004416), QString("83.2 GB"));
    QCOMPARE(ReportFormat::bytesBinary(25276502016), QString("23.5 GiB"));
    QCOMPARE(ReportFormat::bytes(512), QString("512 bytes"));
    QCOMPARE(ReportFormat::bytesExact(83171004416), QString("83.2 GB (83,171,004,416 bytes)"));
    QCOMPARE(ReportFormat::bytesOf("ram_bytes", 25276502016), QString("23.5 GiB (25,276,502,016 bytes)"));
    QCOMPARE(ReportFormat::bytesOf("size_bytes", 1073741824), QString("1 GiB (1,073,741,824 bytes)"));
    const QJsonObject env { { "ram_bytes", 25276502016.0 },
        { "filesystem", QJsonObject { { "free_bytes", 83171004416.0 }, { "type", "ext4" } } } };
    const QList<QStringList> rows = ReportJson::keyValueRows(env);
    QVERIFY(rows.contains(QStringList({ "filesystem › free", "83.2 GB (83,171,004,416 bytes)" })));
    QVERIFY(rows.contains(QStringList({ "RAM", "23.5 GiB (25,276,502,016 bytes)" })));
}

void TstReportModel::summaryInPlainWords()
{
    RunRecord disk;
    disk.kind = "disk";
    disk.spec = QJsonObject { { "profile", "directory" }, { "dir", "/var/lib/ldap" } };
    disk.environment
        = QJsonObject { { "filesystem", QJsonObject { { "type", "ext4" }, { "free_bytes", 83171004416.0 } } } };
    disk.intervals = QJsonArray { QJsonObject { { "t", 1 }, { "mb_per_s", 90.5 } },
        QJsonObject { { "t", 2 }, { "mb_per_s", 95.5 } } };
    Verdict v { "sequential write ≥ 100 MB/s, sustained (direct I/O, at least 30 s)", "old text (shared/seeds/000)",
        false, 93, 100, "MB/s", {}, {} };
    disk.verdicts << v;
    RunRecord sizing;
    sizing.kind = "sizing";
    sizing.summary = QJsonObject { { "server", "openldap" },
        { "recommendations",
            QJsonArray {
                QJsonObject { { "name", "total RAM" }, { "value", 2871.4 }, { "unit", "MB" }, { "setting", false } },
                QJsonObject { { "name", "threads" }, { "value", 16 }, { "unit", "" }, { "apply", "olcThreads: 16" },
                    { "current", 8 } },
                QJsonObject { { "name", "olcDbMaxSize" }, { "value", 2000 }, { "unit", "MB" },
                    { "apply", "olcDbMaxSize: 2000000000" }, { "current", 4096 },
                    { "note", "below the 4,096 MB the server has now: the data needs 2,000 MB" } },
                QJsonObject { { "name", "base" }, { "value", 29 }, { "unit", "MB" }, { "apply", QJsonValue() } } } } };
    ReportOptions o;
    o.runNames = { "Disk", "Sizing" };
    const ReportDocument doc = Report::build({ disk, sizing }, o);
    const ReportSection& s = doc.sections.first();
    QCOMPARE(s.heading, QString("Summary"));
    const QString text = textOf(s).join('\n');
    QVERIFY2(text.contains("1. Disk: A disk test (the suite for a directory server"), qPrintable(text));
    QVERIFY2(text.contains("in /var/lib/ldap on ext4 with 83.2 GB free"), qPrintable(text));
    QCOMPARE(Report::verdictSentence(v),
        QString("Sequential write ≥ 100 MB/s, sustained (direct I/O, at least 30 s) failed: measured 93 MB/s, required "
                "at least 100 MB/s."));
    bool sentences = false;
    for (const ReportBlock& b : s.blocks)
        sentences = sentences
            || (b.kind == ReportBlock::Kind::Verdicts && b.sentences && b.verdictRuns == QStringList { "Disk" });
    QVERIFY(sentences);
    // What to do next: the failed verdict's advice and the sizing's recommendation, in readable units.
    QVERIFY2(text.contains("• Disk fails “sequential write ≥ 100 MB/s, sustained"), qPrintable(text));
    QVERIFY2(
        text.contains(
            "• Give the OpenLDAP server at least 2.9 GB of RAM (Sizing); set threads from 8 to 16, olcDbMaxSize from "
            "4.1 GB down to 2 GB (lower than now: see the note). The change to apply is in the run's section."),
        qPrintable(text));
    // The sizing's section shows each setting's value now beside the proposal.
    bool nowBesideProposed = false;
    for (const ReportSection& sec : doc.sections)
        for (const ReportBlock& b : sec.blocks)
            nowBesideProposed = nowBesideProposed
                || (b.kind == ReportBlock::Kind::Table && b.table.header.value(1) == u"now"
                    && b.table.rows.contains(QStringList { "olcDbMaxSize", "4,096 MB", "2,000 MB", "lower" })
                    && b.table.rows.contains(QStringList { "threads", "8", "16", "raise" })
                    && b.table.rows.contains(QStringList { "total RAM", "", "2,871.4 MB", "computed" }));
    QVERIFY(nowBesideProposed);
    // One conclusion per run, the question it answers and the answer, the failure first.
    const qsizetype diskConclusion = text.indexOf("✗ Disk — Does the disk meet the directory's need? No: 1 of 1 "
                                                  "requirement fails (sequential write ≥ 100 MB/s, sustained");
    const qsizetype sizingConclusion = text.indexOf("Sizing — How much RAM and cache does the server need?");
    QVERIFY2(diskConclusion >= 0 && sizingConclusion > diskConclusion, qPrintable(text));
    // Page 1 is the decision: the charts are in the runs' sections.
    for (const ReportBlock& b : s.blocks)
        QVERIFY(b.kind != ReportBlock::Kind::Chart);
    QVERIFY(!text.contains("shared/"));
}

void TstReportModel::cloudBoundFailsOnPageOne()
{
    // The seed article's table, as the catalog compares it: P30 (< 50 of 200 MB/s), P60 and t2.micro fail; the
    // sanity check "within the published maximum" is nowhere a pass.
    const CloudCatalog::Catalog catalog = CloudCatalog::Catalog::load();
    QList<CloudCatalog::Comparison> all;
    for (const auto& sc : CloudCatalog::SeedExample::cases()) {
        QString field, error;
        const auto c = CloudCatalog::compare(CloudCatalog::SeedExample::measured(sc), *catalog.disk(sc.diskType),
            sc.sizeGib, sc.vm.isEmpty() ? nullptr : catalog.vm(sc.vm), sc.provisioning, &field, &error);
        QVERIFY2(c, qPrintable(error));
        all << *c;
    }
    const RunRecord rec = CloudCatalog::compareRecord(catalog, all, {}, CloudCatalog::SeedExample::source());
    ReportOptions o;
    o.runNames = { "Seed" };
    const ReportDocument doc = Report::build({ rec }, o);
    const QStringList lines = textOf(doc.sections.first());
    const QString text = lines.join('\n');
    for (const char* c : { "Azure P30 disk (1TB) delivers < 50 MB/s", "Azure P60 disk delivers 35 MB/s",
             "t2.micro (not EBS-optimized) + io1 1000 GB delivers 72.2 MB/s" }) {
        const auto startsWith = [&](const QString& prefix) {
            return std::any_of(lines.begin(), lines.end(), [&](const QString& l) { return l.startsWith(prefix); });
        };
        QVERIFY2(startsWith(QString("✗ Seed: ") + c), qPrintable(c + QString("\n") + text));
        QVERIFY2(!startsWith(QString("✓ Seed: ") + c), c);
    }
    QVERIFY(!text.contains("within the published maximum"));
    QVERIFY2(text.contains("Seed — Do the cloud disks deliver what they can (80 % of their reachable ceiling)? No for "
                           "Azure P30 disk (1TB), Azure P60 disk"),
        qPrintable(text));
    QVERIFY2(text.contains("6 cases compared: "), qPrintable(text));
    // Failures come before the passes and the flags.
    QVERIFY(text.indexOf("✗ Seed: Azure P30") < text.indexOf("⚠ Seed: "));
    // The overview's headline counts the cases, and the verdicts table prints the bound.
    bool bound = false;
    for (const ReportSection& s : doc.sections)
        for (const ReportBlock& b : s.blocks)
            for (const QStringList& row : b.table.rows)
                bound = bound || row.contains("< 50 MB/s");
    QVERIFY(bound);
}

void TstReportModel::settingsThatDiffer()
{
    RunRecord a, b, c;
    a.kind = b.kind = "disk";
    a.spec = QJsonObject { { "profile", "seq-write" }, { "queue_depth", 4 }, { "dir", "/var/tmp" } };
    b.spec = QJsonObject { { "profile", "seq-write" }, { "queue_depth", 32 }, { "dir", "/var/tmp" } };
    c.kind = "sizing";
    c.spec = QJsonObject { { "server", "openldap" } };
    const ReportDocument doc = Report::build({ a, b, c });
    const ReportSection& run1 = doc.sections.at(2);
    QList<QStringList> shown;
    for (const ReportBlock& blk : run1.blocks)
        if (blk.kind == ReportBlock::Kind::Table && blk.table.keyValue)
            shown += blk.table.rows;
    QVERIFY2(shown.contains(QStringList({ "queue depth", "4" })) || shown.contains(QStringList({ "queue_depth", "4" })),
        qPrintable(textOf(run1).join('\n')));
    for (const QStringList& row : shown)
        QVERIFY2(row.value(1) != "/var/tmp", "a setting both runs share is for the appendix");
    // the appendix holds every setting of every run
    const ReportSection* appendix = nullptr;
    for (const ReportSection& s : doc.sections)
        if (s.heading == "Appendix: full settings")
            appendix = &s;
    QVERIFY(appendix);
    QVERIFY(textOf(*appendix).join('\n').contains("/var/tmp"));
}

// A thread sweep says what it varied and where it peaked; a curve gives its fit's two ends, not one ok/s figure.
void TstReportModel::experimentsAndCurvesAnswerTheirQuestion()
{
    RunRecord sweep;
    sweep.kind = "thread-sweep";
    sweep.summary = QJsonObject { { "best_ok_per_s", 29270.5 }, { "best_ops_per_s", 29300.0 }, { "best_threads", 4 } };
    QCOMPARE(ReportSummary::headline(sweep), QString("best 29,270.5 ok/s at 4 client threads"));
    QVERIFY2(ReportSummary::whatWasTested(sweep).startsWith("An experiment: throughput as the client threads grow"),
        qPrintable(ReportSummary::whatWasTested(sweep)));
    sweep.spec = QJsonObject { { "axis", "server_threads" } };
    sweep.summary.insert("best_server_threads", 16);
    QCOMPARE(ReportSummary::headline(sweep), QString("best 29,270.5 ok/s at 16 server threads"));
    QVERIFY(ReportSummary::whatWasTested(sweep).contains("server's threads"));
    RunRecord tls;
    tls.kind = "tls-cost";
    tls.summary
        = QJsonObject { { "plain_ms_per_bind", 0.412 }, { "tls_ms_per_bind", 1.63 }, { "tls_extra_ms", 1.218 } };
    QCOMPARE(ReportSummary::headline(tls), QString("connect + bind: plain 0.412 ms, TLS 1.630 ms (+1.218 ms)"));
    RunRecord curve;
    curve.kind = "curve";
    curve.summary = QJsonObject { { "t_hit_us", 50.0 }, { "t_miss_us", 500.0 } };
    QCOMPARE(ReportSummary::headline(curve),
        QString("2,000 ok/s with no entry cached to 20,000 ok/s with every entry cached (the fit's t_miss 500 µs, "
                "t_hit 50 µs)"));
}

// An experiment's points: what was varied, the rate and its errors, then the latencies from the median to the worst.
void TstReportModel::pointColumnsInReadingOrder()
{
    const QJsonObject latency { { "max", 5.5 }, { "mean", 0.4 }, { "min", 0.01 }, { "p50", 0.3 }, { "p95", 0.9 },
        { "p99", 1.3 }, { "p999", 3.0 } };
    const ReportTable t = ReportJson::tableOf(QJsonArray { QJsonObject { { "status", "ok" }, { "ops", 35172 },
        { "errors", 0 }, { "latency_ms", latency }, { "ok_per_s", 17586.0 }, { "threads", 1 } } });
    QCOMPARE(t.header,
        QStringList({ "threads", "ok/s", "errors", "p50 (ms)", "p95 (ms)", "p99 (ms)", "p99.9 (ms)", "max (ms)",
            "mean (ms)", "min (ms)", "ops", "status" }));
}

// A run of 30.05 s: its time axis ends at 30.05 (ticks to 30), not at 40 with a quarter of the plot empty; the
// values' axis keeps a round top.
void TstReportModel::timeAxisEndsWithTheRun()
{
    ReportChart c;
    c.series << ReportSeries { "lag", { { 1, 1.2 }, { 30.05, 6.9 } } };
    const ChartGeometry g = ChartGeometry::of(c, QRectF(0, 0, 400, 200));
    QCOMPARE(g.x.max, 30.05);
    QCOMPARE(g.x.ticks.last(), 30.0);
    QCOMPARE(g.y.max, 8.0);
    c.series.first().points.last().setX(34); // well past a tick: the round step stays
    QCOMPARE(ChartGeometry::of(c, QRectF(0, 0, 400, 200)).x.max, 40.0);
}

QTEST_GUILESS_MAIN(TstReportModel)
#include "tst_reportmodel.moc"
