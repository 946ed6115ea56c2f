#pragma once

// Real runs that fill every chart of the main window: the chart layout test and the screenshot program
// (tests/ui/screenshots.cpp) use the same ones. Each runs against a sandbox slapd (uisandbox.h) or a temporary
// directory and waits for the page's finished signal; false with *why set when the run did not end "ok".
#include "core/common/runrecord.h"
#include "ui/demodirectory.h"
#include "ui/mainwindow.h"
#include "ui/models/historymodel.h"
#include "ui/pages/advisorneedform.h"
#include "ui/pages/advisorpage.h"
#include "ui/pages/curveform.h"
#include "ui/pages/curvepage.h"
#include "ui/pages/diskpage.h"
#include "ui/pages/experimentform.h"
#include "ui/pages/experimentspage.h"
#include "ui/pages/historypage.h"
#include "ui/pages/replicationform.h"
#include "ui/pages/replicationpage.h"
#include "ui/pages/workloadform.h"
#include "ui/pages/workloadpage.h"
#include "ui/widgets/demodirectorybox.h"
#include "uisandbox.h"
#include "workloadlog.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QPalette>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTest>

namespace UiScenes {

inline bool ended(QSignalSpy& spy, int timeoutMs, QString* why, RunRecord* out = nullptr)
{
    if (spy.isEmpty() && !spy.wait(timeoutMs)) {
        *why = QStringLiteral("no finished signal within %1 s").arg(timeoutMs / 1000);
        return false;
    }
    const RunRecord r = spy.takeFirst().at(0).value<RunRecord>();
    if (out)
        *out = r;
    if (r.status != u"ok")
        *why = r.kind + QStringLiteral(": ") + r.status + QStringLiteral(" ") + r.failure;
    return r.status == u"ok";
}

// A search load; `failing`: against a base that does not exist, so that every search fails (errors/s on the ops
// chart's right axis, the result codes).
inline bool ldapLoad(MainWindow* w, const SandboxInfo& s, double seconds, bool failing, QString* why)
{
    LdapPage* page = w->ldapPage();
    UiSandbox::fillSearch(page, s, seconds);
    if (failing)
        page->loadForm()->setText(QStringLiteral("base"), QStringLiteral("ou=nowhere,") + s.peopleBase);
    QSignalSpy done(page, &LdapPage::runFinished);
    page->start();
    if (!page->isRunning()) {
        *why = page->errorText();
        return false;
    }
    RunRecord r;
    const bool ok = ended(done, 60000, why, &r);
    UiSandbox::fillSearch(page, s, seconds); // the real base again, for the pages that borrow the load
    return ok || (failing && !r.intervals.isEmpty()); // every search failed, as asked
}

// A sequential write beside a search load (the Disk page's disk, device and LDAP charts).
inline bool diskUnderLoad(MainWindow* w, const SandboxInfo& s, const QString& dir, QString* why)
{
    UiSandbox::fillSearch(w->ldapPage(), s, 10);
    DiskPage* page = w->diskPage();
    page->setDirectory(dir);
    page->setProfile(DiskProfile::SeqWrite);
    page->setSizeText(QStringLiteral("64M"));
    page->setBlockText(QStringLiteral("1M"));
    page->setDurationText(QStringLiteral("2"));
    page->setUnderLdapLoad(true);
    QSignalSpy done(page, &DiskPage::runFinished);
    page->start();
    if (!page->isRunning()) {
        *why = page->errorText();
        return false;
    }
    return ended(done, 120000, why);
}

inline bool threadSweep(MainWindow* w, const SandboxInfo& s, QString* why)
{
    UiSandbox::fillSearch(w->ldapPage(), s, 1);
    ExperimentsPage* page = w->experimentsPage();
    page->form()->setSeconds(1);
    page->form()->setText(QStringLiteral("points"), QStringLiteral("1,2,4"));
    QSignalSpy done(page, &ExperimentsPage::runFinished);
    if (!page->run(ExperimentsPage::Kind::Threads) || !page->isRunning()) {
        *why = page->form()->errorText();
        return false;
    }
    return ended(done, 60000, why);
}

inline bool curveSweep(MainWindow* w, const SandboxInfo& s, QString* why)
{
    UiSandbox::fillSearch(w->ldapPage(), s, 1);
    CurvePage* page = w->curvePage();
    page->form()->setMode(CurveSpec::Mode::WorkingSet);
    page->form()->setPointsText(QStringLiteral("10,40,100"));
    page->form()->setSecondsPerPoint(1);
    page->form()->setWarmup(0);
    page->form()->setCacheEntries(s.entries / 10);
    QSignalSpy done(page, &CurvePage::runFinished);
    page->start();
    if (!page->isRunning()) {
        *why = page->errorText();
        return false;
    }
    return ended(done, 120000, why);
}

// The demo directory started with a replica, as a user starts it on the LDAP page (it fills the Replication page),
// then the Replication page's marker probe for `seconds` at `rate` markers/s; the demo directory is stopped after.
inline bool replication(MainWindow* w, double seconds, double rate, QString* why)
{
    DemoDirectoryBox* box = w->ldapPage()->demoBox();
    DemoDirectory* demo = w->ldapPage()->demo();
    box->setEntries(1000);
    box->setReplica(true);
    QSignalSpy started(demo, &DemoDirectory::started);
    box->startDemo();
    if (!started.wait(120000)) {
        *why = QStringLiteral("the demo directory with a replica: ") + demo->lastError();
        return false;
    }
    ReplicationPage* page = w->replicationPage();
    page->form()->setRate(rate);
    page->form()->setDuration(seconds);
    page->form()->setMaxLagMs(100);
    QSignalSpy done(page, &ReplicationPage::runFinished);
    page->start();
    bool ok = page->isRunning();
    if (!ok)
        *why = page->form()->errorText();
    ok = ok && ended(done, 90000, why);
    QString stopWhy;
    if (!demo->stopNow(&stopWhy) && ok) {
        *why = QStringLiteral("stopping the demo directory: ") + stopWhy;
        return false;
    }
    box->setReplica(false);
    return ok;
}

// The Workload page after analysing a generated 389-ds access log (600 connections over 90 s) written in `dir`.
inline bool workload(MainWindow* w, const QString& dir, QString* why)
{
    const QString path = dir + QStringLiteral("/access");
    QFile f(path);
    const QByteArray log = WorkloadLog::generate389(600, 0.15);
    if (!f.open(QIODevice::WriteOnly) || f.write(log) != log.size()) {
        *why = path + QStringLiteral(": ") + f.errorString();
        return false;
    }
    f.close();
    WorkloadPage* page = w->workloadPage();
    page->form()->setFiles({ path });
    QSignalSpy done(page, &WorkloadPage::analyzed);
    page->start();
    if (!done.wait(60000) || !done.first().first().toBool()) {
        *why = QStringLiteral("workload analysis: ") + page->errorText();
        return false;
    }
    return true;
}

inline AdvisorPage* advisor(MainWindow* w)
{
    return w->findChild<AdvisorPage*>(QStringLiteral("advisorPage"));
}

// What 100 MB/s needs on Azure, and the seed's DS13_v2 + P60 measured against its limits.
inline void advisorSeedCase(MainWindow* w)
{
    AdvisorPage* page = advisor(w);
    QComboBox* provider = page->needForm()->providerCombo();
    provider->setCurrentIndex(provider->findData(QStringLiteral("azure")));
    page->recomputeNeed();
    page->showSeedCase(QStringLiteral("azure-ds13v2-p60"));
}

// The History page comparing the last two runs of `kind` (the recorder saved them as they ran).
inline bool compareLast(MainWindow* w, const QString& kind, QString* why)
{
    HistoryPage* page = w->historyPage();
    QList<qint64> ids;
    for (int tries = 0; tries < 100 && ids.size() < 2; ++tries) {
        ids.clear();
        const auto runs = page->model()->runs();
        for (const auto& r : runs)
            if (r.kind == kind && ids.size() < 2)
                ids << r.id;
        if (ids.size() < 2)
            QTest::qWait(50); // the history refreshes itself when a run is saved
    }
    if (ids.size() < 2) {
        *why = QStringLiteral("fewer than two %1 runs in the history").arg(kind);
        return false;
    }
    page->selectRuns(ids);
    page->compareSelected();
    return true;
}

inline void showPage(MainWindow* w, QWidget* page)
{
    w->findChild<QTabWidget*>(QStringLiteral("pageTabs"))->setCurrentWidget(page);
}

inline QList<QWidget*> pages(MainWindow* w)
{
    QList<QWidget*> out;
    auto* tabs = w->findChild<QTabWidget*>(QStringLiteral("pageTabs"));
    for (int i = 0; i < tabs->count(); ++i)
        out << tabs->widget(i);
    return out;
}

// Fusion with Qt's default light palette, or a dark one (as a dark desktop theme gives it).
inline void usePalette(bool dark)
{
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (!dark) {
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    }
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2e), base(0x1e, 0x1e, 0x20), text(0xe8, 0xe8, 0xe8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    QApplication::setPalette(p);
}

} // namespace UiScenes
