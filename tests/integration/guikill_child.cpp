// The window tst_guikill kills: MainWindow as app/gui/main.cpp builds it, started with --demo; once the demo
// directory runs, the LDAP page starts a 60-second search load (the window never starts one by itself), which the
// history receives interval by interval. It prints "load started" on stdout when the load is under way.
#include "core/run/proberunner.h"
#include "ui/demodirectory.h"
#include "ui/firststart.h"
#include "ui/mainwindow.h"
#include "ui/pages/ldappage.h"

#include <QApplication>
#include <QDoubleSpinBox>

#include <cstdio>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("DirBench"));
    QApplication::setApplicationName(QStringLiteral("dirbench"));
    ProbeRunner runner;
    MainWindow window(&runner);
    LdapPage* page = window.ldapPage();
    // Queued: after the page filled its forms in for the demo directory (its own handler of the same signal).
    QObject::connect(
        window.demoDirectory(), &DemoDirectory::started, page,
        [page] {
            auto* duration = page->findChild<QDoubleSpinBox*>(QStringLiteral("durationSpin"));
            if (!duration) {
                std::fputs("guikill_child: no durationSpin on the LDAP page\n", stderr);
                QCoreApplication::exit(3);
                return;
            }
            duration->setValue(60);
            page->start();
            std::printf("load started: %s\n", page->isRunning() ? "running" : "not running");
            std::fflush(stdout);
        },
        Qt::QueuedConnection);
    QObject::connect(window.demoDirectory(), &DemoDirectory::failed, &app, [](const QString& message) {
        std::fprintf(stderr, "guikill_child: the demo directory failed: %s\n", qPrintable(message));
        QCoreApplication::exit(4);
    });
    window.show();
    window.startUp(StartOptions { false, true, false });
    return QApplication::exec();
}
