// The GUI's event loop under a large history and a live load (issue 12), driven offscreen: a history of N real
// runs (the records given with --record, written through RunStore into the data directory given), the main
// window, then: open History, filter (typed), show the next page, compare two runs, open the LDAP page, a live search
// load against a sandbox slapd (charts on, the run saved as it goes), and the report export of what was compared and
// loaded (the export path, without its dialog). A 1 ms precise-timer heartbeat measures the longest stall of the event
// loop in each step. Prints one line per step and the overall figure; bench/gui_responsiveness.sh builds the inputs.
#include "core/ldap/ldaptarget.h"
#include "core/run/proberunner.h"
#include "core/store/historyservice.h"
#include "core/store/recordfile.h"
#include "core/store/runrecorder.h"
#include "core/store/runstore.h"
#include "tests/integration/ldapfixture.h"
#include "tests/ui/workloadlog.h"
#include "ui/mainwindow.h"
#include "ui/models/historymodel.h"
#include "ui/pages/historypage.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/ldappage.h"
#include "ui/pages/replayform.h"
#include "ui/pages/replaypage.h"
#include "ui/pages/replicationform.h"
#include "ui/pages/replicationloadform.h"
#include "ui/pages/replicationpage.h"
#include "ui/reportexport.h"
#include "ui/widgets/historyfilterbar.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

#include <cstdio>
#include <ctime>

namespace {

// This thread's CPU time in ns: what a stall spent working, as opposed to waiting for a core on a busy host.
qint64 threadCpuNs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// The longest lateness of a precise periodic timer (the gap between two firings minus the period): how long the
// event loop was kept from running, and the GUI thread's CPU time within it. The period is 1 ms by default: the
// GUI thread sleeps between beats as it does between a user's key presses, so the scheduler sees it as the
// interactive thread it is. A period of 0 (a zero timer, --heartbeat-ms 0) keeps the thread busy all the time;
// then the scheduler treats it as a CPU hog beside the load's threads, and the stalls measure that instead.
class Heartbeat
{
public:
    explicit Heartbeat(int periodMs)
        : m_periodNs(qint64(periodMs) * 1000000)
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(periodMs);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            const qint64 cpu = threadCpuNs();
            if (now - m_lastNs - m_periodNs > m_longestNs) {
                m_longestNs = now - m_lastNs - m_periodNs;
                m_longestAtNs = m_lastNs - m_startNs;
                m_longestCpuNs = cpu - m_lastCpuNs;
            }
            m_lastNs = now;
            m_lastCpuNs = cpu;
            ++m_beats;
        });
        m_clock.start();
        m_timer.start();
    }
    void reset()
    {
        m_lastNs = m_clock.nsecsElapsed();
        m_lastCpuNs = threadCpuNs();
        m_startNs = m_lastNs;
        m_longestNs = 0;
        m_longestCpuNs = 0;
        m_longestAtNs = 0;
        m_beats = 0;
    }
    double longestMs() const { return std::max(m_longestNs, m_clock.nsecsElapsed() - m_lastNs - m_periodNs) / 1e6; }
    qint64 beats() const { return m_beats; }
    double longestCpuMs() const { return m_longestCpuNs / 1e6; } // the GUI thread's CPU time in the longest stall
    double longestAtS() const { return m_longestAtNs / 1e9; } // when the longest stall began, in the step

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_periodNs = 0;
    qint64 m_lastNs = 0;
    qint64 m_longestNs = 0;
    qint64 m_longestAtNs = 0;
    qint64 m_lastCpuNs = 0;
    qint64 m_longestCpuNs = 0;
    qint64 m_startNs = 0;
    qint64 m_beats = 0;
};

// The longest single event the GUI thread delivered (outermost notify() only): which receiver and event type it was,
// so that a stall the heartbeat sees can be traced to its handler.
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* e) override
    {
        if (m_depth++ > 0) {
            const bool r = QApplication::notify(receiver, e);
            --m_depth;
            return r;
        }
        const QByteArray what = QByteArray(receiver->metaObject()->className()) + '/'
            + QByteArray::number(int(e->type())) + ' ' + receiver->objectName().toUtf8()
            + (receiver->parent() ? QByteArray(" in ") + receiver->parent()->metaObject()->className() : QByteArray());
        const qint64 begin = m_since.nsecsElapsed();
        const bool r = QApplication::notify(receiver, e);
        --m_depth;
        const qint64 took = m_since.nsecsElapsed() - begin;
        if (took > m_longestNs) {
            m_longestNs = took;
            m_longest = what;
        }
        if (m_traceNs > 0 && took >= m_traceNs)
            m_traced << QByteArray::number(begin / 1e9, 'f', 3) + " s  " + QByteArray::number(took / 1e6, 'f', 1)
                    + " ms  " + what;
        return r;
    }
    void resetLongest()
    {
        m_longestNs = 0;
        m_longest.clear();
        m_traced.clear();
        m_since.start();
    }
    QByteArray longest() const { return m_longest + " " + QByteArray::number(m_longestNs / 1e6, 'f', 1) + " ms"; }
    // --trace-events-ms: every event of at least that long, with when it began in the step
    void setTraceMs(double ms) { m_traceNs = qint64(ms * 1e6); }
    QList<QByteArray> traced() const { return m_traced; }

private:
    int m_depth = 0;
    qint64 m_longestNs = 0;
    qint64 m_traceNs = 0;
    QElapsedTimer m_since;
    QByteArray m_longest;
    QList<QByteArray> m_traced;
};

// Runs the event loop until done() holds (checked on every event-loop pass) or ms passed; no sleeping.
bool runUntil(const std::function<bool()>& done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    }
    return true;
}

// The sandbox slapd, started as the window's demo directory starts its own: by a job of the runner, whose threads
// (and the daemon they fork) run 5 below the window's thread (MainWindow sets the runner's job nice).
SandboxGuard startSlapd(ProbeRunner& runner)
{
    runner.setJobNice(5);
    SandboxGuard slapd;
    QString why;
    bool done = false;
    const auto c = QObject::connect(&runner, &ProbeRunner::finished, [&done] { done = true; });
    runner.start([&slapd, &why](RunContext&) {
        slapd = LdapFixture::start(2000, false, &why);
        return RunRecord();
    });
    runUntil([&done] { return done; }, 120000);
    QObject::disconnect(c);
    if (!slapd)
        std::fprintf(stderr, "gui_responsiveness: the sandbox slapd: %s\n", qPrintable(why));
    return slapd;
}

// A replay from the Replay page of a generated 389-ds access log (tests/ui/workloadlog.h: connections 0.05 s
// apart, each a bind, 24 searches and a modify) onto the sandbox's people: its live charts draw as it goes.
constexpr int kReplayConnections = 200;

bool liveReplay(MainWindow* window, const SandboxInfo& s, const QString& logPath)
{
    QFile log(logPath);
    if (!log.open(QIODevice::WriteOnly) || log.write(WorkloadLog::generate389(kReplayConnections, 0.05)) <= 0)
        return false;
    log.close();
    ReplayPage* page = window->replayPage();
    window->findChild<QTabWidget*>(QStringLiteral("pageTabs"))->setCurrentWidget(page);
    page->form()->connection()->setTarget(LdapFixture::admin(s));
    page->form()->setLogs({ logPath });
    page->form()->setText(QStringLiteral("key-space"), QStringLiteral("uid=user[0-1999],") + s.peopleBase);
    page->form()->setText(QStringLiteral("shared-password-file"), s.passwordFile);
    page->form()->setNumber(QStringLiteral("interval"), 0.5);
    bool finished = false;
    const auto c = QObject::connect(page, &ReplayPage::runFinished, [&] { finished = true; });
    page->start();
    const bool ok = runUntil([&] { return finished; }, 120000) && page->lastRecord().status == u"ok";
    QObject::disconnect(c);
    QFile::remove(logPath);
    return ok;
}

// A provider and a syncrepl consumer (started off the GUI thread, as the demo directory is).
SandboxGuard startPair(ProbeRunner& runner)
{
    SandboxGuard pair;
    ProbeError e;
    bool done = false;
    const auto c = QObject::connect(&runner, &ProbeRunner::finished, [&done] { done = true; });
    runner.start([&pair, &e](RunContext&) {
        pair.reset(LdapFixture::startReplicated(QDir::tempPath(), 1, &e, 2000));
        return RunRecord();
    });
    runUntil([&done] { return done; }, 120000);
    QObject::disconnect(c);
    if (!pair)
        std::fprintf(stderr, "gui_responsiveness: no replicated pair: %s\n", qPrintable(e.message()));
    return pair;
}

// The Replication page's markers beside a modify ramp (rate:50,100,200@3), its lag charts drawing live.
bool replicationRamp(MainWindow* window, const SandboxInfo& pair)
{
    ReplicationPage* page = window->replicationPage();
    window->findChild<QTabWidget*>(QStringLiteral("pageTabs"))->setCurrentWidget(page);
    page->form()->fillFrom(pair, LdapFixture::password(pair));
    page->form()->setRate(20);
    page->form()->loadForm()->setOn(true);
    page->form()->loadForm()->setText(QStringLiteral("ramp"), QStringLiteral("rate:50,100,200@3"));
    bool finished = false;
    const auto c = QObject::connect(page, &ReplicationPage::runFinished, [&] { finished = true; });
    page->start();
    const bool ok = runUntil([&] { return finished; }, 120000) && page->lastRecord().status == u"ok";
    QObject::disconnect(c);
    return ok;
}

struct Step
{
    QString name;
    double longestMs = 0;
    double longestAtS = 0;
    double longestCpuMs = 0;
    double seconds = 0;
    qint64 beats = 0;
    QByteArray longestEvent;
    QList<QByteArray> traced;
    bool ok = true;
};

int fillHistory(const QString& path, const QList<RunRecord>& records, int runs)
{
    RunStore store;
    ProbeError e;
    if (!store.open(path, &e)) {
        std::fprintf(stderr, "gui_responsiveness: %s\n", qPrintable(e.message()));
        return 0;
    }
    const int have = store.count({});
    const QDateTime t0 = QDateTime::currentDateTime().addDays(-60);
    for (int i = have; i < runs; ++i) {
        RunRecord r = records.at(i % records.size());
        r.started = t0.addSecs(i * 60);
        store.save(r, QStringLiteral("bench-%1").arg(i));
    }
    return store.count({});
}

} // namespace

int main(int argc, char* argv[])
{
    TimedApplication app(argc, argv);
    QCommandLineParser p;
    p.addOptions(
        { { QStringLiteral("runs"), QStringLiteral("Runs in the history (default 10000)."), QStringLiteral("N") },
            { QStringLiteral("record"), QStringLiteral("A RunRecord JSON file to fill the history with (repeatable)."),
                QStringLiteral("FILE") },
            { QStringLiteral("load-seconds"), QStringLiteral("The live search load's duration (default 10)."),
                QStringLiteral("S") },
            { QStringLiteral("trace-events-ms"),
                QStringLiteral("Print every event that took at least MS, with when it began in its step."),
                QStringLiteral("MS") },
            { QStringLiteral("heartbeat-ms"),
                QStringLiteral("The heartbeat's period (default 1; 0: a zero timer that keeps the GUI thread busy)."),
                QStringLiteral("MS") } });
    p.process(app);
    const int runs = p.isSet(QStringLiteral("runs")) ? p.value(QStringLiteral("runs")).toInt() : 10000;
    const double loadSeconds
        = p.isSet(QStringLiteral("load-seconds")) ? p.value(QStringLiteral("load-seconds")).toDouble() : 10;
    QList<RunRecord> records;
    for (const QString& f : p.values(QStringLiteral("record"))) {
        QString why;
        if (const auto r = RecordFile::read(f, &why))
            records << *r;
        else
            std::fprintf(stderr, "gui_responsiveness: %s\n", qPrintable(why));
    }
    if (records.isEmpty() || runs < 2) {
        std::fprintf(stderr, "gui_responsiveness: give --record FILE (a RunRecord JSON) and --runs N >= 2\n");
        return 2;
    }
    QElapsedTimer setup;
    setup.start();
    const int inHistory = fillHistory(RunStore::defaultPath(), records, runs);
    std::printf("history: %d runs in %s (filled in %.1f s)\n", inHistory, qPrintable(RunStore::defaultPath()),
        setup.elapsed() / 1000.0);
    ProbeRunner runner;
    SandboxGuard slapd = startSlapd(runner);
    if (!slapd)
        std::fprintf(stderr, "gui_responsiveness: no sandbox slapd: the live load is left out\n");

    app.setTraceMs(p.value(QStringLiteral("trace-events-ms")).toDouble());
    const int heartbeatMs
        = p.isSet(QStringLiteral("heartbeat-ms")) ? p.value(QStringLiteral("heartbeat-ms")).toInt() : 1;
    Heartbeat beat(heartbeatMs);
    QList<Step> steps;
    auto measure = [&](const QString& name, const std::function<bool()>& drive) {
        beat.reset();
        app.resetLongest();
        QElapsedTimer t;
        t.start();
        Step s;
        s.name = name;
        s.ok = drive();
        s.longestMs = beat.longestMs();
        s.longestAtS = beat.longestAtS();
        s.longestCpuMs = beat.longestCpuMs();
        s.seconds = t.elapsed() / 1000.0;
        s.beats = beat.beats();
        s.longestEvent = app.longest();
        s.traced = app.traced();
        steps << s;
    };

    // How long the receivers of a run's end keep the GUI thread (this one is connected first, the page's last).
    QElapsedTimer endOfRun;
    QObject::connect(&runner, &ProbeRunner::finished, [&endOfRun] { endOfRun.start(); });
    MainWindow* window = nullptr;
    measure(QStringLiteral("start the window"), [&] {
        window = new MainWindow(&runner);
        window->resize(1600, 1000);
        window->show();
        return QTest::qWaitForWindowExposed(window);
    });
    HistoryPage* history = window->historyPage();
    int lists = 0;
    QObject::connect(history, &HistoryPage::listed, [&lists] { ++lists; });
    measure(QStringLiteral("open History (first list)"), [&] {
        window->findChild<QTabWidget*>(QStringLiteral("pageTabs"))->setCurrentWidget(history);
        history->refresh();
        const int before = lists;
        return runUntil([&] { return lists > before && history->model()->rowCount() > 0; }, 30000);
    });
    measure(QStringLiteral("filter (typed: bench-1)"), [&] {
        auto* text = history->filterBar()->findChild<QLineEdit*>(QStringLiteral("historyText"));
        const int before = lists;
        QTest::keyClicks(text, QStringLiteral("bench-1"));
        const bool ok = runUntil([&] { return lists > before && !history->model()->runs().isEmpty(); }, 30000)
            && runUntil([&] { return history->model()->runAt(0)->name.startsWith(u"bench-1"); }, 30000);
        text->clear();
        return ok && runUntil([&] { return history->model()->rowCount() >= RunStore::PageSize; }, 30000);
    });
    measure(QStringLiteral("show 500 more"), [&] {
        const int rows = history->model()->rowCount();
        history->findChild<QPushButton*>(QStringLiteral("historyMore"))->click();
        return runUntil([&] { return history->model()->rowCount() > rows; }, 30000);
    });
    QList<RunRecord> compared;
    measure(QStringLiteral("compare two"), [&] {
        const QList<qint64> ids { history->model()->runAt(1)->id, history->model()->runAt(0)->id };
        history->selectRuns(ids);
        bool done = false, ok = false;
        const auto c = QObject::connect(history, &HistoryPage::compareFinished, [&](bool good) {
            done = true;
            ok = good;
        });
        history->findChild<QPushButton*>(QStringLiteral("historyCompare"))->click();
        const bool shown = runUntil([&] { return done; }, 60000) && ok;
        QObject::disconnect(c);
        if (!shown)
            return false;
        bool loaded = false; // the records themselves, for the report below
        RunRecorder::of(&runner)->service()->load(ids, history, {}, [&](const HistoryService::Loaded& l) {
            for (const auto& r : l.runs)
                compared << r.record;
            loaded = true;
        });
        return runUntil([&] { return loaded; }, 60000) && compared.size() == 2;
    });
    if (slapd) {
        // As a user does: the page is shown (its first layout and paint, a step of its own), the form filled, then
        // Start. A quarter of a second of the event loop lets the shown page settle, stalls measured.
        measure(QStringLiteral("open the LDAP page"), [&] {
            window->findChild<QTabWidget*>(QStringLiteral("pageTabs"))->setCurrentWidget(window->ldapPage());
            QElapsedTimer shown;
            shown.start();
            return runUntil([&] { return window->ldapPage()->isVisible() && shown.elapsed() >= 250; }, 10000);
        });
        measure(QStringLiteral("live search load (%1 s)").arg(loadSeconds), [&] {
            LdapPage* page = window->ldapPage();
            page->connectionForm()->setTarget(LdapFixture::admin(slapd.info()));
            LdapLoadForm* f = page->loadForm();
            f->setOperation(QStringLiteral("search"));
            f->setText(QStringLiteral("base"), slapd->peopleBase);
            f->setText(QStringLiteral("filter"), QStringLiteral("(uid=user[0-1999])"));
            f->setNumber(QStringLiteral("duration"), loadSeconds);
            f->setNumber(QStringLiteral("interval"), 0.5);
            bool finished = false;
            const auto c = QObject::connect(page, &LdapPage::runFinished, [&] {
                finished = true;
                std::printf("  the LDAP page took %lld ms to show the run's end\n", endOfRun.elapsed());
            });
            page->start();
            const bool ok = page->isRunning() && runUntil([&] { return finished; }, int(loadSeconds * 1000) + 60000)
                && page->lastRecord().status == u"ok";
            QObject::disconnect(c);
            return ok;
        });
        measure(QStringLiteral("live replay (%1 connections)").arg(kReplayConnections),
            [&] { return liveReplay(window, slapd.info(), QDir::temp().filePath(QStringLiteral("replay-access"))); });
    }
    if (SandboxGuard pair = startPair(runner)) {
        measure(QStringLiteral("replication write ramp"), [&] { return replicationRamp(window, pair.info()); });
    }
    const QString pdf = QDir::temp().filePath(QStringLiteral("dirbench-gui-responsiveness.pdf"));
    measure(QStringLiteral("export a report (PDF)"), [&] {
        QList<RunRecord> rs = compared;
        QStringList names { QStringLiteral("compared A"), QStringLiteral("compared B") };
        if (slapd) {
            rs << window->ldapPage()->lastRecord();
            names << QStringLiteral("live load");
        }
        // As Export report… does: the job on its own thread, its progress dialog and the status bar in the window.
        ReportExport::Job* job = ReportExport::startWithProgress(window, { rs, names, pdf, {}, {} });
        bool done = false, ok = false;
        QObject::connect(job, &ReportExport::Job::finished, [&](bool good, const QString& pathOrError) {
            done = true;
            ok = good;
            if (!good)
                std::fprintf(stderr, "gui_responsiveness: export: %s\n", qPrintable(pathOrError));
        });
        return runUntil([&] { return done; }, 60000) && ok && QFileInfo(pdf).size() > 0;
    });
    QFile::remove(pdf);

    double worst = 0;
    // "of it CPU ms": the GUI thread's own work in its longest stall; the rest it waited for a core (a busy host).
    std::printf("%-32s %12s %8s %13s %10s %8s %s\n", "step", "longest ms", "at s", "of it CPU ms", "beats", "s", "");
    for (const Step& s : std::as_const(steps)) {
        const bool counted = !s.name.startsWith(u"start");
        if (counted)
            worst = std::max(worst, s.longestMs);
        std::printf("%-32s %12.1f %8.2f %13.1f %10lld %8.2f %s\n", qPrintable(s.name), s.longestMs, s.longestAtS,
            s.longestCpuMs, s.beats, s.seconds,
            !s.ok ? "FAILED" : (counted ? "" : "(not counted: the window is built)"));
        std::printf("    longest event: %s\n", s.longestEvent.constData());
        for (const QByteArray& t : s.traced)
            std::printf("      %s\n", t.constData());
    }
    std::printf("overall longest stall: %.1f ms (target < 50 ms, heartbeat every %d ms): %s\n", worst, heartbeatMs,
        worst < 50 ? "met" : "NOT met");
    delete window;
    runner.cancelAll();
    runner.waitForDone(20000);
    bool allOk = true;
    for (const Step& s : std::as_const(steps))
        allOk = allOk && s.ok;
    return allOk ? 0 : 1;
}
