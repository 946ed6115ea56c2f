#pragma once

#include "core/store/historyservice.h"
#include "ui/models/comparisonmodel.h"
#include "ui/pages/page.h"

class HistoryFilterBar;
class HistoryModel;
class OverlayChartView;
class ProbeRunner;
class QLabel;
class QMimeData;
class QProgressBar;
class QPushButton;
class QTableView;
class QTimer;

// The History page: every saved run (the GUI's and dirbench-cli's), filtered by kind, tag and text; open a run in
// its page, read-only (Open, or a double-click: the page loads it and asks with openRequested, MainWindow shows it);
// rename, tag, delete (asks first), import RunRecord JSON (file dialog, or dropped on the window: MainWindow forwards
// drops), export a record; a report of the selected runs (ReportExport's dialog); and the comparison of two or more
// selected runs: their intervals overlaid and a table of differences (core/store/comparison). Every query goes to the
// recorder's HistoryService (its own thread): the page asks, and shows the answer when it comes (a list, a page of 500
// more runs, the records to compare, an import's result); the GUI thread never waits for SQLite. The list says how many
// runs match and pages on ("Show 500 more"). It refreshes when the history changed (a page's run begun or saved, an
// edit here).
class HistoryPage final : public Page
{
    Q_OBJECT
public:
    explicit HistoryPage(ProbeRunner* runner, QWidget* parent = nullptr);
    ~HistoryPage() override;
    Q_DISABLE_COPY_MOVE(HistoryPage)

    QString title() const override { return tr("History"); }
    bool isRunning() const override { return false; }

    HistoryModel* model() const { return m_model; }
    ComparisonModel* comparisonModel() const { return m_comparison; }
    // The settings that differ between the compared runs, as the page shows them under the table.
    QString settingsDiffText() const;
    static QString settingsDiffText(const QList<ComparisonModel::Run>& runs);
    OverlayChartView* overlayChart() const { return m_chart; }
    HistoryFilterBar* filterBar() const { return m_filter; }
    QTableView* table() const { return m_table; }
    HistoryService* service() const { return m_service; }
    QString storeError() const { return m_storeError; }
    QString lastMessage() const;
    // "Showing 500 of 10,000 runs", or "" when every matching run is shown.
    QString pagingText() const;
    int totalRuns() const { return m_total; } // the runs the filter matches
    bool isBusy() const { return m_jobs > 0; }

    // The .json files among dropped URLs (local files only).
    static QStringList jsonFiles(const QMimeData* mime);
    // Imports the valid files on the service (a job with progress); importFinished(n) follows, the imported
    // runs selected.
    void importFiles(const QStringList& paths);
    void exportRun(qint64 id, const QString& path); // exportFinished(ok)
    void renameRun(qint64 id, const QString& name); // the list refreshes when done
    void setRunTags(qint64 id, const QStringList& tags);
    void deleteRuns(const QList<qint64>& ids); // deleteFinished(n)
    void selectRuns(const QList<qint64>& ids);
    QList<qint64> selectedIds() const;
    // Loads the run on the service; openRequested(record, "from the history, run N") follows, or a message.
    void openRun(qint64 id);
    // Loads the runs on the service (a job with progress), then ReportExport::exportWithDialog with them and their
    // names; reportExportStarted(path) follows ("" when cancelled or not loaded).
    void exportReport(const QList<qint64>& ids);
    // Shows the comparison of these runs (the first is the reference): false with a message when fewer than two,
    // else loads them (a job with progress) and compareFinished(ok) follows.
    bool compareRuns(const QList<qint64>& ids);

signals:
    void listed(); // a list (or a further page of it) is shown
    void importFinished(int imported);
    void exportFinished(bool ok);
    void deleteFinished(int deleted);
    void compareFinished(bool ok);
    void openRequested(const RunRecord& record, const QString& origin);
    void reportExportStarted(const QString& path);

public slots:
    void start() override { refresh(); }
    void cancel() override { }
    void refresh();
    void loadMore();
    void compareSelected();
    void openSelected();
    void exportSelectedReport();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void say(const QString& text);
    void showListing(const HistoryService::Listing& listing, bool append);
    void showComparison(const HistoryService::Loaded& loaded);
    void showImport(const HistoryService::Imported& imported);
    void showReportDialog(const HistoryService::Loaded& loaded);
    void jobStarted();
    void jobEnded();
    HistoryService::Progress progressBar();
    void updateButtons();
    void askImport();
    void askExport();
    void askRename();
    void askTags();
    void askDelete();
    QString labelOf(qint64 id) const;

    HistoryService* m_service = nullptr;
    QString m_storeError;
    int m_total = 0;
    int m_generation = 0; // of list requests: an answer to an older one is dropped
    int m_jobs = 0;
    QList<qint64> m_selectWhenListed;
    HistoryFilterBar* m_filter = nullptr;
    HistoryModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    ComparisonModel* m_comparison = nullptr;
    QTableView* m_diffTable = nullptr;
    OverlayChartView* m_chart = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_settingsDiff = nullptr;
    QLabel* m_paging = nullptr;
    QPushButton* m_moreButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QTimer* m_debounce = nullptr;
    QPushButton* m_openButton = nullptr;
    QPushButton* m_reportButton = nullptr;
    QPushButton* m_exportButton = nullptr;
    QPushButton* m_renameButton = nullptr;
    QPushButton* m_tagButton = nullptr;
    QPushButton* m_deleteButton = nullptr;
    QPushButton* m_compareButton = nullptr;
};
