// dirbench-gui-load: one search load run from the GUI as a user runs it (MainWindow offscreen, the LDAP page's
// form, its live charts drawing every batch), or with --workload W.dbwl a replay from the Replay page (as fast as
// possible, its schedule and load charts drawing), driven programmatically; prints the run's ok/s as "ok_per_s N"
// and the window thread's CPU from start to record as "window_cpu_s S", writes the record with --json.
// bench/gui_overhead.sh alternates it with dirbench-cli to price the GUI. Not a test.
#include "core/common/runrecord.h"
#include "core/ldap/loadresult.h"
#include "core/run/proberunner.h"
#include "ui/mainwindow.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/ldappage.h"
#include "ui/pages/replayform.h"
#include "ui/pages/replaypage.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <cstdio>
#include <ctime>

// CPU time of the calling thread (the window's), in seconds.
static double threadCpuS()
{
    timespec ts {};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

// The run's figures on stdout, its record with --json; the exit code.
static int report(
    const QCommandLineParser& cli, MainWindow& window, ProbeRunner& runner, const RunRecord& r, double windowCpu)
{
    if (cli.isSet("json")) {
        QFile out(cli.value("json"));
        if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(r.toJson()).toJson()) < 0)
            return std::fprintf(stderr, "dirbench-gui-load: --json: cannot write\n"), 1;
    }
    const double ok = LoadSummary::fromJson(r.summary).all.okPerS;
    std::printf("status %s\nok_per_s %.1f\nwindow_cpu_s %.3f\n", qPrintable(r.status), ok, windowCpu);
    window.close();
    runner.waitForDone(20000);
    return r.status == u"ok" ? 0 : 1;
}

// --workload: the Replay page replays it as fast as possible (closed loop: what the client costs shows in ok/s).
static int runReplay(const QCommandLineParser& cli, MainWindow& window, ProbeRunner& runner, const LdapTarget& t)
{
    ReplayPage* page = window.replayPage();
    window.findChild<QTabWidget*>(QStringLiteral("pageTabs"))->setCurrentWidget(page);
    page->form()->connection()->setTarget(t);
    page->form()->setWorkloadFile(cli.value("workload"));
    page->form()->setText(QStringLiteral("key-space"), cli.value("key-space"));
    page->form()->setText(QStringLiteral("shared-password-file"), cli.value("password-file"));
    page->form()->setTiming(ReplaySpec::Timing::AsFastAsPossible);
    for (const char* n : { "threads", "interval" })
        if (cli.isSet(QLatin1String(n)))
            page->form()->setNumber(QLatin1String(n), cli.value(QLatin1String(n)).toDouble());
    QSignalSpy done(page, &ReplayPage::runFinished);
    const double windowCpuBefore = threadCpuS();
    page->start();
    QElapsedTimer waited;
    waited.start();
    while (done.isEmpty() && page->isRunning() && waited.elapsed() < 600000)
        done.wait(200); // the event loop, until the run ends or the check refused it
    if (done.isEmpty())
        return std::fprintf(
                   stderr, "dirbench-gui-load: the replay did not run: %s\n", qPrintable(page->form()->errorText())),
               1;
    return report(cli, window, runner, done.first().at(0).value<RunRecord>(), threadCpuS() - windowCpuBefore);
}

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-gui-load"));
    QCommandLineParser cli;
    cli.addHelpOption();
    const QStringList valued = { "uri", "bind-dn", "password-file", "base", "filter", "attrs", "threads", "connections",
        "duration", "interval", "json", "workload", "key-space" };
    for (const QString& name : valued)
        cli.addOption({ name, name, name });
    cli.process(app);
    const bool replay = cli.isSet("workload");
    const QList<const char*> required = replay ? QList<const char*> { "uri", "key-space", "password-file" }
                                               : QList<const char*> { "uri", "base", "filter", "duration" };
    for (const char* name : required)
        if (cli.value(QLatin1String(name)).isEmpty())
            return std::fprintf(stderr, "dirbench-gui-load: --%s is needed\n", name), 2;
    QByteArray password;
    if (cli.isSet("password-file")) {
        QFile f(cli.value("password-file"));
        if (!f.open(QIODevice::ReadOnly))
            return std::fprintf(stderr, "dirbench-gui-load: --password-file: %s\n", qPrintable(f.errorString())), 2;
        password = f.readAll().trimmed();
    }
    QTemporaryDir scratch;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, scratch.path());
    if (qEnvironmentVariableIsEmpty("DIRBENCH_HISTORY"))
        qputenv("DIRBENCH_HISTORY", scratch.filePath(QStringLiteral("history.sqlite")).toLocal8Bit());

    ProbeRunner runner;
    MainWindow window(&runner);
    window.resize(1366, 768);
    window.show();
    LdapTarget t;
    t.uri = cli.value("uri");
    t.bindDn = cli.value("bind-dn");
    t.password = password;
    t.auth = LdapTarget::Auth::Simple; // as dirbench-cli binds with --bind-dn (an anonymous load is another load)
    if (replay)
        return runReplay(cli, window, runner, t);
    LdapPage* page = window.ldapPage();
    window.findChild<QTabWidget*>(QStringLiteral("pageTabs"))->setCurrentWidget(page); // live charts on screen
    page->connectionForm()->setTarget(t);
    LdapLoadForm* f = page->loadForm();
    f->setOperation(QStringLiteral("search"));
    f->setText(QStringLiteral("base"), cli.value("base"));
    f->setText(QStringLiteral("filter"), cli.value("filter"));
    if (cli.isSet("attrs"))
        f->setText(QStringLiteral("attrs"), cli.value("attrs"));
    for (const char* n : { "threads", "connections", "duration", "interval" })
        if (cli.isSet(QLatin1String(n)))
            f->setNumber(QLatin1String(n), cli.value(QLatin1String(n)).toDouble());
    QSignalSpy done(page, &LdapPage::runFinished);
    const double windowCpuBefore = threadCpuS();
    page->start();
    if (!page->isRunning())
        return std::fprintf(stderr, "dirbench-gui-load: refused: %s\n", qPrintable(page->errorText())), 2;
    if (!done.wait(int(cli.value("duration").toDouble() * 1000) + 120000))
        return std::fprintf(stderr, "dirbench-gui-load: the load did not finish\n"), 1;
    return report(cli, window, runner, done.first().at(0).value<RunRecord>(), threadCpuS() - windowCpuBefore);
}
