#include "core/run/proberunner.h"
#include "ui/demodirectory.h"
#include "ui/firststart.h"
#include "ui/mainwindow.h"
#include "ui/pages/ldappage.h"
#include "ui/textsize.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace {

bool displayAvailable()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

// At exit: how long the runner may take to finish what was cancelled (a sandbox start stops within 100 ms, a
// sandbox stop takes up to 15 s).
constexpr int kExitWaitMs = 20000;

// SIGINT/SIGTERM close the window the normal way (cancel what runs, then stop the demo directory below) instead of
// killing the process and leaving a sandbox slapd behind. The handler only writes a byte to a pipe.
int g_signalPipe[2] = { -1, -1 };

void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = ::write(g_signalPipe[1], &byte, 1);
}

void closeOnSignals(QWidget* window)
{
    if (::pipe(g_signalPipe) != 0)
        return;
    auto* notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, window);
    QObject::connect(notifier, &QSocketNotifier::activated, window, [window] {
        char byte = 0;
        [[maybe_unused]] const ssize_t n = ::read(g_signalPipe[0], &byte, 1);
        window->close();
    });
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
}

// The files named on the command line, in order; one that cannot be shown is said in one sentence, on stderr and in
// a message box (the status bar alone is missed by whoever double-clicked the file).
void openFiles(MainWindow* window, const QStringList& files)
{
    if (files.isEmpty())
        return;
    QObject::connect(window, &MainWindow::recordOpened, window, [window](bool ok, const QString& message) {
        if (ok)
            return;
        std::fprintf(stderr, "dirbench: %s\n", qPrintable(message));
        auto* box = new QMessageBox(QMessageBox::Warning, QStringLiteral("DirBench"), message, QMessageBox::Ok, window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->show();
    });
    for (const QString& f : files)
        window->openFile(f);
}

} // namespace

int main(int argc, char* argv[])
{
    // --help and --version need no display: print them wherever we are.
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version")
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }
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

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("DirBench: directory-service performance workbench"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption uriOption(QStringLiteral("uri"),
        QStringLiteral("Preset the LDAP page's server (ldap://host:port, ldaps://…, ldapi://…); no demo directory."),
        QStringLiteral("URI"));
    const QCommandLineOption demoOption(QStringLiteral("demo"),
        QStringLiteral("Start the demo directory (a private OpenLDAP server) now and fill the LDAP page in for it; "
                       "no load starts. The window's very first start does this too."));
    const QCommandLineOption noDemoOption(QStringLiteral("no-demo"),
        QStringLiteral("Do not start the demo directory, not even on the window's first start."));
    parser.addOption(uriOption);
    parser.addOption(demoOption);
    parser.addOption(noDemoOption);
    parser.addPositionalArgument(QStringLiteral("FILE"),
        QStringLiteral("Records (dirbench.run/1 JSON) to show read-only in their pages, or a saved workload (.dbwl) "
                       "for the Replay page; no demo directory unless --demo."),
        QStringLiteral("[FILE...]"));
    parser.process(app); // exits with a message on a bad option, as --help does
    const QStringList files = parser.positionalArguments();
    const StartOptions start { parser.isSet(uriOption), parser.isSet(demoOption),
        parser.isSet(noDemoOption) || (!files.isEmpty() && !parser.isSet(demoOption)) };
    if (start.demo && (start.uri || start.noDemo)) {
        std::fprintf(stderr, "dirbench: --demo cannot go with %s\n", start.uri ? "--uri" : "--no-demo");
        return 2;
    }

    TextSize::applySaved(); // the projector's text size, before the first widget
    ProbeRunner runner; // outlives the window: its destructor cancels and waits for any run left
    MainWindow window(&runner);
    if (parser.isSet(uriOption))
        window.ldapPage()->setUri(parser.value(uriOption));
    closeOnSignals(&window);
    window.show();
    window.startUp(start); // the demo directory starts as a job: the window is up at once
    openFiles(&window, files);
    const int rc = app.exec();

    // The window is closed. Stop the demo directory we started (blocking is fine now): first let the runner finish
    // whatever is left (a start that completed unseen is then known to the demo object), then stop it.
    runner.cancelAll();
    runner.waitForDone(kExitWaitMs);
    QString error;
    if (!window.demoDirectory()->stopNow(&error))
        std::fprintf(stderr, "dirbench: could not stop the demo directory: %s\n", qPrintable(error));
    return rc;
}
