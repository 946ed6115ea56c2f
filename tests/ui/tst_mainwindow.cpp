// The main window fits a 1366 x 768 laptop screen: no page may force it wider or taller (each page's minimum size
// is printed, so a page that grows too wide is named).
#include "core/run/proberunner.h"
#include "ui/mainwindow.h"

#include <QTabWidget>
#include <QTest>

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void fitsALaptopScreen();
};

void TestMainWindow::fitsALaptopScreen()
{
    ProbeRunner runner;
    MainWindow window(&runner);
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("pageTabs"));
    QVERIFY(tabs);
    QVERIFY(tabs->count() >= 7);
    QStringList tooBig;
    for (int i = 0; i < tabs->count(); ++i) {
        const QSize min = tabs->widget(i)->minimumSizeHint().expandedTo(tabs->widget(i)->minimumSize());
        qInfo("%-14s minimum %d x %d", qPrintable(tabs->tabText(i)), min.width(), min.height());
        if (min.width() > 1300 || min.height() > 640)
            tooBig << tabs->tabText(i);
    }
    QVERIFY2(tooBig.isEmpty(), qPrintable(tooBig.join(u", ")));
    const QSize min = window.minimumSizeHint();
    qInfo("window minimum %d x %d", min.width(), min.height());
    QVERIFY(min.width() <= 1340 && min.height() <= 740);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
