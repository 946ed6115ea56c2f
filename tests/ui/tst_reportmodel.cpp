// The report's document model (Report::build) and its number rule, without any output format: what sections a
// report has, that every cited source is collected once, that warnings and verdicts land in their run's section.
#include "ui/report/report.h"
#include "ui/report/reportformat.h"

#include <QJsonArray>
#include <QTest>

class TstReportModel : public QObject
{
    Q_OBJECT

private slots:
    void numbersInFull_data();
    void numbersInFull();
    void sectionsAndSources();
    void csvRowsAndUnits();
};

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
    a.verdicts << Verdict { "sequential write >= 100 MB/s", "eDirectory KB (seed 000)", true, 312.4, 100, "MB/s", {} };
    a.addWarning("size-below-ram", "the test file is smaller than RAM");
    RunRecord b;
    b.kind = "vendor-check"; // a kind without its own section: sources found generically
    b.summary = QJsonObject { { "rows",
        QJsonArray { QJsonObject { { "metric", "iops" }, { "source", "Vendor table" } },
            QJsonObject { { "metric", "mb_per_s" }, { "source", "Vendor table" } } } } };
    b.verdicts << Verdict { "IOPS as listed", "eDirectory KB (seed 000)", false, 10, 20, "IO/s", {} };
    ReportOptions o;
    o.title = "T";
    o.runNames = { "first" };
    const ReportDocument doc = Report::build({ a, b }, o);
    QStringList headings;
    for (const ReportSection& s : doc.sections)
        headings << s.heading;
    QCOMPARE(headings,
        QStringList({ "Overview", "Environment", "Verdicts", "Run 1: first (disk)",
            "Run 2: vendor-check #2 "
            "(vendor-check)",
            "Sources" }));
    // Each source once, in order of appearance.
    QCOMPARE(doc.sources, QStringList({ "eDirectory KB (seed 000)", "Vendor table" }));
    const ReportSection& run1 = doc.sections.at(3);
    bool warned = false, judged = false;
    for (const ReportBlock& blk : run1.blocks) {
        warned = warned || (blk.kind == ReportBlock::Kind::Warnings && blk.warnings.first().code == "size-below-ram");
        judged = judged || (blk.kind == ReportBlock::Kind::Verdicts && blk.verdicts.size() == 1);
    }
    QVERIFY(warned);
    QVERIFY(judged);
    QCOMPARE(Report::verdictLine(b.verdicts.first()),
        QString("FAIL  IOPS as listed: measured 10 IO/s, threshold 20 IO/s (source: eDirectory KB (seed 000))"));
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

QTEST_GUILESS_MAIN(TstReportModel)
#include "tst_reportmodel.moc"
