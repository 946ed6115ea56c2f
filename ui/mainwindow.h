#pragma once

#include "core/common/runrecord.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMainWindow>
#include <QString>

#include <utility>

class AdvisorPage;
class CurvePage;
class ExperimentsPage;
class DemoDirectory;
class DiskPage;
class HistoryPage;
class LdapPage;
class MainMenus;
class Page;
class ReplayPage;
class ReplicationPage;
class WorkloadPage;
class SavedRunBanner;
class FirstStartHint;
struct StartOptions;
class ProbeRunner;
class QAction;
class QLabel;
class QTabWidget;
class SizingPage;

// The shell: a tab per page, a status bar, the menus (ui/mainmenus) whose Start/Cancel act on the current page.
// Closing during a run cancels every run and closes once the runner reports them finished (no nested event loop).
// The window's geometry, its last page and each form's last values are restored at start and saved at close
// (never a password: ui/formmemory).
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
    AdvisorPage* advisorPage() const { return m_advisorPage; }
    ReplicationPage* replicationPage() const { return m_replicationPage; }
    WorkloadPage* workloadPage() const { return m_workloadPage; }
    ReplayPage* replayPage() const { return m_replayPage; }
    DemoDirectory* demoDirectory() const { return m_demo; }
    // Starts the demo directory (as a job); the LDAP page is filled in for it once it is up. No load starts.
    void startDemo();
    // What the window does as it starts (ui/firststart.h): the demo directory when asked for or on the very first
    // start, the first-start hint until it is dismissed.
    void startUp(const StartOptions& options);
    FirstStartHint* firstStartHint() const { return m_hint; }
    Page* currentPage() const;
    // The last run of every page that made one (disk, LDAP probe and load, sizing, curve, experiments, the cloud
    // advisor's comparison): what "Export report…" offers.
    QList<RunRecord> pageRecords(QStringList* names = nullptr) const;
    bool isClosePending() const { return m_closePending; }
    // The status bar is per page: the last message of `page` (its own, or the window's while it was current);
    // switching pages shows that page's.
    QString pageMessage(const Page* page) const;
    // `text` in the status bar as `page`'s message (the current page's when null); shown when that page is current.
    void showMessage(const QString& text, const Page* page = nullptr);

    // A saved run shown read-only in the page that shows its kind, with the banner "viewing a saved run from …"
    // (the History page's "open" calls this too). False with *error set when no page shows it.
    bool showSavedRecord(const RunRecord& record, const QString& origin, QString* error = nullptr);
    // Reads a record file off the GUI thread, then shows it; recordOpened() tells how it went (also for a run the
    // History page opens).
    void openRecordFile(const QString& path);
    void showOpenedAnalysis(const QJsonObject& analysis, const QString& name);
    // A workload analysis is looked for only in files up to this size (a record may be larger; it is read as one).
    static constexpr qint64 kAnalysisSniffLimit = 64 * 1024 * 1024;
    // A file named on the command line or opened by the file manager (`dirbench FILE`): a saved workload (.dbwl)
    // goes to the Replay page's form, anything else is read as a record (openRecordFile).
    void openFile(const QString& path);
    // The forms whose last values are kept: (settings group, form).
    QList<std::pair<QString, QWidget*>> forms() const;
    void saveSettings() const;
    SavedRunBanner* savedRunBanner() const { return m_banner; }

public slots:
    void openRecordDialog();
    void importDialog();
    // The History page's selection when that page is current and has one, else the last run of every page.
    void exportReport();

signals:
    void recordOpened(bool ok, const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    // RunRecord JSON files dropped anywhere on the window go to the History page.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void addPage(Page* page);
    void addPages();
    void connectPages();
    void restoreSettings();
    void updateActions();
    void showCurrentMessage();
    void updateRunningLabel();
    void onRunFinished();
    void showOpened(const RunRecord& record, const QString& origin);
    void reportOpened(bool ok, const QString& message);

    ProbeRunner* m_runner;
    QTabWidget* m_tabs = nullptr;
    SavedRunBanner* m_banner = nullptr;
    FirstStartHint* m_hint = nullptr;
    MainMenus* m_menus = nullptr;
    QLabel* m_runningLabel = nullptr;
    DemoDirectory* m_demo = nullptr;
    DiskPage* m_diskPage = nullptr;
    LdapPage* m_ldapPage = nullptr;
    SizingPage* m_sizingPage = nullptr;
    CurvePage* m_curvePage = nullptr;
    ExperimentsPage* m_experimentsPage = nullptr;
    HistoryPage* m_historyPage = nullptr;
    AdvisorPage* m_advisorPage = nullptr;
    ReplicationPage* m_replicationPage = nullptr;
    WorkloadPage* m_workloadPage = nullptr;
    ReplayPage* m_replayPage = nullptr;
    QList<Page*> m_pages;
    QHash<const Page*, QString> m_messages;
    bool m_closePending = false;
    bool m_forceClose = false;
};
