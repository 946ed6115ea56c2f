// Every chart of every page, filled by real runs against a sandbox slapd (and the demo directory with a replica for
// the Replication page's lag chart) and a temporary directory, laid out at 1366×768 and 1920×1080 (ctest runs it
// again with QT_SCALE_FACTOR=2), in a light and a dark palette: no axis title, tick or category label or legend
// entry is elided, wrapped, cut at the chart's edge or drawn over another text, and each axis title is drawn once.
#include "core/run/proberunner.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/chartlegend.h"
#include "ui/charts/livechartview.h"
#include "uiscenes.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QFontMetricsF>
#include <QGraphicsTextItem>
#include <QImage>
#include <QScrollArea>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>

namespace {

void settle()
{
    for (int i = 0; i < 6; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}

QString where(const QWidget* w)
{
    QStringList path;
    for (const QObject* o = w; o; o = o->parent())
        if (!o->objectName().isEmpty())
            path.prepend(o->objectName());
    return path.join(u'/');
}

// The lines the text item's document laid out, and the lines the text asks for (<br>, paragraphs).
int laidOutLines(QGraphicsTextItem* item)
{
    QTextDocument* doc = item->document();
    doc->documentLayout()->documentSize(); // lays the document out
    int lines = 0;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        lines += b.layout() ? b.layout()->lineCount() : 1;
    return lines;
}

int askedLines(QGraphicsTextItem* item)
{
    // toPlainText() turns <br> (U+2028) into '\n'
    return int(item->toPlainText().count(u'\n')) + 1;
}

// Where the glyphs of each laid-out line are, in scene coordinates: texts overlap when their ink does (a label's
// line box holds leading and descent that digits never fill).
QList<QRectF> inkRects(QGraphicsTextItem* item)
{
    QList<QRectF> out;
    const QFontMetricsF fm(item->font());
    QTextDocument* doc = item->document();
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        const QTextLayout* layout = b.layout();
        if (!layout)
            continue;
        for (int i = 0; i < layout->lineCount(); ++i) {
            const QTextLine line = layout->lineAt(i);
            const QString text = b.text().mid(line.textStart(), line.textLength()).trimmed();
            if (text.isEmpty())
                continue;
            const QPointF baseline = layout->position() + QPointF(line.x(), line.y() + line.ascent());
            // Anti-aliasing bleeds half a pixel: not overlap.
            const QRectF ink = fm.tightBoundingRect(text).translated(baseline).adjusted(0.5, 0.5, -0.5, -0.5);
            out << item->mapRectToScene(ink);
        }
    }
    return out;
}

struct Placed
{
    QRectF rect;
    QString text;
};

QList<QGraphicsTextItem*> visibleTexts(QGraphicsScene* scene)
{
    QList<QGraphicsTextItem*> out;
    const QList<QGraphicsItem*> items = scene->items();
    for (QGraphicsItem* item : items) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (text && text->isVisible() && text->opacity() > 0 && !text->toPlainText().trimmed().isEmpty())
            out << text;
    }
    return out;
}

QStringList checkView(QChartView* view)
{
    QStringList problems;
    const QString at = where(view);
    const QRectF area = view->mapToScene(view->viewport()->rect()).boundingRect().adjusted(-1, -1, 1, 1);
    const QList<QGraphicsTextItem*> texts = visibleTexts(view->scene());
    QList<Placed> placed;
    for (QGraphicsTextItem* t : texts) {
        const QString text = t->toPlainText();
        const QRectF r = t->sceneBoundingRect();
        if (text.contains(QStringLiteral("...")) || text.contains(QChar(0x2026)))
            problems << QStringLiteral("%1: elided \"%2\"").arg(at, text);
        if (laidOutLines(t) > askedLines(t))
            problems << QStringLiteral("%1: \"%2\" wrapped into %3 lines in %4 px")
                            .arg(at, text)
                            .arg(laidOutLines(t))
                            .arg(t->textWidth());
        const QFontMetricsF fm(t->font());
        const QStringList lines = text.split(u'\n');
        for (const QString& line : lines)
            if (t->textWidth() > 0 && fm.horizontalAdvance(line) > t->textWidth())
                problems << QStringLiteral("%1: \"%2\" is %3 px wide in %4 px")
                                .arg(at, line)
                                .arg(fm.horizontalAdvance(line))
                                .arg(t->textWidth());
        if (!area.contains(r))
            problems << QStringLiteral("%1: \"%2\" cut at the edge (%3,%4 %5×%6 outside %7×%8)")
                            .arg(at, text)
                            .arg(r.x())
                            .arg(r.y())
                            .arg(r.width())
                            .arg(r.height())
                            .arg(area.width())
                            .arg(area.height());
        for (const QRectF& ink : inkRects(t))
            placed << Placed { ink, text };
    }
    for (qsizetype i = 0; i < placed.size(); ++i)
        for (qsizetype j = i + 1; j < placed.size(); ++j)
            if (placed[i].rect.intersects(placed[j].rect))
                problems << QStringLiteral("%1: \"%2\" drawn over \"%3\" (%4 px × %5 px)")
                                .arg(at, placed[i].text, placed[j].text)
                                .arg(placed[i].rect.intersected(placed[j].rect).width())
                                .arg(placed[i].rect.intersected(placed[j].rect).height());
    const QList<QAbstractAxis*> axes = view->chart()->axes();
    for (const QAbstractAxis* axis : axes) {
        if (!axis->isVisible() || !axis->isTitleVisible() || axis->titleText().isEmpty())
            continue;
        const auto n = std::count_if(
            texts.begin(), texts.end(), [&](QGraphicsTextItem* t) { return t->toPlainText() == axis->titleText(); });
        if (n != 1 && !(n == 0 && view->chart()->series().isEmpty())) // an empty chart draws no axis
            problems << QStringLiteral("%1: axis title \"%2\" drawn %3 times").arg(at, axis->titleText()).arg(n);
    }
    return problems;
}

QStringList checkLegend(ChartLegend* legend)
{
    QStringList problems;
    const QString at = where(legend);
    if (legend->heightForWidth(legend->width()) > legend->height() + 1)
        problems << QStringLiteral("%1: needs %2 px, has %3")
                        .arg(at)
                        .arg(legend->heightForWidth(legend->width()))
                        .arg(legend->height());
    const QFontMetricsF fm(legend->font());
    const double room = legend->contentsRect().width();
    const QStringList names = legend->names();
    for (const QString& name : names) {
        const QStringList words = name.split(u' ');
        for (const QString& word : words)
            if (fm.horizontalAdvance(word) + fm.horizontalAdvance(QStringLiteral("\u25A0 ")) > room)
                problems << QStringLiteral("%1: \"%2\" wider than %3 px").arg(at, word).arg(room);
    }
    // In a scroll area (a page's details, when the window is low) it must lie in the area's content, which may be
    // scrolled to but never cut sideways (no horizontal scroll bar); else in the window.
    const QWidget* frame = legend->window();
    for (const QWidget* p = legend->parentWidget(); p; p = p->parentWidget())
        if (const auto* area = qobject_cast<const QScrollArea*>(p)) {
            frame = area->widget();
            if (frame->width() > area->viewport()->width())
                problems << QStringLiteral("%1: its scroll area is %2 px wide, the content %3 px")
                                .arg(at)
                                .arg(area->viewport()->width())
                                .arg(frame->width());
            break;
        }
    const QRect inFrame(legend->mapTo(frame, QPoint(0, 0)), legend->size());
    if (!frame->rect().contains(inFrame))
        problems << QStringLiteral("%1: outside the window").arg(at);
    return problems;
}

// Every chart and legend shown on the current page.
QStringList checkPage(QWidget* page, int* charts)
{
    QStringList problems;
    const QList<QChartView*> views = page->findChildren<QChartView*>();
    for (QChartView* v : views)
        if (v->isVisible()) {
            problems << checkView(v);
            ++*charts;
        }
    const QList<ChartLegend*> legends = page->findChildren<ChartLegend*>();
    for (ChartLegend* l : legends)
        if (l->isVisible())
            problems << checkLegend(l);
    return problems;
}

} // namespace

class TstChartLayout : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void everyChartReads_data();
    void everyChartReads();
    void chartsSaveAsPngAndSvg();

private:
    void checkAtEverySize(MainWindow* window, const QString& stage);

    QTemporaryDir m_settings;
    SandboxGuard m_sbx;
    QString m_why;
};

void TstChartLayout::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-test-chartlayout"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    QSettings().clear();
    m_sbx = UiSandbox::start(1000, &m_why);
    qInfo("device pixel ratio %.1f", qApp->devicePixelRatio());
}

void TstChartLayout::cleanupTestCase()
{
    m_sbx.reset();
}

void TstChartLayout::checkAtEverySize(MainWindow* window, const QString& stage)
{
    const double dpr = qApp->devicePixelRatio();
    for (const QSize screen : { QSize(1366, 768), QSize(1920, 1080) }) {
        // The window filling a screen of that many device pixels.
        window->resize((QSizeF(screen) / dpr).toSize().expandedTo(window->minimumSizeHint()));
        settle();
        QStringList problems;
        int charts = 0;
        const QList<QWidget*> pages = UiScenes::pages(window);
        for (QWidget* page : pages) {
            UiScenes::showPage(window, page);
            settle();
            problems << checkPage(page, &charts);
        }
        qInfo("%s, %dx%d device pixels (window %dx%d): %d charts", qPrintable(stage), screen.width(), screen.height(),
            window->width(), window->height(), charts);
        QVERIFY(charts > 0);
        for (const QString& p : std::as_const(problems))
            qWarning("%s", qPrintable(p));
        QVERIFY2(
            problems.isEmpty(), qPrintable(QStringLiteral("%1: %2 problems (above)").arg(stage).arg(problems.size())));
    }
}

void TstChartLayout::everyChartReads_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

void TstChartLayout::everyChartReads()
{
    QVERIFY2(m_sbx, qPrintable(QStringLiteral("no sandbox slapd: ") + m_why));
    QFETCH(bool, dark);
    UiScenes::usePalette(dark);
    QTemporaryDir disk;
    QVERIFY(disk.isValid());
    ProbeRunner runner;
    MainWindow window(&runner);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.curvePage()->isGuideCurveShown());
    checkAtEverySize(&window, QStringLiteral("before any run"));
    if (QTest::currentTestFailed())
        return;

    const SandboxInfo s = m_sbx.info();
    QString why;
    QVERIFY2(UiScenes::ldapLoad(&window, s, 2, true, &why), qPrintable(why));
    QVERIFY2(UiScenes::ldapLoad(&window, s, 3, false, &why), qPrintable(why));
    QVERIFY2(UiScenes::diskUnderLoad(&window, s, disk.path(), &why), qPrintable(why));
    QVERIFY2(UiScenes::threadSweep(&window, s, &why), qPrintable(why));
    QVERIFY2(UiScenes::curveSweep(&window, s, &why), qPrintable(why));
    QVERIFY2(UiScenes::replication(&window, 3, 20, &why), qPrintable(why));
    UiScenes::advisorSeedCase(&window);
    QVERIFY2(UiScenes::compareLast(&window, window.ldapPage()->lastRecord().kind, &why), qPrintable(why));
    checkAtEverySize(&window, QStringLiteral("after the runs"));
}

void TstChartLayout::chartsSaveAsPngAndSvg()
{
    LiveChartView chart;
    chart.setObjectName(QStringLiteral("opsChart"));
    chart.setAxisTitles(QStringLiteral("Time (s)"), QStringLiteral("ops/s"));
    chart.appendPoints(QStringLiteral("ok/s"), { QPointF(0, 10), QPointF(1, 20), QPointF(2, 15) });
    chart.resize(640, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    settle();
    // The context menu of the plot offers both.
    auto* view = chart.findChild<QChartView*>();
    QVERIFY(view);
    QCOMPARE(view->contextMenuPolicy(), Qt::ActionsContextMenu);
    QStringList actions;
    const QList<QAction*> list = view->actions();
    for (const QAction* a : list)
        actions << a->objectName();
    QCOMPARE(actions, QStringList({ "saveChartPngAction", "saveChartSvgAction" }));

    QTemporaryDir out;
    QString why;
    const QString png = out.filePath("chart.png");
    QVERIFY2(ChartExport::savePng(&chart, png, &why), qPrintable(why));
    const QImage image(png);
    QCOMPARE(image.size(), (QSizeF(chart.size()) * chart.devicePixelRatioF()).toSize());
    QVERIFY(image.pixelColor(image.width() / 2, image.height() / 2).isValid());
    const QString svg = out.filePath("chart.svg");
    QVERIFY2(ChartExport::saveSvg(&chart, svg, &why), qPrintable(why));
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("<path") || text.contains("<polyline")); // the line, as vectors
    QVERIFY2(text.contains("Time (s)"), "the axis title, as text");
    // Where nothing can be written, it says so.
    QVERIFY(!ChartExport::savePng(&chart, out.filePath("no/such/dir/chart.png"), &why));
    QVERIFY(!why.isEmpty());
}

QTEST_MAIN(TstChartLayout)
#include "tst_chartlayout.moc"
