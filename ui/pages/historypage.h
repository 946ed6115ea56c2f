#pragma once

#include "core/store/runstore.h"
#include "ui/pages/page.h"

#include <memory>

class ComparisonModel;
class HistoryFilterBar;
class HistoryModel;
class OverlayChartView;
class ProbeRunner;
class QLabel;
class QMimeData;
class QPushButton;
class QTableView;
class QTimer;

// The History page: every saved run (the GUI's and dirbench-cli's), filtered by kind, tag and text; rename, tag,
// delete (asks first), import RunRecord JSON (file dialog, or dropped on the window: MainWindow forwards drops),
// export; and the comparison of two or more selected runs: their intervals overlaid and a table of differences
// (core/store/comparison). It refreshes when a page's run has been saved (RunRecorder::runSaved). The queries are
// small (a list is one indexed SELECT of at most 500 rows; a comparison loads the selected records).
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
    OverlayChartView* overlayChart() const { return m_chart; }
    HistoryFilterBar* filterBar() const { return m_filter; }
    QTableView* table() const { return m_table; }
    QString storeError() const { return m_storeError; }
    QString lastMessage() const;

    // The .json files among dropped URLs (local files only).
    static QStringList jsonFiles(const QMimeData* mime);
    // Validates every file first; imports those that are valid. Returns how many were imported.
    int importFiles(const QStringList& paths);
    bool exportRun(qint64 id, const QString& path);
    bool renameRun(qint64 id, const QString& name);
    bool setRunTags(qint64 id, const QStringList& tags);
    int deleteRuns(const QList<qint64>& ids);
    void selectRuns(const QList<qint64>& ids);
    QList<qint64> selectedIds() const;
    // Shows the comparison of these runs (the first is the reference). False with a message when fewer than two.
    bool compareRuns(const QList<qint64>& ids);

public slots:
    void start() override { refresh(); }
    void cancel() override { }
    void refresh();
    void compareSelected();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void say(const QString& text);
    void updateButtons();
    void askImport();
    void askExport();
    void askRename();
    void askTags();
    void askDelete();
    QString labelOf(qint64 id) const;

    std::unique_ptr<RunStore> m_store;
    QString m_storeError;
    HistoryFilterBar* m_filter = nullptr;
    HistoryModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    ComparisonModel* m_comparison = nullptr;
    QTableView* m_diffTable = nullptr;
    OverlayChartView* m_chart = nullptr;
    QLabel* m_message = nullptr;
    QTimer* m_debounce = nullptr;
    QPushButton* m_exportButton = nullptr;
    QPushButton* m_renameButton = nullptr;
    QPushButton* m_tagButton = nullptr;
    QPushButton* m_deleteButton = nullptr;
    QPushButton* m_compareButton = nullptr;
};
