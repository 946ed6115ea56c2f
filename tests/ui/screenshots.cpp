// dirbench-screenshots: the README's screenshots, made from the real window after real runs (a sandbox slapd on
// 127.0.0.1, disk tests in a temporary directory). Not a test: scripts/screenshots.sh runs it, once per palette,
// under QT_QPA_PLATFORM=offscreen. Each shot is saved at every --size as OUT/<palette>-<W>x<H>/<shot>.png.
#include "core/run/proberunner.h"
#include "core/sizing/referencecurve.h"
#include "ui/charts/livechartview.h"
#include "ui/pages/ldapagentsform.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/sizingform.h"
#include "ui/pages/sizingpage.h"
#include "ui/widgets/curvepredictor.h"
#include "ui/widgets/ldaploadview.h"
#include "uiscenes.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QPixmap>
#include <QScreen>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <functional>

namespace {

struct Shooter
{
    MainWindow* window = nullptr;
    QString out;
    QString palette;
    QList<QSize> sizes;
    QStringList only;
    QString curveRecord;
    bool fromScreen = false; // what the display shows (xcb under Xvfb), not a fresh paint of the widgets
    int saved = 0;

    QPixmap picture() const
    {
        if (!fromScreen)
            return window->grab();
        QTest::qWait(300); // the X server has the window's last frame
        return window->screen()->grabWindow(window->winId());
    }

    bool wanted(const QString& shot) const { return only.isEmpty() || only.contains(shot); }

    bool shoot(const QString& shot, QWidget* page, const std::function<void()>& before = {})
    {
        for (const QSize& size : sizes) {
            window->resize(size);
            UiScenes::showPage(window, page);
            if (before)
                before();
            for (int i = 0; i < 8; ++i) {
                QCoreApplication::sendPostedEvents();
                QCoreApplication::processEvents();
            }
            const QString dir = QStringLiteral("%1/%2-%3x%4").arg(out, palette).arg(size.width()).arg(size.height());
            const QString path = dir + u'/' + shot + QStringLiteral(".png");
            if (!QDir().mkpath(dir) || !picture().save(path)) {
                std::fprintf(stderr, "screenshots: cannot write %s\n", qPrintable(path));
                return false;
            }
            std::printf("%s\n", qPrintable(path));
            ++saved;
        }
        return true;
    }
};

bool fail(const QString& what, const QString& why)
{
    std::fprintf(stderr, "screenshots: %s: %s\n", qPrintable(what), qPrintable(why));
    return false;
}

bool diskShots(Shooter& s, const SandboxInfo& sbx, const QString& dir)
{
    DiskPage* page = s.window->diskPage();
    QString why;
    if (s.wanted(QStringLiteral("disk-page"))) {
        page->setUnderLdapLoad(false);
        page->setDirectory(dir);
        page->setProfile(DiskProfile::SeqWrite);
        page->setSizeText(QStringLiteral("256M"));
        page->setBlockText(QStringLiteral("1M"));
        page->setDurationText(QStringLiteral("4"));
        page->form()->setRepeat(3);
        QSignalSpy done(page, &DiskPage::runFinished);
        page->start();
        if (!UiScenes::ended(done, 180000, &why) || !s.shoot(QStringLiteral("disk-page"), page))
            return fail(QStringLiteral("disk-page"), why);
        page->form()->setRepeat(1);
    }
    if (s.wanted(QStringLiteral("disk-suite"))) {
        page->setUnderLdapLoad(false);
        page->setDirectory(dir);
        page->setProfile(DiskProfile::Directory);
        page->setSizeText(QStringLiteral("256M"));
        QSignalSpy done(page, &DiskPage::runFinished);
        page->start();
        if (!UiScenes::ended(done, 600000, &why) || !s.shoot(QStringLiteral("disk-suite"), page))
            return fail(QStringLiteral("disk-suite"), why);
    }
    if (s.wanted(QStringLiteral("disk-under-load"))) {
        if (!UiScenes::diskUnderLoad(s.window, sbx, dir, &why) || !s.shoot(QStringLiteral("disk-under-load"), page))
            return fail(QStringLiteral("disk-under-load"), why);
        page->setUnderLdapLoad(false);
    }
    return true;
}

bool ldapShots(Shooter& s, const SandboxInfo& sbx)
{
    LdapPage* page = s.window->ldapPage();
    QString why;
    // Two loads (1 and 4 threads): the LDAP page shows the second, the History page compares them.
    UiSandbox::fillSearch(page, sbx, 8);
    page->loadForm()->setNumber(QStringLiteral("threads"), 1);
    QSignalSpy done(page, &LdapPage::runFinished);
    page->start();
    if (!UiScenes::ended(done, 60000, &why))
        return fail(QStringLiteral("ldap load"), why);
    // The LDAP page while the second one runs (its last seconds), as a user watches it.
    page->loadForm()->setNumber(QStringLiteral("threads"), 4);
    page->start();
    // Not a test: the picture shows the run 6 s in (the page's own point counts still hold the first load's
    // points until the second one draws, so they cannot say when), or at its end.
    const qsizetype endedBefore = done.count();
    QElapsedTimer shown;
    shown.start();
    while (done.count() == endedBefore && shown.elapsed() < 6000)
        QTest::qWait(50);
    if (s.wanted(QStringLiteral("ldap-page")) && !s.shoot(QStringLiteral("ldap-page"), page))
        return false;
    if (!UiScenes::ended(done, 60000, &why))
        return fail(QStringLiteral("ldap load"), why);
    if (s.wanted(QStringLiteral("ldap-probe"))) {
        QSignalSpy probed(page, &LdapPage::probeFinished);
        page->probe();
        if (!UiScenes::ended(probed, 30000, &why))
            return fail(QStringLiteral("ldap-probe"), why);
        auto* tabs = page->findChild<QTabWidget*>(QStringLiteral("ldapFormTabs"));
        if (!s.shoot(QStringLiteral("ldap-probe"), page, [tabs] { tabs->setCurrentIndex(1); }))
            return false;
        tabs->setCurrentIndex(0);
    }
    return true;
}

// A load from two local agents (the build's dirbench-cli, first in PATH) after "Check agents": the Hosts tab, the
// check's rows and the live strip of agents above the charts, 5 s into the run.
bool ldapAgentsShot(Shooter& s, const SandboxInfo& sbx)
{
    if (!s.wanted(QStringLiteral("ldap-agents")))
        return true;
    LdapPage* page = s.window->ldapPage();
    LdapAgentsForm* form = page->agentsForm();
    QString why;
    UiSandbox::fillSearch(page, sbx, 8);
    page->loadForm()->setNumber(QStringLiteral("threads"), 4);
    form->setSource(LdapAgentsForm::Source::Hosts);
    form->setHosts(QStringLiteral("local:2"));
    QSignalSpy checked(form, &LdapAgentsForm::checkFinished);
    form->runCheck(page->connectionForm()->uri());
    if (!checked.wait(60000))
        return fail(QStringLiteral("ldap-agents check"), QStringLiteral("no answer in 60 s"));
    QSignalSpy done(page, &LdapPage::runFinished);
    page->start();
    QElapsedTimer shown;
    shown.start();
    while (done.isEmpty() && shown.elapsed() < 5000)
        QTest::qWait(50);
    auto* tabs = page->findChild<QTabWidget*>(QStringLiteral("ldapFormTabs"));
    if (!s.shoot(QStringLiteral("ldap-agents"), page, [tabs] { tabs->setCurrentIndex(2); }))
        return false;
    if (!UiScenes::ended(done, 60000, &why))
        return fail(QStringLiteral("ldap-agents load"), why);
    form->setSource(LdapAgentsForm::Source::ThisMachine);
    tabs->setCurrentIndex(0);
    return true;
}

bool historyShot(Shooter& s)
{
    if (!s.wanted(QStringLiteral("history-page")))
        return true;
    QString why;
    HistoryPage* page = s.window->historyPage();
    QList<qint64> ids;
    const auto runs = page->model()->runs();
    for (const auto& r : runs)
        if (r.kind == s.window->ldapPage()->lastRecord().kind && ids.size() < 2)
            ids.prepend(r.id);
    if (ids.size() < 2)
        return fail(QStringLiteral("history-page"), QStringLiteral("fewer than two LDAP loads in the history"));
    page->renameRun(ids.at(0), QStringLiteral("search, 1 thread"));
    page->renameRun(ids.at(1), QStringLiteral("search, 4 threads"));
    page->setRunTags(ids.at(1), { QStringLiteral("tuning") });
    page->selectRuns(ids);
    page->compareSelected();
    return s.shoot(QStringLiteral("history-page"), page);
}

bool otherShots(Shooter& s, const SandboxInfo& sbx)
{
    QString why;
    if (s.wanted(QStringLiteral("curve-guide")) && !s.shoot(QStringLiteral("curve-guide"), s.window->curvePage()))
        return false;
    if (s.wanted(QStringLiteral("sizing-page"))) {
        SizingPage* page = s.window->sizingPage();
        QSignalSpy measured(page, &SizingPage::ldifMeasured);
        page->measureLdif(QStringLiteral(DIRBENCH_SOURCE_DIR "/tests/data/sizing/mixed.ldif"));
        if (measured.isEmpty() && !measured.wait(10000))
            return fail(QStringLiteral("sizing-page"), QStringLiteral("the LDIF was not measured"));
        page->form()->setText(QStringLiteral("entries"), QStringLiteral("250000")); // the guide's worked example
        page->recompute();
        if (!s.shoot(QStringLiteral("sizing-page"), page))
            return false;
    }
    if (s.wanted(QStringLiteral("curve-page"))) {
        // A sandbox this small fits in any cache: its curve is flat. --curve-record shows a real one instead
        // (dirbench-cli curve --json against a directory larger than its cache, e.g. bench/curve_389ds.sh's).
        const bool shown = !s.curveRecord.isEmpty() && s.window->curvePage()->openRecordFile(s.curveRecord, &why);
        if (!s.curveRecord.isEmpty() && !shown)
            return fail(QStringLiteral("curve-page"), why);
        if (!shown && !UiScenes::curveSweep(s.window, sbx, &why))
            return fail(QStringLiteral("curve-page"), why);
        // A target at 70 % of the fit's fully cached rate, and the RAM the predictor turns it into.
        CurvePage* page = s.window->curvePage();
        if (page->fit())
            page->predictor()->setTargetText(QString::number(std::round(0.7 / page->fit()->tHit / 100) * 100));
        if (!s.shoot(QStringLiteral("curve-page"), page))
            return false;
    }
    if (s.wanted(QStringLiteral("experiments-page"))) {
        if (!UiScenes::threadSweep(s.window, sbx, &why))
            return fail(QStringLiteral("experiments-page"), why);
        if (!s.shoot(QStringLiteral("experiments-page"), s.window->experimentsPage()))
            return false;
    }
    if (s.wanted(QStringLiteral("advisor-page"))) {
        UiScenes::advisorSeedCase(s.window);
        if (!s.shoot(QStringLiteral("advisor-page"), UiScenes::advisor(s.window)))
            return false;
    }
    return true;
}

// The Replication page at the end of a 10 s marker probe on the demo directory with a replica.
bool replicationShot(Shooter& s)
{
    if (!s.wanted(QStringLiteral("replication-page")))
        return true;
    QString why;
    if (!UiScenes::replication(s.window, 10, 50, &why))
        return fail(QStringLiteral("replication-page"), why);
    return s.shoot(QStringLiteral("replication-page"), s.window->replicationPage());
}

// The Workload page after analysing a generated 389-ds access log (no server needed).
bool workloadShot(Shooter& s, const QString& dir)
{
    if (!s.wanted(QStringLiteral("workload-page")))
        return true;
    QString why;
    if (!UiScenes::workload(s.window, dir, &why))
        return fail(QStringLiteral("workload-page"), why);
    return s.shoot(QStringLiteral("workload-page"), s.window->workloadPage());
}

QList<QSize> parseSizes(const QString& text)
{
    QList<QSize> out;
    const QStringList parts = text.split(u',', Qt::SkipEmptyParts);
    for (const QString& p : parts) {
        const QStringList wh = p.split(u'x');
        bool okW = false, okH = false;
        const int w = wh.value(0).toInt(&okW), h = wh.value(1).toInt(&okH);
        if (wh.size() != 2 || !okW || !okH || w < 640 || h < 480)
            return {};
        out << QSize(w, h);
    }
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-screenshots"));
    QCommandLineParser cli;
    cli.setApplicationDescription(QStringLiteral("Makes the README's screenshots from the real window."));
    cli.addHelpOption();
    cli.addOption(
        { QStringLiteral("out"), QStringLiteral("Folder for <palette>-<W>x<H>/<shot>.png."), QStringLiteral("dir") });
    cli.addOption({ QStringLiteral("palette"), QStringLiteral("light (default) or dark."), QStringLiteral("name"),
        QStringLiteral("light") });
    cli.addOption({ QStringLiteral("sizes"), QStringLiteral("Window sizes (default 1366x768,1920x1080)."),
        QStringLiteral("WxH,..."), QStringLiteral("1366x768,1920x1080") });
    cli.addOption(
        { QStringLiteral("shots"), QStringLiteral("Only these shots (default: all)."), QStringLiteral("name,...") });
    cli.addOption({ QStringLiteral("from-screen"),
        QStringLiteral("Grab what the display shows (QT_QPA_PLATFORM=xcb under xvfb-run), not a fresh paint.") });
    cli.addOption({ QStringLiteral("curve-record"), QStringLiteral("The curve record the Curve page shows."),
        QStringLiteral("file") });
    cli.process(app);
    Shooter s;
    s.out = cli.value(QStringLiteral("out"));
    s.palette = cli.value(QStringLiteral("palette"));
    s.sizes = parseSizes(cli.value(QStringLiteral("sizes")));
    s.curveRecord = cli.value(QStringLiteral("curve-record"));
    s.fromScreen = cli.isSet(QStringLiteral("from-screen"));
    s.only = cli.value(QStringLiteral("shots")).split(u',', Qt::SkipEmptyParts);
    if (s.out.isEmpty())
        return std::fprintf(stderr, "screenshots: --out: a folder is needed\n"), 2;
    if (s.palette != u"light" && s.palette != u"dark")
        return std::fprintf(stderr, "screenshots: --palette: light or dark\n"), 2;
    if (s.sizes.isEmpty())
        return std::fprintf(stderr, "screenshots: --sizes: WxH[,WxH...], at least 640x480\n"), 2;

    // The agents of the ldap-agents shot run `dirbench-cli agent`: this build's.
    qputenv("PATH", (QStringLiteral(DIRBENCH_CLI_DIR) + u':' + qEnvironmentVariable("PATH")).toLocal8Bit());
    QTemporaryDir settings, disk(QDir::tempPath() + QStringLiteral("/dirbench-shots-XXXXXX"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    qputenv("DIRBENCH_HISTORY", settings.filePath(QStringLiteral("history.sqlite")).toLocal8Bit());
    UiScenes::usePalette(s.palette == u"dark");
    QString why;
    SandboxGuard sbx = UiSandbox::start(2000, &why);
    if (!sbx)
        return std::fprintf(stderr, "screenshots: no sandbox slapd: %s\n", qPrintable(why)), 1;
    ProbeRunner runner;
    MainWindow window(&runner);
    s.window = &window;
    window.resize(s.sizes.first());
    window.show();
    const bool ok = replicationShot(s) && workloadShot(s, disk.path()) && otherShots(s, sbx.info())
        && ldapShots(s, sbx.info()) && ldapAgentsShot(s, sbx.info()) && historyShot(s)
        && diskShots(s, sbx.info(), disk.path());
    window.close();
    runner.waitForDone(20000);
    std::printf("%d screenshots (%s)\n", s.saved, ok ? "all" : "stopped at a failure");
    return ok ? 0 : 1;
}
