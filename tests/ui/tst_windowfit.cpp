// The main window fits a 1366 x 768 screen on every page: its minimumSizeHint() leaves room for a title bar at the
// default text size, and stays within the screen at View → Text size → Large (the forms scroll instead). Measured
// in the fullest state a page can be in: every hidden part shown (results, live charts, notes) and every warnings
// box holding three warnings. Shown at 1366 x 768 (and at 1280 x 720 with Larger text), every page made current
// in turn keeps the window's minimum within the screen and its Start and Cancel buttons on screen, unclipped. The
// window opens within the screen's available area and does not restore a saved geometry larger than it. Charts
// follow the text size (an axis's labels grow with Larger text). The warnings box reads in the light and the dark
// palette (contrast ≥ 4.5:1), and so do the saved-run banner, the insecure-connection warning and every form's error
// text, measured on their pixels.
#include "core/common/runrecord.h"
#include "core/run/proberunner.h"
#include "ui/charts/livechartview.h"
#include "ui/mainwindow.h"
#include "ui/models/resultcodemodel.h"
#include "ui/pages/advisorpage.h"
#include "ui/pages/page.h"
#include "ui/textsize.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/savedrunbanner.h"
#include "ui/widgets/warningslabel.h"
#include "ui/windowsettings.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QHash>
#include <QImage>
#include <QLabel>
#include <QScreen>
#include <QSettings>
#include <QStyle>
#include <QTabWidget>
#include <QTest>

class TestWindowFit : public QObject
{
    Q_OBJECT
private slots:
    void everyPageFitsAtTheDefaultTextSize();
    void everyPageFitsAtLargeText();
    void shownAt1366x768EveryPageKeepsItsButtonsOnScreen();
    void shownAt1280x720WithLargerTextEveryPageKeepsItsButtonsOnScreen();
    void opensWithinTheScreen();
    void aSavedGeometryLargerThanTheScreenIsNotRestored();
    void chartAxesFollowTheTextSize();
    void warningsReadInBothPalettes();
    void messagesReadInBothPalettes();
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

// A label as it paints: its most frequent colour is its background, the pixel farthest from that its text. The
// contrast of the two (a glyph's stem is fully covered, so that pixel is the text's own colour).
double paintedContrast(QLabel* label, const QString& text)
{
    label->setText(text);
    label->show();
    label->ensurePolished();
    label->setFixedSize(label->sizeHint().expandedTo(QSize(200, 20))); // whatever size its hidden page has now
    const QImage image = label->grab().toImage();
    QHash<QRgb, int> count;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            ++count[image.pixel(x, y)];
    QRgb background = 0;
    for (auto it = count.cbegin(); it != count.cend(); ++it)
        if (it.value() > count.value(background))
            background = it.key();
    double best = 1;
    for (auto it = count.cbegin(); it != count.cend(); ++it)
        best = std::max(best, WarningsLabel::contrastRatio(QColor(it.key()), QColor(background)));
    return best;
}

// The messages of every page, made under `palette`, each with its painted contrast.
QList<QPair<QString, double>> messageContrasts()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    QList<QPair<QString, double>> out;
    RunRecord rec;
    rec.kind = "disk";
    rec.started = QDateTime::currentDateTime();
    auto* banner = window.savedRunBanner();
    out << qMakePair(QStringLiteral("savedRunBanner"), paintedContrast(banner, SavedRunBanner::textFor(rec, "a file")));
    auto* insecure = window.findChild<QLabel*>("insecureWarning");
    if (insecure)
        out << qMakePair(insecure->objectName(), paintedContrast(insecure, insecure->text()));
    for (QLabel* l : window.findChildren<QLabel*>()) {
        if (l->objectName().endsWith("rrorLabel") || l->objectName() == "invalidLabel"
            || l->objectName() == "probeFailureLabel")
            out << qMakePair(l->objectName(), paintedContrast(l, "--threads: not a number (\"eight\")"));
    }
    return out;
}

// The window shown at `screen` (less a title bar and borders), each page current in turn: what does not fit (the
// window's minimum beyond it, a Start or Cancel button off screen or clipped by a scroll area), by page.
QStringList shownProblems(QSize screen)
{
    ProbeRunner runner;
    MainWindow window(&runner);
    auto* tabs = window.findChild<QTabWidget*>("pageTabs");
    const QSize room = screen - WindowSettings::kFrame;
    window.resize(room);
    window.show();
    // The Cloud advisor at its fullest: the requirement's charts and a seed case compared.
    window.advisorPage()->recomputeNeed();
    window.advisorPage()->showSeedCase(QStringLiteral("azure-p30"));
    // Every other page at its fullest too (the advisor is in its fullest real state above: its hidden parts are
    // alternatives that never show together).
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i) != window.advisorPage())
            fill(tabs->widget(i));
    QStringList problems;
    int buttons = 0;
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        for (int round = 0; round < 3; ++round) { // a resize that re-wraps labels asks for another layout
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            QCoreApplication::processEvents();
        }
        const QString name = tabs->tabText(i);
        const QSize min = window.minimumSizeHint().expandedTo(window.minimumSize());
        qInfo("%-14s window minimum %4d x %4d, window %4d x %4d", qPrintable(name), min.width(), min.height(),
            window.width(), window.height());
        if (min.width() > room.width() || min.height() > room.height())
            problems << QStringLiteral("%1: minimum %2 x %3").arg(name).arg(min.width()).arg(min.height());
        if (window.width() > room.width() || window.height() > room.height())
            problems << QStringLiteral("%1: window grew to %2 x %3").arg(name).arg(window.width()).arg(window.height());
        auto* page = qobject_cast<Page*>(tabs->widget(i));
        // Squeezed below its minimum, a part overlaps its neighbour or loses its bottom (a chart's legend).
        for (QWidget* w : page->findChildren<QWidget*>())
            if (w->isVisible() && w->minimumHeight() > 0 && w->height() < w->minimumHeight())
                problems << QStringLiteral("%1: %2 \"%3\" squeezed to %4 px of its %5 px minimum")
                                .arg(name, QString::fromLatin1(w->metaObject()->className()), w->objectName())
                                .arg(w->height())
                                .arg(w->minimumHeight());
        for (QAbstractButton* b : page->runButtons()) {
            ++buttons;
            const QRect onWindow(b->mapTo(&window, QPoint(0, 0)), b->size());
            const QSize unclipped = b->visibleRegion().boundingRect().size();
            if (!b->isVisible() || !QRect(QPoint(0, 0), room).contains(onWindow) || unclipped != b->size())
                problems << QStringLiteral("%1: \"%2\" at %3,%4 %5 x %6, %7 x %8 of it visible")
                                .arg(name, b->text())
                                .arg(onWindow.x())
                                .arg(onWindow.y())
                                .arg(b->width())
                                .arg(b->height())
                                .arg(unclipped.width())
                                .arg(unclipped.height());
        }
    }
    if (buttons < 12) // Disk, LDAP (Probe, Start, Cancel), Curve, Experiments (3 + Cancel), Replication, Workload
        problems << QStringLiteral("only %1 run buttons found").arg(buttons);
    return problems;
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

void TestWindowFit::shownAt1366x768EveryPageKeepsItsButtonsOnScreen()
{
    const QStringList problems = shownProblems(QSize(1366, 768));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

void TestWindowFit::shownAt1280x720WithLargerTextEveryPageKeepsItsButtonsOnScreen()
{
    TextSize::apply(TextSize::Level::Larger);
    const QStringList problems = shownProblems(QSize(1280, 720));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

void TestWindowFit::opensWithinTheScreen()
{
    for (const QRect available : { QRect(0, 0, 1366, 768 - 32), QRect(0, 0, 1280, 720), QRect(0, 27, 1920, 1053) }) {
        const QSize first = WindowSettings::initialSize(available);
        QVERIFY(WindowSettings::fits(first, available));
        const QRect placed = WindowSettings::centred(first, available);
        QVERIFY2(
            available.contains(placed), qPrintable(QStringLiteral("%1 x %2").arg(first.width()).arg(first.height())));
    }
    QCOMPARE(WindowSettings::initialSize(QRect(0, 0, 1920, 1080)), QSize(1200, 800)); // room for it
    QVERIFY(!WindowSettings::fits(QSize(1277, 1144), QRect(0, 0, 1366, 768)));
    ProbeRunner runner;
    MainWindow window(&runner);
    const QRect available = window.screen()->availableGeometry();
    QVERIFY2(WindowSettings::fits(window.size(), available),
        qPrintable(QStringLiteral("%1 x %2").arg(window.width()).arg(window.height())));
    QVERIFY(available.contains(window.geometry()));
}

void TestWindowFit::aSavedGeometryLargerThanTheScreenIsNotRestored()
{
    QByteArray tooBig;
    QByteArray fitting;
    {
        ProbeRunner runner;
        MainWindow window(&runner);
        const QRect available = window.screen()->availableGeometry();
        window.setGeometry(QRect(available.topLeft(), QSize(1277, 1144).expandedTo(available.size() + QSize(1, 1))));
        tooBig = window.saveGeometry();
        window.setGeometry(QRect(available.topLeft() + QPoint(10, 40), QSize(500, 400)));
        fitting = window.saveGeometry();
    }
    QSettings().setValue("window/geometry", tooBig);
    {
        ProbeRunner runner;
        MainWindow window(&runner);
        const QRect available = window.screen()->availableGeometry();
        QVERIFY2(WindowSettings::fits(window.size(), available),
            qPrintable(QStringLiteral("%1 x %2").arg(window.width()).arg(window.height())));
    }
    QSettings().setValue("window/geometry", fitting); // one that fits is restored as it was
    {
        ProbeRunner runner;
        MainWindow window(&runner);
        QCOMPARE(window.size(), QSize(500, 400));
    }
    QSettings().remove("window/geometry");
}

void TestWindowFit::chartAxesFollowTheTextSize()
{
    LiveChartView chart;
    const double normal = chart.axisLabelsFont().pointSizeF();
    QVERIFY(normal > 0);
    QCOMPARE(normal, QApplication::font().pointSizeF()); // the application's font, not the chart theme's own
    TextSize::apply(TextSize::Level::Larger);
    // What a running application sends every widget when the font changes (QTest runs no event loop).
    QEvent changed(QEvent::ApplicationFontChange);
    for (QWidget* w : QApplication::allWidgets())
        QApplication::sendEvent(w, &changed);
    const double larger = chart.axisLabelsFont().pointSizeF();
    qInfo("axis labels: %.1f pt at Normal, %.1f pt at Larger", normal, larger);
    QVERIFY(larger >= normal * 1.4);
    TextSize::apply(TextSize::Level::Normal);
    for (QWidget* w : QApplication::allWidgets())
        QApplication::sendEvent(w, &changed);
    QCOMPARE(chart.axisLabelsFont().pointSizeF(), normal);
}

void TestWindowFit::warningsReadInBothPalettes()
{
    // the ratio itself: black on white is 21:1, a colour on itself 1:1
    QCOMPARE(qRound(WarningsLabel::contrastRatio(Qt::black, Qt::white)), 21);
    QCOMPARE(WarningsLabel::contrastRatio(QColor(0x3b, 0x2f, 0x08), QColor(0x3b, 0x2f, 0x08)), 1.0);
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

void TestWindowFit::messagesReadInBothPalettes()
{
    const QPalette light = QApplication::style()->standardPalette();
    const QPalette dark(QColor(0x35, 0x35, 0x35), QColor(0x2a, 0x2a, 0x2a));
    for (const QPalette& p : { light, dark }) {
        // the colours themselves, on the background they are meant for
        for (const auto& box : { NoteStyle::savedRunBox(p), NoteStyle::dangerBox(p) })
            QVERIFY(WarningsLabel::contrastRatio(box.text, box.background) >= 4.5);
        for (const QColor& c :
            { NoteStyle::errorColour(p), NoteStyle::passColour(p), NoteStyle::warnColour(p), NoteStyle::busyColour(p) })
            for (const auto role : { QPalette::Window, QPalette::Base })
                QVERIFY2(WarningsLabel::contrastRatio(c, p.color(role)) >= 4.5,
                    qPrintable(c.name() + u" on " + p.color(role).name()));
        // a table's red follows the palette: an error code in the result-code table
        QApplication::setPalette(p);
        ResultCodeModel codes;
        codes.setCounts({ { 0, 10.0 }, { 32, 2.0 } });
        bool sawError = false;
        for (int r = 0; r < codes.rowCount(); ++r) {
            const QVariant fg = codes.data(codes.index(r, 0), Qt::ForegroundRole);
            if (fg.isValid()) {
                QCOMPARE(fg.value<QBrush>().color(), NoteStyle::errorColour(p));
                sawError = true;
            }
        }
        QVERIFY(sawError);
        QApplication::setPalette(light);
        // and as they paint, on every page of a window made under this palette
        QApplication::setPalette(p);
        const auto measured = messageContrasts();
        QApplication::setPalette(light);
        QVERIFY2(
            measured.size() >= 13, qPrintable(QString::number(measured.size()))); // 9 forms, sizing, probe, 2 boxes
        QStringList names, poor;
        for (const auto& [name, ratio] : measured) {
            qInfo("window %s: %-22s %.2f:1", qPrintable(p.color(QPalette::Window).name()), qPrintable(name), ratio);
            names << name;
            if (ratio < 4.5)
                poor << QStringLiteral("%1 %2:1").arg(name).arg(ratio, 0, 'f', 2);
        }
        QVERIFY(names.contains("insecureWarning"));
        QVERIFY(names.contains("loadErrorLabel"));
        QVERIFY(names.contains("probeFailureLabel"));
        QVERIFY2(poor.isEmpty(), qPrintable(poor.join(", ")));
    }
    // the banner follows a palette change (a dark box on a dark window, not a bright yellow patch)
    SavedRunBanner banner;
    QVERIFY(banner.styleSheet().contains(NoteStyle::savedRunBox(light).background.name()));
    QApplication::setPalette(dark);
    QEvent changed(QEvent::ApplicationPaletteChange);
    QApplication::sendEvent(&banner, &changed);
    QVERIFY(banner.styleSheet().contains(NoteStyle::savedRunBox(dark).background.name()));
    QVERIFY(NoteStyle::savedRunBox(dark).background.lightnessF() < 0.5);
    QApplication::setPalette(light);
}

QTEST_MAIN(TestWindowFit)
#include "tst_windowfit.moc"
