#include "core/run/proberunner.h"
#include "ui/mainwindow.h"

#include <QApplication>

#include <cstdio>

namespace {

bool displayAvailable()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

} // namespace

int main(int argc, char* argv[])
{
    // Without a display QApplication aborts with a message about platform plugins; say what to do instead.
    if (!displayAvailable()) {
        std::fputs("dirbench: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
                   "Run the headless tool instead (dirbench-cli disk --help), or set QT_QPA_PLATFORM "
                   "(e.g. offscreen) to start the GUI anyway.\n",
            stderr);
        return 1;
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("DirBench"));
    QApplication::setApplicationName(QStringLiteral("dirbench"));
    QApplication::setApplicationVersion(QStringLiteral(DIRBENCH_VERSION));

    ProbeRunner runner; // outlives the window: its destructor cancels and waits for any run left
    MainWindow window(&runner);
    window.show();
    return app.exec();
}
