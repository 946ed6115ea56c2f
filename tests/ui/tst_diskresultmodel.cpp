#include "core/common/runrecord.h"
#include "ui/models/diskresultmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QTest>

#include <cmath>

namespace {

QJsonObject summary(double mbps, double iops, double p50, double p99, double p999, double max)
{
    QJsonObject lat { { QStringLiteral("min"), 1.0 }, { QStringLiteral("mean"), p50 }, { QStringLiteral("p50"), p50 },
        { QStringLiteral("p99"), p99 }, { QStringLiteral("p999"), p999 }, { QStringLiteral("max"), max } };
    return { { QStringLiteral("mb_per_s"), mbps }, { QStringLiteral("iops"), iops },
        { QStringLiteral("latency_us"), lat } };
}

RunRecord record(const QString& profile, const QJsonObject& sum, const QJsonArray& intervals = {})
{
    RunRecord r;
    r.kind = QStringLiteral("disk");
    r.spec = { { QStringLiteral("profile"), profile } };
    r.summary = sum;
    r.intervals = intervals;
    return r;
}

} // namespace

class TestDiskResultModel : public QObject
{
    Q_OBJECT
private slots:
    void rowsFromRecord_data();
    void rowsFromRecord();
    void displayAndValues();
    void modelTester();
};

void TestDiskResultModel::rowsFromRecord_data()
{
    QTest::addColumn<RunRecord>("rec");
    QTest::addColumn<QStringList>("names");

    QTest::newRow("single") << record(QStringLiteral("seq-write"), summary(812.5, 812.5, 900, 1500, 2100, 4000))
                            << QStringList { QStringLiteral("seq-write") };

    QJsonObject rep = summary(800, 800, 900, 1500, 2100, 4000);
    rep.insert(QStringLiteral("repeats"),
        QJsonArray { summary(790, 790, 1, 2, 3, 4), summary(800, 800, 1, 2, 3, 4), summary(830, 830, 1, 2, 3, 4) });
    QTest::newRow("repeats") << record(QStringLiteral("seq-write"), rep)
                             << QStringList { QStringLiteral("repeat 1"), QStringLiteral("repeat 2"),
                                    QStringLiteral("repeat 3"), QStringLiteral("seq-write (median)") };

    // A suite: parts in the order they ran, no top-level rate.
    QJsonObject tests { { QStringLiteral("commit"), summary(2, 500, 1, 2, 3, 4) },
        { QStringLiteral("rand-read qd1"), summary(20, 5000, 1, 2, 3, 4) },
        { QStringLiteral("seq-write"), summary(500, 500, 1, 2, 3, 4) } };
    QJsonArray intervals { QJsonObject { { QStringLiteral("series"), QStringLiteral("rand-read qd1") } },
        QJsonObject { { QStringLiteral("series"), QStringLiteral("seq-write") } },
        QJsonObject { { QStringLiteral("series"), QStringLiteral("commit") } } };
    QTest::newRow("suite") << record(QStringLiteral("directory"), { { QStringLiteral("tests"), tests } }, intervals)
                           << QStringList { QStringLiteral("rand-read qd1"), QStringLiteral("seq-write"),
                                  QStringLiteral("commit") };

    QTest::newRow("failed before measuring") << record(QStringLiteral("seq-read"), {}) << QStringList {};
}

void TestDiskResultModel::rowsFromRecord()
{
    QFETCH(RunRecord, rec);
    QFETCH(QStringList, names);
    QStringList got;
    const QList<DiskResultRow> rows = DiskResultModel::rowsFromRecord(rec);
    for (const DiskResultRow& r : rows)
        got << r.name;
    QCOMPARE(got, names);
}

void TestDiskResultModel::displayAndValues()
{
    DiskResultModel model;
    QJsonObject sum = summary(812.25, 1234.0, 900, 1500, 2100.5, 4000);
    sum.insert(QStringLiteral("latency_us"), QJsonObject { { QStringLiteral("p50"), 900.0 } }); // the rest not exposed
    model.setRecord(record(QStringLiteral("seq-write"), sum));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.columnCount(), int(DiskResultModel::ColumnCount));
    QCOMPARE(model.index(0, DiskResultModel::Name).data().toString(), QStringLiteral("seq-write"));
    QCOMPARE(model.index(0, DiskResultModel::MbPerSec).data(DiskResultModel::ValueRole).toDouble(), 812.25);
    QCOMPARE(model.index(0, DiskResultModel::Iops).data().toString(), QStringLiteral("1,234")); // in full, no "1.2k"
    QCOMPARE(model.index(0, DiskResultModel::P50).data().toString(), QStringLiteral("900.0"));
    QVERIFY(std::isnan(model.index(0, DiskResultModel::P99).data(DiskResultModel::ValueRole).toDouble()));
    QCOMPARE(model.index(0, DiskResultModel::P99).data().toString(), QStringLiteral("–"));
    QCOMPARE(model.headerData(DiskResultModel::P999, Qt::Horizontal).toString(), QStringLiteral("p99.9 µs"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestDiskResultModel::modelTester()
{
    DiskResultModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QJsonObject rep = summary(800, 800, 900, 1500, 2100, 4000);
    rep.insert(QStringLiteral("repeats"), QJsonArray { summary(790, 790, 1, 2, 3, 4), summary(830, 830, 1, 2, 3, 4) });
    model.setRecord(record(QStringLiteral("seq-write"), rep));
    QCOMPARE(model.rowCount(), 3);
    model.setRecord(record(QStringLiteral("seq-write"), summary(1, 2, 3, 4, 5, 6)));
    QCOMPARE(model.rowCount(), 1);
    model.clear();
}

QTEST_MAIN(TestDiskResultModel)
#include "tst_diskresultmodel.moc"
