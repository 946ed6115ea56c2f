#include "ui/mainwindow.h"

#include "core/run/proberunner.h"
#include "core/store/runrecorder.h"
#include "ui/demodirectory.h"
#include "ui/pages/advisorpage.h"
#include "ui/pages/curvepage.h"
#include "ui/pages/diskpage.h"
#include "ui/pages/experimentspage.h"
#include "ui/pages/historypage.h"
#include "ui/pages/ldappage.h"
#include "ui/pages/sizingpage.h"
#include "ui/reportexport.h"
#include "ui/widgets/demodirectorybox.h"

#include <QAction>
#include <QCloseEvent>
#include <QDropEvent>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

namespace {
// The engine acknowledges a cancel within 200 ms; if a run still has not finished after this, close anyway and
// leave the rest to the runner's destructor.
constexpr int kCloseGraceMs = 10000;
} // namespace

MainWindow::MainWindow(ProbeRunner* runner, QWidget* parent)
    : QMainWindow(parent)
    , m_runner(runner)
    , m_tabs(new QTabWidget(this))
    , m_runningLabel(new QLabel(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("DirBench"));
    m_tabs->setObjectName(QStringLiteral("pageTabs"));
    m_tabs->setDocumentMode(true);
    setCentralWidget(m_tabs);

    m_startAction = new QAction(tr("&Start"), this);
    m_startAction->setObjectName(QStringLiteral("startAction"));
    m_startAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_startAction->setToolTip(tr("Start the test of the current page (Ctrl+R)"));
    m_cancelAction = new QAction(tr("&Cancel"), this);
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));
    m_cancelAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_cancelAction->setToolTip(tr("Cancel the test of the current page (Ctrl+.)"));
    auto* quitAction = new QAction(tr("&Quit"), this);
    quitAction->setShortcut(QKeySequence::Quit);

    auto* runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(m_startAction);
    runMenu->addAction(m_cancelAction);
    runMenu->addSeparator();
    auto* exportAction = runMenu->addAction(tr("&Export report…"));
    exportAction->setObjectName(QStringLiteral("exportReportAction"));
    exportAction->setToolTip(tr("Write the last run of every page as a PDF, HTML or CSV report"));
    connect(exportAction, &QAction::triggered, this, [this] {
        QStringList names;
        const QList<RunRecord> records = pageRecords(&names);
        const QString path = ReportExport::exportWithDialog(this, records, names);
        if (!path.isEmpty())
            statusBar()->showMessage(tr("Report written to %1").arg(path));
    });
    runMenu->addSeparator();
    runMenu->addAction(quitAction);
    auto* toolBar = addToolBar(tr("Run"));
    toolBar->setObjectName(QStringLiteral("runToolBar"));
    toolBar->setMovable(false);
    toolBar->addAction(m_startAction);
    toolBar->addAction(m_cancelAction);

    m_runningLabel->setObjectName(QStringLiteral("runningLabel"));
    statusBar()->addPermanentWidget(m_runningLabel);

    connect(m_startAction, &QAction::triggered, this, [this] {
        if (Page* p = currentPage())
            p->start();
    });
    connect(m_cancelAction, &QAction::triggered, this, [this] {
        if (Page* p = currentPage())
            p->cancel();
    });
    connect(quitAction, &QAction::triggered, this, &QWidget::close);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateActions);
    connect(m_runner, &ProbeRunner::started, this, &MainWindow::updateActions);
    connect(m_runner, &ProbeRunner::finished, this, &MainWindow::onRunFinished);

    m_demo = new DemoDirectory(m_runner, this);
    m_diskPage = new DiskPage(m_runner, m_tabs);
    m_ldapPage = new LdapPage(m_runner, m_demo, m_tabs);
    addPage(m_diskPage);
    addPage(m_ldapPage);
    // The Disk page's "under LDAP load" takes the LDAP page's load; neither page knows the other.
    m_diskPage->setLdapLoadProvider([this](QString* error) { return m_ldapPage->loadSpec(error); });
    m_sizingPage = new SizingPage(m_runner, m_tabs);
    m_curvePage = new CurvePage(m_runner, m_tabs);
    addPage(m_sizingPage);
    addPage(m_curvePage);
    // The Curve page sweeps the LDAP page's search over its connection.
    m_curvePage->setLdapLoadProvider([this](QString* error) { return m_ldapPage->loadSpec(error); });
    m_sizingPage->setLdapLoadProvider([this](QString* error) { return m_ldapPage->loadSpec(error); });
    m_experimentsPage = new ExperimentsPage(m_runner, m_tabs);
    addPage(m_experimentsPage);
    m_experimentsPage->setLdapLoadProvider([this](QString* error) { return m_ldapPage->loadSpec(error); });
    connect(
        m_experimentsPage, &ExperimentsPage::curveRequested, this, [this] { m_tabs->setCurrentWidget(m_curvePage); });
    auto* advisor = new AdvisorPage(m_tabs);
    addPage(advisor);
    connect(advisor, &AdvisorPage::saveRequested, this, [this](const RunRecord& r) {
        const qint64 id = RunRecorder::of(m_runner)->save(r);
        statusBar()->showMessage(
            id ? tr("Saved in the history as run %1").arg(id) : RunRecorder::of(m_runner)->lastError());
    });
    addPage(m_historyPage = new HistoryPage(m_runner, m_tabs));
    setAcceptDrops(true);

    resize(1200, 800);
    updateActions();
}

void MainWindow::startDemo(double loadSeconds)
{
    m_tabs->setCurrentWidget(m_ldapPage);
    m_ldapPage->setLoadWhenDemoReady(loadSeconds);
    m_ldapPage->demoBox()->startDemo();
    statusBar()->showMessage(tr("Starting the demo directory (a private OpenLDAP server); a %1-second search load "
                                "starts when it is up…")
                                 .arg(loadSeconds));
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
    connect(page, &Page::runningChanged, this, &MainWindow::updateActions);
    connect(page, &Page::statusMessage, this, [this](const QString& text) { statusBar()->showMessage(text); });
}

void MainWindow::updateActions()
{
    const Page* p = currentPage();
    const bool running = p && p->isRunning();
    m_startAction->setEnabled(p && !running && !m_closePending);
    m_cancelAction->setEnabled(running && !m_closePending);
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
    statusBar()->showMessage(tr("Cancelling the running test before closing…"));
    QTimer::singleShot(kCloseGraceMs, this, [this] {
        m_forceClose = true;
        close();
    });
}
