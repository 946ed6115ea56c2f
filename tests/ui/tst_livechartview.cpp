#include "ui/charts/livechartview.h"

#include <QApplication>
#include <QImage>
#include <QLabel>
#include <QLineF>
#include <QPixmap>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QtCharts/QAbstractSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cstdlib>

class TestLiveChartView : public QObject
{
    Q_OBJECT
private slots:
    void appendsPointsPerSeries();
    void axesCoverThePoints();
    void boundedWindow();
    void clearEmptiesTheChart();
    void theSeriesIsDrawnThroughItsPoints();
    void batchRescalesOnceAtTheEnd();
    void unchangedAxisIsNotSetAgain();
    void placeholderCoversThePlotWhenShownLate();
    void smallValuesKeepTheirDecimals();
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

namespace {

// Pixels of `img` within `area` of (about) colour `c`: the antialiased edges of a line blend it with what is under.
int pixelsOf(const QImage& img, const QRect& area, const QColor& c)
{
    constexpr int tolerance = 40;
    int n = 0;
    for (int y = std::max(area.top(), 0); y <= std::min(area.bottom(), img.height() - 1); ++y)
        for (int x = std::max(area.left(), 0); x <= std::min(area.right(), img.width() - 1); ++x) {
            const QColor p = img.pixelColor(x, y);
            n += std::abs(p.red() - c.red()) <= tolerance && std::abs(p.green() - c.green()) <= tolerance
                && std::abs(p.blue() - c.blue()) <= tolerance;
        }
    return n;
}

// Where a position of the chart (its own coordinates) lands in the view's grab.
QPoint inGrab(const LiveChartView& view, QChartView* chartView, QPointF inChart, qreal dpr)
{
    const QPointF scene = chartView->chart()->mapToScene(inChart);
    return (chartView->viewport()->mapTo(&view, chartView->mapFromScene(scene)).toPointF() * dpr).toPoint();
}

} // namespace

// The line is drawn, in its colour, through each of its points and along the segments between them; with the
// series hidden the same check finds nothing (so it tells a drawn series from a plot without it).
void TestLiveChartView::theSeriesIsDrawnThroughItsPoints()
{
    LiveChartView view;
    view.setAxisTitles(QStringLiteral("Time (s)"), QStringLiteral("MB/s"));
    view.resize(640, 360);
    const QList<QPointF> points { { 0, 100 }, { 0.25, 180 }, { 0.5, 150 }, { 0.75, 210 } };
    view.appendPoints(QStringLiteral("seq-write"), points);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto* chartView = view.findChild<QChartView*>(QStringLiteral("chartView"));
    QVERIFY(chartView);
    QChart* chart = chartView->chart();
    QCOMPARE(chart->series().size(), 1);
    QAbstractSeries* series = chart->series().constFirst();
    const QColor colour = view.seriesColor(QStringLiteral("seq-write"));
    QVERIFY(colour.isValid());

    QPixmap pix = view.grab();
    QVERIFY(!pix.isNull());
    QCOMPARE(pix.size(), view.size() * pix.devicePixelRatio());
    const qreal dpr = pix.devicePixelRatio();
    const QRectF plotArea = chart->plotArea();
    const QRect plot(
        inGrab(view, chartView, plotArea.topLeft(), dpr), inGrab(view, chartView, plotArea.bottomRight(), dpr));
    QVERIFY2(plot.width() > 300 && plot.height() > 150,
        qPrintable(QStringLiteral("plot area %1 x %2 px").arg(plot.width()).arg(plot.height())));
    // Along the line: a small box around each point and around each segment's middle holds the series' colour.
    QList<QPointF> along = points;
    for (qsizetype i = 1; i < points.size(); ++i)
        along << (points.at(i - 1) + points.at(i)) / 2;
    const auto drawnAt = [&](const QImage& img) {
        int hit = 0;
        for (const QPointF& v : std::as_const(along)) {
            const QPoint at = inGrab(view, chartView, chart->mapToPosition(v, series), dpr);
            hit += pixelsOf(img, QRect(at - QPoint(3, 3), QSize(7, 7)), colour) > 0;
        }
        return hit;
    };
    // The line is 2 px wide: at least one pixel of its colour per pixel of its length.
    double length = 0;
    for (qsizetype i = 1; i < points.size(); ++i)
        length += QLineF(chart->mapToPosition(points.at(i - 1), series), chart->mapToPosition(points.at(i), series))
                      .length()
            * dpr;
    QVERIFY2(length > 200, qPrintable(QString::number(length)));
    QImage img = pix.toImage();
    const int drawn = pixelsOf(img, plot, colour);
    QVERIFY2(drawn >= length,
        qPrintable(QStringLiteral("%1 px of the series' colour along a line of %2 px").arg(drawn).arg(length)));
    QCOMPARE(drawnAt(img), int(along.size()));

    series->setVisible(false);
    img = view.grab().toImage();
    const int hidden = pixelsOf(img, plot, colour);
    QVERIFY2(hidden < drawn / 20,
        qPrintable(QStringLiteral("%1 px of the series' colour with the series hidden, "
                                  "%2 px with it drawn")
                       .arg(hidden)
                       .arg(drawn)));
    QCOMPARE(drawnAt(img), 0);
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

// A chart on a page shown after the window (a tab opened later): its placeholder lies over the plot, inside the
// view, not where the plot was before the view had its size (it was drawn half a view off, over the axis labels).
void TestLiveChartView::placeholderCoversThePlotWhenShownLate()
{
    QTabWidget tabs;
    tabs.resize(900, 500);
    tabs.addTab(new QWidget, QStringLiteral("first"));
    auto* chart = new LiveChartView;
    chart->setAxisTitles(QStringLiteral("Time (s)"), QStringLiteral("ok/s"));
    chart->setPlaceholderText(QStringLiteral("ok/s appear here"));
    tabs.addTab(chart, QStringLiteral("second"));
    tabs.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tabs));
    tabs.setCurrentIndex(1);
    auto* view = chart->findChild<QChartView*>(QStringLiteral("chartView"));
    auto* label = chart->findChild<QLabel*>(QStringLiteral("chartPlaceholder"));
    QVERIFY(view && label);
    QTRY_VERIFY(chart->isVisible() && !label->isHidden());
    QApplication::processEvents();
    const QRect plot = view->mapFromScene(view->chart()->plotArea()).boundingRect();
    QVERIFY2(view->rect().contains(label->geometry()),
        qPrintable(QStringLiteral("label %1,%2 %3x%4 in a %5x%6 view")
                       .arg(label->x())
                       .arg(label->y())
                       .arg(label->width())
                       .arg(label->height())
                       .arg(view->width())
                       .arg(view->height())));
    QVERIFY(plot.adjusted(-2, -2, 2, 2).contains(label->geometry()));
}

// A series of hundredths (operations in flight: 0 .. 0.02) gets labels as distinct as its ticks, not "0.01" thrice.
void TestLiveChartView::smallValuesKeepTheirDecimals()
{
    LiveChartView chart;
    chart.resize(600, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.appendPoints(QStringLiteral("in flight"), { { 0, 0.001 }, { 1, 0.021 } }, LiveChartView::Axis::Right);
    QApplication::processEvents();
    auto* view = chart.findChild<QChartView*>(QStringLiteral("chartView"));
    QValueAxis* right = nullptr;
    for (QAbstractAxis* a : view->chart()->axes(Qt::Vertical))
        if (a->alignment() == Qt::AlignRight)
            right = qobject_cast<QValueAxis*>(a);
    QVERIFY(right);
    QTRY_VERIFY(right->tickInterval() > 0 && right->tickInterval() < 0.01);
    QStringList labels;
    for (double t = 0; t <= right->max() + 1e-12; t += right->tickInterval())
        labels << QString::asprintf(qPrintable(right->labelFormat()), t);
    QVERIFY2(labels.size() >= 3 && labels.removeDuplicates() == 0, qPrintable(labels.join(", ")));
}

QTEST_MAIN(TestLiveChartView)
#include "tst_livechartview.moc"
