#pragma once

#include "core/common/runrecord.h"

#include <QList>
#include <QMainWindow>

class CurvePage;
class ExperimentsPage;
class DemoDirectory;
class DiskPage;
class HistoryPage;
class LdapPage;
class Page;
class ProbeRunner;
class QAction;
class QLabel;
class QTabWidget;
class SizingPage;

// The shell: a tab per page, a status bar, Start/Cancel actions that act on the current page. Closing during a
// run cancels every run and closes once the runner reports them finished (no nested event loop).
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(ProbeRunner* runner, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(MainWindow)

    DiskPage* diskPage() const { return m_diskPage; }
    LdapPage* ldapPage() const { return m_ldapPage; }
    SizingPage* sizingPage() const { return m_sizingPage; }
    CurvePage* curvePage() const { return m_curvePage; }
    ExperimentsPage* experimentsPage() const { return m_experimentsPage; }
    HistoryPage* historyPage() const { return m_historyPage; }
    DemoDirectory* demoDirectory() const { return m_demo; }
    // Starts the demo directory (as a job) and, once it is up, a search load of loadSeconds against it.
    void startDemo(double loadSeconds);
    Page* currentPage() const;
    // The last run of every page that made one (disk, LDAP probe and load, sizing, curve, experiments, the cloud
    // advisor's comparison): what "Export report…" offers.
    QList<RunRecord> pageRecords(QStringList* names = nullptr) const;
    bool isClosePending() const { return m_closePending; }

protected:
    void closeEvent(QCloseEvent* event) override;
    // RunRecord JSON files dropped anywhere on the window go to the History page.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void addPage(Page* page);
    void updateActions();
    void onRunFinished();

    ProbeRunner* m_runner;
    QTabWidget* m_tabs = nullptr;
    QAction* m_startAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QLabel* m_runningLabel = nullptr;
    DemoDirectory* m_demo = nullptr;
    DiskPage* m_diskPage = nullptr;
    LdapPage* m_ldapPage = nullptr;
    SizingPage* m_sizingPage = nullptr;
    CurvePage* m_curvePage = nullptr;
    ExperimentsPage* m_experimentsPage = nullptr;
    HistoryPage* m_historyPage = nullptr;
    QList<Page*> m_pages;
    bool m_closePending = false;
    bool m_forceClose = false;
};
