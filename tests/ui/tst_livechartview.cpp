#include "ui/charts/livechartview.h"

#include <QImage>
#include <QPixmap>
#include <QSignalSpy>
#include <QTest>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>

class TestLiveChartView : public QObject
{
    Q_OBJECT
private slots:
    void appendsPointsPerSeries();
    void axesCoverThePoints();
    void boundedWindow();
    void clearEmptiesTheChart();
    void grabIsNotEmpty();
    void batchRescalesOnceAtTheEnd();
    void unchangedAxisIsNotSetAgain();
};

void TestLiveChartView::appendsPointsPerSeries()
{
    LiveChartView view;
    view.appendPoints(QStringLiteral("repeat 1"), { { 0, 10 }, { 1, 12 }, { 2, 11 } });
    view.appendPoints(QStringLiteral("repeat 2"), { { 0, 9 }, { 1, 13 } });
    view.appendPoints(QStringLiteral("repeat 1"), { { 3, 14 } });
    view.appendPoints(QStringLiteral("repeat 1"), {}); // an empty batch changes nothing
    QCOMPARE(view.pointCount(), 6);
    QCOMPARE(view.pointCount(QStringLiteral("repeat 1")), 4);
    QCOMPARE(view.pointCount(QStringLiteral("repeat 2")), 2);
    QCOMPARE(view.seriesNames(), (QStringList { QStringLiteral("repeat 1"), QStringLiteral("repeat 2") }));
}

void TestLiveChartView::axesCoverThePoints()
{
    LiveChartView view;
    view.appendPoints(QStringLiteral("a"), { { 0.25, 120.0 }, { 0.5, 2379.5 }, { 7.75, 800.0 } });
    view.appendPoints(QStringLiteral("b"), { { 12.0, 5.0 } });
    const auto [xMin, xMax] = view.xRange();
    const auto [yMin, yMax] = view.yRange();
    QVERIFY(xMin <= 0.25);
    QVERIFY(xMax >= 12.0);
    QVERIFY(yMin <= 5.0);
    QVERIFY(yMax >= 2379.5);
    QCOMPARE(yMin, 0.0); // throughput starts at zero
}

void TestLiveChartView::boundedWindow()
{
    LiveChartView view;
    view.setMaxPointsPerSeries(100);
    QList<QPointF> pts;
    for (int i = 0; i < 250; ++i)
        pts << QPointF(i, i % 7);
    view.appendPoints(QStringLiteral("a"), pts);
    QCOMPARE(view.pointCount(), 100);
    QVERIFY(view.xRange().second >= 249);
}

void TestLiveChartView::clearEmptiesTheChart()
{
    LiveChartView view;
    view.appendPoints(QStringLiteral("a"), { { 0, 1 }, { 1, 2 } });
    view.clear();
    QCOMPARE(view.pointCount(), 0);
    QVERIFY(view.seriesNames().isEmpty());
    view.appendPoints(QStringLiteral("b"), { { 0, 1 } });
    QCOMPARE(view.pointCount(), 1);
}

void TestLiveChartView::grabIsNotEmpty()
{
    LiveChartView view;
    view.setAxisTitles(QStringLiteral("Time (s)"), QStringLiteral("MB/s"));
    view.resize(640, 360);
    view.appendPoints(QStringLiteral("seq-write"), { { 0, 100 }, { 0.25, 180 }, { 0.5, 150 }, { 0.75, 210 } });
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QPixmap pix = view.grab();
    QVERIFY(!pix.isNull());
    QCOMPARE(pix.size(), view.size() * pix.devicePixelRatio());
    // Something was drawn: not every pixel has the same colour.
    const QImage img = pix.toImage();
    const QRgb first = img.pixel(0, 0);
    bool varied = false;
    for (int y = 0; y < img.height() && !varied; y += 7)
        for (int x = 0; x < img.width() && !varied; x += 7)
            varied = img.pixel(x, y) != first;
    QVERIFY(varied);
}

void TestLiveChartView::batchRescalesOnceAtTheEnd()
{
    LiveChartView view;
    const auto before = view.xRange();
    {
        const LiveChartView::Batch batch(&view);
        view.appendPoints(QStringLiteral("a"), { { 0, 1 }, { 40, 2 } });
        view.appendPoints(QStringLiteral("b"), { { 0, 300 } });
        view.setMinimumXRange(0, 50);
        QCOMPARE(view.xRange(), before); // held until the batch ends
    }
    QCOMPARE(view.xRange(), std::make_pair(0.0, 50.0));
    QVERIFY(view.yRange().second >= 300);
}

// Every setter of a QValueAxis relays it out: a batch whose points stay in the range sets nothing.
void TestLiveChartView::unchangedAxisIsNotSetAgain()
{
    LiveChartView view;
    view.appendPoints(QStringLiteral("a"), { { 0, 10 }, { 20, 100 } });
    auto* chartView = view.findChild<QChartView*>(QStringLiteral("chartView"));
    QVERIFY(chartView);
    const QList<QAbstractAxis*> axes = chartView->chart()->axes();
    QCOMPARE(axes.size(), 3);
    QList<QSignalSpy*> spies;
    for (QAbstractAxis* a : axes) {
        auto* axis = qobject_cast<QValueAxis*>(a);
        QVERIFY(axis);
        spies << new QSignalSpy(axis, &QValueAxis::rangeChanged)
              << new QSignalSpy(axis, &QValueAxis::labelFormatChanged)
              << new QSignalSpy(axis, &QValueAxis::tickIntervalChanged)
              << new QSignalSpy(axis, &QValueAxis::tickAnchorChanged);
    }
    view.appendPoints(QStringLiteral("a"), { { 10, 50 } });
    view.setMinimumXRange(0, 20);
    for (QSignalSpy* spy : std::as_const(spies))
        QCOMPARE(spy->count(), 0);
    view.appendPoints(QStringLiteral("a"), { { 30, 50 } }); // the x range grows: only it changes
    QCOMPARE(view.xRange(), std::make_pair(0.0, 30.0));
    QCOMPARE(spies.at(0)->count(), 1);
    qDeleteAll(spies);
}

QTEST_MAIN(TestLiveChartView)
#include "tst_livechartview.moc"
