// The main window fits a 1366 x 768 screen on every page: its minimumSizeHint() leaves room for a title bar at the
// default text size, and stays within the screen at View → Text size → Large (the forms scroll instead). Measured
// in the fullest state a page can be in: every hidden part shown (results, live charts, notes) and every warnings
// box holding three warnings. The warnings box reads in the light and the dark palette (contrast ≥ 4.5:1).
#include "core/common/runrecord.h"
#include "core/run/proberunner.h"
#include "ui/mainwindow.h"
#include "ui/textsize.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/warningslabel.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QStyle>
#include <QTabWidget>
#include <QTest>

class TestWindowFit : public QObject
{
    Q_OBJECT
private slots:
    void everyPageFitsAtTheDefaultTextSize();
    void everyPageFitsAtLargeText();
    void warningsReadInBothPalettes();
    void cleanup();
};

namespace {

bool insideScrollArea(const QWidget* w, const QWidget* page)
{
    for (const QWidget* p = w->parentWidget(); p && p != page; p = p->parentWidget())
        if (qobject_cast<const QAbstractScrollArea*>(p))
            return true;
    return false;
}

// The fullest state: what a run, a record or an error shows, all at once (more than any one state shows).
void fill(QWidget* page)
{
    const QList<RunWarning> three = { { "tmpfs",
                                          "The directory is on tmpfs: the figures are the RAM's, not a disk's." },
        { "size-below-ram", "The test file is smaller than the RAM, so the page cache serves part of the reads." },
        { "buffered", "Buffered I/O: the kernel's cache sits between the test and the device." } };
    for (auto* w : page->findChildren<WarningsLabel*>())
        w->setWarnings(three);
    for (auto* w : page->findChildren<QWidget*>()) {
        if (w->isHidden() && !w->isWindow() && !insideScrollArea(w, page)
            && w->objectName() != "qt_scrollarea_hcontainer" && w->objectName() != "qt_scrollarea_vcontainer")
            w->show();
    }
}

// Each page's own minimum and the window's with that page current; the pages over `limit` are named.
QStringList tooBig(MainWindow& window, QSize limit)
{
    auto* tabs = window.findChild<QTabWidget*>("pageTabs");
    QStringList big;
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        const QSize page = tabs->widget(i)->minimumSizeHint();
        const QSize min = window.minimumSizeHint().expandedTo(window.minimumSize());
        qInfo("%-14s page minimum %4d x %4d, window minimum %4d x %4d", qPrintable(tabs->tabText(i)), page.width(),
            page.height(), min.width(), min.height());
        if (min.width() > limit.width() || min.height() > limit.height())
            big << QStringLiteral("%1 (%2 x %3)").arg(tabs->tabText(i)).arg(min.width()).arg(min.height());
    }
    return big;
}

QStringList measureFilled(QSize limit)
{
    ProbeRunner runner;
    MainWindow window(&runner);
    auto* tabs = window.findChild<QTabWidget*>("pageTabs");
    if (!tabs || tabs->count() < 7)
        return { "no page tabs" };
    for (int i = 0; i < tabs->count(); ++i)
        fill(tabs->widget(i));
    return tooBig(window, limit);
}

} // namespace

void TestWindowFit::cleanup()
{
    TextSize::apply(TextSize::Level::Normal);
}

void TestWindowFit::everyPageFitsAtTheDefaultTextSize()
{
    const QStringList big = measureFilled(QSize(1366, 720)); // 768 less a title bar
    QVERIFY2(big.isEmpty(), qPrintable(big.join(", ")));
}

void TestWindowFit::everyPageFitsAtLargeText()
{
    const double before = QApplication::font().pointSizeF();
    TextSize::apply(TextSize::Level::Large);
    QVERIFY(QApplication::font().pointSizeF() > before * 1.2); // the text did grow
    const QStringList big = measureFilled(QSize(1366, 768));
    QVERIFY2(big.isEmpty(), qPrintable(big.join(", ")));
}

void TestWindowFit::warningsReadInBothPalettes()
{
    // the ratio itself: black on white is 21:1, a colour on itself 1:1
    QCOMPARE(qRound(WarningsLabel::contrastRatio(Qt::black, Qt::white)), 21);
    QCOMPARE(WarningsLabel::contrastRatio(QColor("#3b2f08"), QColor("#3b2f08")), 1.0);
    const QPalette light = QApplication::style()->standardPalette();
    const QPalette dark(QColor(0x35, 0x35, 0x35), QColor(0x2a, 0x2a, 0x2a));
    QVERIFY(dark.color(QPalette::Window).lightnessF() < 0.5);
    for (const QPalette& p : { light, dark }) {
        const auto c = WarningsLabel::colours(p);
        const double text = WarningsLabel::contrastRatio(c.text, c.background);
        const double code = WarningsLabel::contrastRatio(c.code, c.background);
        qInfo("window %s: text %.2f:1, code %.2f:1", qPrintable(p.color(QPalette::Window).name()), text, code);
        QVERIFY2(text >= 4.5, qPrintable(QString::number(text)));
        QVERIFY2(code >= 4.5, qPrintable(QString::number(code)));
        // the grey of side notes (hints, sources) on the window
        const double note = WarningsLabel::contrastRatio(NoteStyle::colour(p), p.color(QPalette::Window));
        QVERIFY2(note >= 4.5, qPrintable(QString::number(note)));
    }
    // dark: the box is dark too (not a bright yellow patch on a dark window), and it follows a palette change
    QVERIFY(WarningsLabel::colours(dark).background.lightnessF() < 0.5);
    QWidget page;
    auto& label = *new WarningsLabel(&page);
    QVERIFY(label.styleSheet().contains(WarningsLabel::colours(light).background.name()));
    QApplication::setPalette(dark);
    // What a running application sends every widget when the palette changes (QTest runs no event loop, which
    // Qt takes as not running, so it is sent here by hand).
    QEvent changed(QEvent::ApplicationPaletteChange);
    QApplication::sendEvent(&label, &changed);
    QVERIFY2(
        label.styleSheet().contains(WarningsLabel::colours(dark).background.name()), qPrintable(label.styleSheet()));
    label.setWarnings({ { "tmpfs", "on tmpfs" } });
    QVERIFY(label.text().contains(WarningsLabel::colours(dark).code.name()));
    const WarningsLabel made(&page); // made under the dark palette
    QVERIFY(made.styleSheet().contains(WarningsLabel::colours(dark).background.name()));
    QApplication::setPalette(light);
    QApplication::sendEvent(&label, &changed);
    QVERIFY(label.styleSheet().contains(WarningsLabel::colours(light).background.name()));
    QVERIFY(label.text().contains(WarningsLabel::colours(light).code.name()));
}

QTEST_MAIN(TestWindowFit)
#include "tst_windowfit.moc"
