#include "ui/mainwindow.h"

#include "core/run/proberunner.h"
#include "core/store/recordfile.h"
#include "core/store/runrecorder.h"
#include "core/workload/workloadsummary.h"
#include "ui/demodirectory.h"
#include "ui/firststart.h"
#include "ui/formmemory.h"
#include "ui/mainmenus.h"
#include "ui/offthread.h"
#include "ui/pages/advisorevalform.h"
#include "ui/pages/advisorneedform.h"
#include "ui/pages/advisorpage.h"
#include "ui/pages/curveform.h"
#include "ui/pages/curvepage.h"
#include "ui/pages/diskpage.h"
#include "ui/pages/experimentform.h"
#include "ui/pages/experimentspage.h"
#include "ui/pages/historypage.h"
#include "ui/pages/ldapagentsform.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/ldappage.h"
#include "ui/pages/replayform.h"
#include "ui/pages/replaypage.h"
#include "ui/pages/replicationform.h"
#include "ui/pages/replicationpage.h"
#include "ui/pages/sizingform.h"
#include "ui/pages/sizingpage.h"
#include "ui/pages/workloadpage.h"
#include "ui/reportexport.h"
#include "ui/widgets/demodirectorybox.h"
#include "ui/widgets/firststarthint.h"
#include "ui/widgets/savedrunbanner.h"
#include "ui/widgets/wheelguard.h"
#include "ui/windowsettings.h"

#include <QAction>
#include <QCloseEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace {
// The engine acknowledges a cancel within 200 ms; if a run still has not finished after this, close anyway and
// leave the rest to the runner's destructor.
constexpr int kCloseGraceMs = 10000;
} // namespace

MainWindow::MainWindow(ProbeRunner* runner, QWidget* parent)
    : QMainWindow(parent)
    , m_runner(runner)
    , m_tabs(new QTabWidget(this))
    , m_banner(new SavedRunBanner(this))
    , m_hint(new FirstStartHint(this))
    , m_runningLabel(new QLabel(this))
{
    WheelGuard::install(); // a wheel over a form scrolls it, never the field under the pointer
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("DirBench"));
    // A run's threads (a live load's workers among them) below the window's thread: the window never waits for
    // a core while the machine is busy with the load (bench/gui_responsiveness.sh).
    runner->setJobNice(5);
    m_tabs->setObjectName(QStringLiteral("pageTabs"));
    m_tabs->setDocumentMode(true);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_hint);
    m_hint->hide(); // startUp() shows it
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_menus = new MainMenus(this);
    m_runningLabel->setObjectName(QStringLiteral("runningLabel"));
    statusBar()->addPermanentWidget(m_runningLabel);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        m_banner->showFor(currentPage());
        showCurrentMessage();
        updateActions();
    });
    // The runner's signals move the "n tests running" label; the Start and Cancel actions follow the current page's
    // own state (Page::runningChanged), which the page sets once its run id is known.
    connect(m_runner, &ProbeRunner::started, this, &MainWindow::updateRunningLabel);
    connect(m_runner, &ProbeRunner::finished, this, &MainWindow::onRunFinished);

    addPages();
    connectPages();
    m_menus->addPageActions(m_tabs);
    setAcceptDrops(true);

    restoreSettings(); // within the screen's available area (ui/windowsettings)
    updateActions();
}

void MainWindow::addPages()
{
    m_demo = new DemoDirectory(m_runner, this);
    addPage(m_diskPage = new DiskPage(m_runner, m_tabs));
    addPage(m_ldapPage = new LdapPage(m_runner, m_demo, m_tabs));
    addPage(m_sizingPage = new SizingPage(m_runner, m_tabs));
    addPage(m_curvePage = new CurvePage(m_runner, m_tabs));
    addPage(m_experimentsPage = new ExperimentsPage(m_runner, m_tabs));
    addPage(m_replicationPage = new ReplicationPage(m_runner, m_demo, m_tabs));
    addPage(m_workloadPage = new WorkloadPage(m_runner, m_tabs));
    addPage(m_replayPage = new ReplayPage(m_runner, m_demo, m_tabs));
    addPage(m_advisorPage = new AdvisorPage(m_tabs));
    addPage(m_historyPage = new HistoryPage(m_runner, m_tabs));
}

// The pages that run the LDAP page's load take it from a provider, so the pages stay apart.
void MainWindow::connectPages()
{
    const auto ldapLoad = [this](QString* error) { return m_ldapPage->loadSpec(error); };
    m_diskPage->setLdapLoadProvider(ldapLoad);
    m_curvePage->setLdapLoadProvider(ldapLoad);
    m_sizingPage->setLdapLoadProvider(ldapLoad);
    m_experimentsPage->setLdapLoadProvider(ldapLoad);
    connect(
        m_experimentsPage, &ExperimentsPage::curveRequested, this, [this] { m_tabs->setCurrentWidget(m_curvePage); });
    connect(m_replicationPage, &ReplicationPage::diskTestsRequested, this,
        [this] { m_tabs->setCurrentWidget(m_diskPage); });
    connect(m_workloadPage, &WorkloadPage::skewForCurve, m_curvePage, &CurvePage::setTrafficAccess);
    connect(m_historyPage, &HistoryPage::openRequested, this, &MainWindow::showOpened);
    connect(m_hint, &FirstStartHint::diskTestRequested, this, [this] { m_tabs->setCurrentWidget(m_diskPage); });
    connect(m_hint, &FirstStartHint::demoLoadRequested, this, [this] { m_tabs->setCurrentWidget(m_ldapPage); });
    connect(m_hint, &FirstStartHint::reportRequested, this, &MainWindow::exportReport);
    connect(m_demo, &DemoDirectory::orphansStopped, this, [this](const QStringList& dirs) {
        showMessage(tr("Demo directories left running by a DirBench that is gone, now stopped: %1").arg(dirs.size()));
    });
    connect(m_advisorPage, &AdvisorPage::saveRequested, this, [this](const RunRecord& r) {
        RunRecorder::of(m_runner)->save(r, {}, this, [this](qint64 id) {
            showMessage(id ? tr("Saved in the history as run %1").arg(id) : RunRecorder::of(m_runner)->lastError());
        });
    });
}

QList<std::pair<QString, QWidget*>> MainWindow::forms() const
{
    return { { QStringLiteral("disk"), m_diskPage->form() },
        { QStringLiteral("ldap-connection"), m_ldapPage->connectionForm() },
        { QStringLiteral("ldap-load"), m_ldapPage->loadForm() },
        { QStringLiteral("ldap-agents"), m_ldapPage->agentsForm() }, { QStringLiteral("sizing"), m_sizingPage->form() },
        { QStringLiteral("curve"), m_curvePage->form() }, { QStringLiteral("experiments"), m_experimentsPage->form() },
        { QStringLiteral("replication"), m_replicationPage->form() },
        { QStringLiteral("replay"), m_replayPage->form() },
        { QStringLiteral("advisor-eval"), m_advisorPage->evalForm() },
        { QStringLiteral("advisor-need"), m_advisorPage->needForm() } };
}

void MainWindow::restoreSettings()
{
    WindowSettings::restore(this, m_tabs);
    for (const auto& [group, form] : forms())
        FormMemory::restore(group, form);
}

void MainWindow::saveSettings() const
{
    WindowSettings::save(this, m_tabs);
    for (const auto& [group, form] : forms())
        FormMemory::save(group, form);
}

void MainWindow::exportReport()
{
    if (currentPage() == m_historyPage && !m_historyPage->selectedIds().isEmpty()) {
        m_historyPage->exportSelectedReport(); // the History page's selection
        return;
    }
    QStringList names;
    const QList<RunRecord> records = pageRecords(&names);
    const QString path = ReportExport::exportWithDialog(this, records, names);
    if (!path.isEmpty()) // the job says "Report written to …" when it is
        showMessage(tr("Writing the report to %1…").arg(path));
}

void MainWindow::importDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Import into history"), QString(), tr("Run records (*.json);;All files (*)"));
    if (files.isEmpty())
        return;
    m_tabs->setCurrentWidget(m_historyPage);
    m_historyPage->importFiles(files);
}

void MainWindow::openRecordDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a saved run (dirbench.run/1)"),
        QSettings().value(QStringLiteral("window/recordDir")).toString(), tr("Run records (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue(QStringLiteral("window/recordDir"), QFileInfo(path).absolutePath());
    openRecordFile(path);
}

void MainWindow::openRecordFile(const QString& path)
{
    struct Read
    {
        std::optional<RunRecord> record;
        std::optional<QJsonObject> analysis; // a workload analysis instead of a run
        QString error;
    };
    showMessage(tr("Reading %1…").arg(path));
    OffThread::run<Read>(
        this,
        [path] {
            Read r;
            if (QFile f(path); f.size() < kAnalysisSniffLimit && f.open(QIODevice::ReadOnly))
                r.analysis = WorkloadSummary::analysisIn(f.readAll());
            if (!r.analysis)
                r.record = RecordFile::read(path, &r.error);
            return r;
        },
        [this, path](const Read& r) {
            const QString name = QFileInfo(path).fileName();
            if (r.analysis)
                showOpenedAnalysis(*r.analysis, name);
            else if (r.record)
                showOpened(*r.record, name);
            else
                reportOpened(false, tr("Cannot open %1").arg(r.error));
        });
}

void MainWindow::showOpenedAnalysis(const QJsonObject& analysis, const QString& name)
{
    QString error;
    const bool ok = m_workloadPage->showAnalysisFile(analysis, name, &error);
    if (ok)
        m_tabs->setCurrentWidget(m_workloadPage);
    reportOpened(ok, ok ? tr("Showing the workload analysis %1").arg(name) : tr("Cannot open %1: %2").arg(name, error));
}

void MainWindow::openFile(const QString& path)
{
    if (!path.endsWith(QLatin1String(".dbwl"), Qt::CaseInsensitive)) {
        openRecordFile(path);
        return;
    }
    if (m_replayPage->isRunning() || m_replayPage->isShowingSaved()) {
        reportOpened(false,
            tr("Cannot open %1: the Replay page is busy (a replay runs or a saved run is shown)")
                .arg(QFileInfo(path).fileName()));
        return;
    }
    m_replayPage->form()->setWorkloadFile(QFileInfo(path).absoluteFilePath());
    m_tabs->setCurrentWidget(m_replayPage);
    reportOpened(true, tr("The workload %1 is in the Replay page's form: choose the target, then Start").arg(path));
}

void MainWindow::showOpened(const RunRecord& record, const QString& origin)
{
    QString error;
    const bool ok = showSavedRecord(record, origin, &error);
    reportOpened(ok, ok ? tr("Showing %1, read-only").arg(origin) : tr("Cannot open %1: %2").arg(origin, error));
}

void MainWindow::reportOpened(bool ok, const QString& message)
{
    showMessage(message);
    emit recordOpened(ok, message);
}

bool MainWindow::showSavedRecord(const RunRecord& record, const QString& origin, QString* error)
{
    const auto it = std::find_if(
        m_pages.cbegin(), m_pages.cend(), [&record](const Page* p) { return p->showsKind(record.kind); });
    if (it == m_pages.cend()) {
        if (error)
            *error = tr("no page shows a saved \"%1\" run").arg(record.kind);
        return false;
    }
    if (!(*it)->showRecord(record, error))
        return false;
    m_banner->setViewing(*it, record, origin);
    m_tabs->setCurrentWidget(*it);
    return true;
}

void MainWindow::startDemo()
{
    m_tabs->setCurrentWidget(m_ldapPage);
    m_ldapPage->demoBox()->startDemo();
    showMessage(tr("Starting the demo directory (a private OpenLDAP server); the LDAP page is filled in "
                   "for it when it is up: press Start for a load."));
}

void MainWindow::startUp(const StartOptions& options)
{
    const bool first = FirstStart::isFirst();
    FirstStart::markStarted();
    m_hint->setVisible(!FirstStart::hintDismissed());
    if (FirstStart::demoAtStart(options, first))
        startDemo(); // stops the orphans first
    else
        m_demo->stopOrphans();
}

Page* MainWindow::currentPage() const
{
    return qobject_cast<Page*>(m_tabs->currentWidget());
}

QList<RunRecord> MainWindow::pageRecords(QStringList* names) const
{
    // Only runs that were made: the Sizing page's untouched example is not one; the Experiments page's run and the
    // Cloud advisor's comparison are.
    const auto* advisor = findChild<AdvisorPage*>();
    const QList<std::pair<QString, RunRecord>> all = { { m_diskPage->title(), m_diskPage->lastRecord() },
        { tr("LDAP probe"), m_ldapPage->lastProbe() }, { m_ldapPage->title(), m_ldapPage->lastRecord() },
        { m_sizingPage->title(), m_sizingPage->lastRecord() }, { m_curvePage->title(), m_curvePage->lastRecord() },
        { m_experimentsPage->title(), m_experimentsPage->lastRecord() },
        { m_replicationPage->title(), m_replicationPage->lastRecord() },
        { m_replayPage->title(), m_replayPage->lastRecord() },
        { advisor ? advisor->title() : QString(), advisor ? advisor->comparisonRecord() : RunRecord() } };
    QList<RunRecord> out;
    for (const auto& [name, record] : all) {
        if (record.kind.isEmpty())
            continue;
        out << record;
        if (names)
            *names << name;
    }
    return out;
}

void MainWindow::addPage(Page* page)
{
    m_pages << page;
    m_tabs->addTab(page, page->title());
    connect(page, &Page::runningChanged, this, [this, page](bool running) {
        if (running)
            m_banner->forget(page); // a run made now replaces the saved one
        updateActions();
    });
    connect(page, &Page::showingSavedChanged, this, [this, page](bool showing) {
        if (!showing)
            m_banner->forget(page); // the user closed the saved run: the page is theirs again
        updateActions();
    });
    connect(page, &Page::statusMessage, this, [this, page](const QString& text) { showMessage(text, page); });
}

void MainWindow::showMessage(const QString& text, const Page* page)
{
    if (!page)
        page = currentPage();
    m_messages.insert(page, text);
    if (page == currentPage())
        statusBar()->showMessage(text);
}

void MainWindow::showCurrentMessage()
{
    const QString text = m_messages.value(currentPage());
    if (text.isEmpty())
        statusBar()->clearMessage();
    else
        statusBar()->showMessage(text);
}

QString MainWindow::pageMessage(const Page* page) const
{
    return m_messages.value(page);
}

void MainWindow::updateActions()
{
    const Page* p = currentPage();
    const bool running = p && p->isRunning();
    m_menus->startAction()->setEnabled(p && !running && !p->isShowingSaved() && !m_closePending);
    m_menus->cancelAction()->setEnabled(running && !p->isCancelling() && !m_closePending);
    updateRunningLabel();
}

void MainWindow::updateRunningLabel()
{
    const int n = m_runner->runningCount();
    m_runningLabel->setText(n > 0 ? tr("%n test(s) running", nullptr, n) : tr("idle"));
}

void MainWindow::onRunFinished()
{
    updateActions();
    if (m_closePending && m_runner->runningCount() == 0)
        QTimer::singleShot(0, this, &QWidget::close); // after every receiver of this finished() ran
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!HistoryPage::jsonFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QStringList files = HistoryPage::jsonFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    m_tabs->setCurrentWidget(m_historyPage);
    m_historyPage->importFiles(files);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_forceClose || m_runner->runningCount() == 0) {
        saveSettings();
        event->accept();
        return;
    }
    // Never wait here: cancel, keep the window, and close again when the runner's finished() arrives.
    event->ignore();
    if (m_closePending)
        return;
    m_closePending = true;
    m_runner->cancelAll();
    m_tabs->setEnabled(false);
    updateActions();
    showMessage(tr("Cancelling the running test before closing…"));
    QTimer::singleShot(kCloseGraceMs, this, [this] {
        m_forceClose = true;
        close();
    });
}
