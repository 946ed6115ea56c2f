#include "ui/pages/historypage.h"

#include "core/run/proberunner.h"
#include "core/store/runrecorder.h"
#include "ui/charts/overlaychartview.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/historymodel.h"
#include "ui/reportexport.h"
#include "ui/widgets/historyfilterbar.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace {
const char* const kDirKey = "history/lastDirectory";

QPushButton* button(const QString& text, const char* name, QWidget* parent)
{
    auto* b = new QPushButton(text, parent);
    b->setObjectName(QLatin1String(name));
    return b;
}
} // namespace

HistoryPage::HistoryPage(ProbeRunner* runner, QWidget* parent)
    : Page(parent)
    , m_service(RunRecorder::of(runner)->service())
    , m_filter(new HistoryFilterBar(this))
    , m_model(new HistoryModel(this))
    , m_table(new QTableView(this))
    , m_comparison(new ComparisonModel(this))
    , m_diffTable(new QTableView(this))
    , m_chart(new OverlayChartView(this))
    , m_message(new QLabel(this))
    , m_paging(new QLabel(this))
    , m_moreButton(new QPushButton(this))
    , m_progress(new QProgressBar(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("historyPage"));
    setAcceptDrops(true);

    m_openButton = button(tr("Open"), "historyOpen", this);
    m_openButton->setToolTip(tr("Show the selected run in its page, read-only (or double-click it)"));
    m_reportButton = button(tr("Export report…"), "historyReport", this);
    m_reportButton->setToolTip(tr("Write a PDF, HTML or CSV report of the selected runs"));
    auto* importButton = button(tr("Import…"), "historyImport", this);
    m_exportButton = button(tr("Export…"), "historyExport", this);
    m_renameButton = button(tr("Rename…"), "historyRename", this);
    m_tagButton = button(tr("Tags…"), "historyTags", this);
    m_deleteButton = button(tr("Delete…"), "historyDelete", this);
    m_compareButton = button(tr("Compare"), "historyCompare", this);
    m_compareButton->setToolTip(tr("Compare the selected runs (the first selected is the reference)"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_filter, 1);
    for (QPushButton* b : { m_openButton, m_reportButton, importButton, m_exportButton, m_renameButton, m_tagButton,
             m_deleteButton, m_compareButton })
        buttons->addWidget(b);

    m_table->setObjectName(QStringLiteral("historyTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setResizeContentsPrecision(100); // column widths from the first rows, not 10,000
    m_table->setAlternatingRowColors(true);
    m_diffTable->setObjectName(QStringLiteral("historyDiffTable"));
    m_diffTable->setModel(m_comparison);
    m_diffTable->verticalHeader()->hide();
    m_diffTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_message->setObjectName(QStringLiteral("historyMessage"));
    m_message->setWordWrap(true);
    m_message->setText(tr("Drop RunRecord JSON files (dirbench-cli --json, history export) here to import them."));
    m_paging->setObjectName(QStringLiteral("historyPaging"));
    m_moreButton->setObjectName(QStringLiteral("historyMore"));
    m_moreButton->setText(tr("Show %L1 more").arg(RunStore::PageSize));
    m_moreButton->hide();
    m_progress->setObjectName(QStringLiteral("historyProgress"));
    m_progress->setRange(0, 1000);
    m_progress->hide();
    auto* pagingRow = new QHBoxLayout;
    pagingRow->addWidget(m_paging);
    pagingRow->addWidget(m_moreButton);
    pagingRow->addStretch(1);
    pagingRow->addWidget(m_progress, 1);

    // Chart and table side by side, half and half (a splitter would give the table its whole content width).
    auto* compareBox = new QWidget(this);
    auto* compareLayout = new QHBoxLayout(compareBox);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    compareLayout->addWidget(m_chart, 1);
    auto* tableSide = new QVBoxLayout;
    tableSide->addWidget(m_diffTable, 1);
    m_settingsDiff = new QLabel(this);
    m_settingsDiff->setObjectName(QStringLiteral("historySettingsDiff"));
    m_settingsDiff->setWordWrap(true);
    m_settingsDiff->setTextFormat(Qt::PlainText);
    m_settingsDiff->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_settingsDiff->setText(tr("Select two or more runs (Ctrl+click) and Compare: their charts and figures side by "
                               "side here, called better or worse only beyond the runs' own spread."));
    tableSide->addWidget(m_settingsDiff);
    compareLayout->addLayout(tableSide, 1);
    auto* listBox = new QWidget(this);
    auto* listLayout = new QVBoxLayout(listBox);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(m_table, 1);
    listLayout->addLayout(pagingRow);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(listBox);
    split->addWidget(compareBox);
    split->setSizes({ 3, 2 }); // the list gets the larger part: it is what the page opens on
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);
    layout->addWidget(m_message);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_debounce, &QTimer::timeout, this, &HistoryPage::refresh);
    connect(m_filter, &HistoryFilterBar::filterChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPage::updateButtons);
    connect(m_table, &QTableView::doubleClicked, this, &HistoryPage::openSelected);
    connect(m_openButton, &QPushButton::clicked, this, &HistoryPage::openSelected);
    connect(m_reportButton, &QPushButton::clicked, this, &HistoryPage::exportSelectedReport);
    connect(importButton, &QPushButton::clicked, this, &HistoryPage::askImport);
    connect(m_exportButton, &QPushButton::clicked, this, &HistoryPage::askExport);
    connect(m_renameButton, &QPushButton::clicked, this, &HistoryPage::askRename);
    connect(m_tagButton, &QPushButton::clicked, this, &HistoryPage::askTags);
    connect(m_deleteButton, &QPushButton::clicked, this, &HistoryPage::askDelete);
    connect(m_compareButton, &QPushButton::clicked, this, &HistoryPage::compareSelected);
    connect(m_moreButton, &QPushButton::clicked, this, &HistoryPage::loadMore);
    // Every page's run is saved by the runner's recorder through the service; show it when it is.
    connect(m_service, &HistoryService::changed, m_debounce, qOverload<>(&QTimer::start));
    connect(RunRecorder::of(runner), &RunRecorder::saveFailed, this, &HistoryPage::say);
    connect(m_service, &HistoryService::opened, this, [this](bool ok, const QString& why) {
        m_storeError = ok ? QString() : why;
        if (!ok)
            say(tr("The history cannot be opened: %1").arg(why));
    });
    refresh();
}

HistoryPage::~HistoryPage() = default;

QString HistoryPage::lastMessage() const
{
    return m_message->text();
}

void HistoryPage::say(const QString& text)
{
    m_message->setText(text);
    emit statusMessage(text);
}

void HistoryPage::refresh()
{
    RunStore::Filter f = m_filter->filter();
    f.limit = std::max(int(RunStore::PageSize), m_model->rowCount()); // as many rows as are shown now
    const int generation = ++m_generation;
    m_service->list(f, this, [this, generation](const HistoryService::Listing& l) {
        if (generation == m_generation)
            showListing(l, false);
    });
}

void HistoryPage::loadMore()
{
    RunStore::Filter f = m_filter->filter();
    f.offset = m_model->rowCount();
    const int generation = ++m_generation;
    m_moreButton->setEnabled(false);
    m_service->list(f, this, [this, generation](const HistoryService::Listing& l) {
        if (generation == m_generation)
            showListing(l, true);
    });
}

void HistoryPage::showListing(const HistoryService::Listing& l, bool append)
{
    if (!l.error.isEmpty()) {
        m_storeError = l.error;
        m_message->setText(tr("The history cannot be opened: %1").arg(l.error));
        return;
    }
    const QList<qint64> selected = m_selectWhenListed.isEmpty() ? selectedIds() : m_selectWhenListed;
    m_selectWhenListed.clear();
    m_filter->setKinds(l.kinds);
    if (append) {
        m_model->appendRuns(l.runs);
    } else {
        m_model->setRuns(l.runs);
        m_table->resizeColumnsToContents();
    }
    m_total = std::max(l.total, m_model->rowCount());
    m_paging->setText(pagingText());
    m_moreButton->setVisible(m_model->rowCount() < m_total);
    m_moreButton->setEnabled(true);
    selectRuns(selected);
    updateButtons();
    emit listed();
}

QString HistoryPage::pagingText() const
{
    const QLocale en(QLocale::English);
    if (m_model->rowCount() >= m_total)
        return m_total > RunStore::PageSize ? tr("All %1 runs shown").arg(en.toString(m_total)) : QString();
    return tr("Showing %1 of %2 runs").arg(en.toString(m_model->rowCount()), en.toString(m_total));
}

void HistoryPage::jobStarted()
{
    ++m_jobs;
    m_progress->setValue(0);
    m_progress->show();
    updateButtons();
}

void HistoryPage::jobEnded()
{
    m_jobs = std::max(0, m_jobs - 1);
    m_progress->setVisible(m_jobs > 0);
    updateButtons();
}

HistoryService::Progress HistoryPage::progressBar()
{
    return [this](double fraction, const QString& what) {
        m_progress->setValue(int(std::clamp(fraction, 0.0, 1.0) * 1000));
        m_progress->setFormat(what);
    };
}

void HistoryPage::updateButtons()
{
    const qsizetype n = selectedIds().size();
    m_openButton->setEnabled(n == 1);
    m_reportButton->setEnabled(n >= 1 && m_jobs == 0);
    m_exportButton->setEnabled(n == 1);
    m_renameButton->setEnabled(n == 1);
    m_tagButton->setEnabled(n == 1);
    m_deleteButton->setEnabled(n >= 1);
    m_compareButton->setEnabled(n >= 2 && m_jobs == 0);
}

QList<qint64> HistoryPage::selectedIds() const
{
    QList<qint64> ids;
    for (const QModelIndex& i : m_table->selectionModel()->selectedRows())
        ids << m_model->runAt(i.row())->id;
    return ids;
}

void HistoryPage::selectRuns(const QList<qint64>& ids)
{
    QItemSelection sel;
    for (const qint64 id : ids)
        if (const int row = m_model->rowOf(id); row >= 0)
            sel.select(m_model->index(row, 0), m_model->index(row, HistoryModel::ColumnCount - 1));
    m_table->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect);
}

QStringList HistoryPage::jsonFiles(const QMimeData* mime)
{
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl& u : mime->urls())
        if (u.isLocalFile() && u.toLocalFile().endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
            files << u.toLocalFile();
    return files;
}

void HistoryPage::importFiles(const QStringList& paths)
{
    jobStarted();
    m_service->importFiles(paths, this, progressBar(), [this](const HistoryService::Imported& r) { showImport(r); });
}

void HistoryPage::showImport(const HistoryService::Imported& r)
{
    jobEnded();
    m_selectWhenListed = r.ids;
    refresh();
    QString text = tr("Imported %n run(s).", nullptr, int(r.ids.size()));
    if (!r.errors.isEmpty())
        text += u' ' + tr("Not imported: %1").arg(r.errors.join(QStringLiteral("; ")));
    say(text);
    emit importFinished(int(r.ids.size()));
}

void HistoryPage::exportRun(qint64 id, const QString& path)
{
    const QString label = labelOf(id);
    m_service->exportRun(id, path, this, [this, label, path](const QString& why) {
        say(why.isEmpty() ? tr("Exported %1 to %2").arg(label, path) : tr("Export failed: %1").arg(why));
        emit exportFinished(why.isEmpty());
    });
}

void HistoryPage::renameRun(qint64 id, const QString& name)
{
    m_service->rename(id, name.trimmed(), this, [this](bool) { refresh(); });
}

void HistoryPage::setRunTags(qint64 id, const QStringList& tags)
{
    m_service->setTags(id, tags, this, [this](bool) { refresh(); });
}

void HistoryPage::deleteRuns(const QList<qint64>& ids)
{
    m_service->remove(ids, this, [this](int n) {
        refresh();
        say(tr("Deleted %n run(s).", nullptr, n));
        emit deleteFinished(n);
    });
}

QString HistoryPage::labelOf(qint64 id) const
{
    const RunStore::Summary* s = m_model->runAt(m_model->rowOf(id));
    return s && !s->name.isEmpty() ? s->name : tr("run %1").arg(id);
}

bool HistoryPage::compareRuns(const QList<qint64>& ids)
{
    if (ids.size() < 2) {
        say(tr("Select two or more runs to compare (Ctrl+click)."));
        return false;
    }
    jobStarted();
    m_service->load(ids, this, progressBar(), [this](const HistoryService::Loaded& loaded) { showComparison(loaded); });
    return true;
}

void HistoryPage::showComparison(const HistoryService::Loaded& loaded)
{
    jobEnded();
    if (!loaded.error.isEmpty() || loaded.runs.size() < 2) {
        say(loaded.error.isEmpty() ? tr("Select two or more runs to compare (Ctrl+click).") : loaded.error);
        emit compareFinished(false);
        return;
    }
    QList<ComparisonModel::Run> runs;
    QList<OverlayChartView::Run> lines;
    for (const HistoryService::LoadedRun& r : loaded.runs) {
        const QString label = r.summary.name.isEmpty() ? tr("run %1").arg(r.summary.id) : r.summary.name;
        runs << ComparisonModel::Run { label, r.record };
        lines << OverlayChartView::Run { label, r.record };
    }
    m_comparison->setRuns(runs);
    m_settingsDiff->setText(settingsDiffText(runs));
    m_chart->setRuns(lines);
    QStringList others;
    for (qsizetype i = 1; i < runs.size(); ++i)
        others << runs.at(i).label;
    say(tr("%1 compared with %2, the reference.").arg(others.join(QStringLiteral(", ")), runs.first().label));
    emit compareFinished(true);
}

// What was set differently: each later run's settings against the reference's; the table's verdicts say "better"
// or "worse" only beyond the runs' own spread.
QString HistoryPage::settingsDiffText() const
{
    return m_settingsDiff->text();
}

QString HistoryPage::settingsDiffText(const QList<ComparisonModel::Run>& runs)
{
    QStringList lines;
    for (qsizetype i = 1; i < runs.size(); ++i) {
        const QList<Comparison::SettingDiff> diffs = Comparison::settingsDiffer(runs.first().record, runs.at(i).record);
        QStringList parts;
        for (const Comparison::SettingDiff& d : diffs)
            parts << QStringLiteral("%1: %2 → %3").arg(d.key, d.a, d.b);
        lines << (parts.isEmpty() ? tr("%1: the same settings as %2").arg(runs.at(i).label, runs.first().label)
                                  : tr("%1 against %2, settings that differ: %3")
                                        .arg(runs.at(i).label, runs.first().label, parts.join(QStringLiteral("; "))));
    }
    lines << tr("Better or worse only beyond the runs' own spread (their repeats or intervals); otherwise within "
                "noise.");
    return lines.join(u'\n');
}

void HistoryPage::compareSelected()
{
    compareRuns(selectedIds());
}

void HistoryPage::openSelected()
{
    if (const QList<qint64> ids = selectedIds(); ids.size() == 1)
        openRun(ids.first());
}

void HistoryPage::openRun(qint64 id)
{
    m_service->load({ id }, this, {}, [this, id](const HistoryService::Loaded& loaded) {
        if (!loaded.error.isEmpty() || loaded.runs.isEmpty()) {
            say(tr("Cannot open run %1: %2").arg(id).arg(loaded.error));
            return;
        }
        const RunStore::Summary& s = loaded.runs.first().summary;
        const QString origin = s.name.isEmpty() ? tr("from the history, run %1").arg(id)
                                                : tr("from the history, run %1 (%2)").arg(id).arg(s.name);
        emit openRequested(loaded.runs.first().record, origin);
    });
}

void HistoryPage::exportSelectedReport()
{
    exportReport(selectedIds());
}

void HistoryPage::exportReport(const QList<qint64>& ids)
{
    if (ids.isEmpty()) {
        say(tr("Select the runs the report holds (Ctrl+click)."));
        emit reportExportStarted({});
        return;
    }
    jobStarted();
    m_service->load(
        ids, this, progressBar(), [this](const HistoryService::Loaded& loaded) { showReportDialog(loaded); });
}

void HistoryPage::showReportDialog(const HistoryService::Loaded& loaded)
{
    jobEnded();
    if (!loaded.error.isEmpty()) {
        say(tr("Cannot export the report: %1").arg(loaded.error));
        emit reportExportStarted({});
        return;
    }
    QList<RunRecord> records;
    QStringList names;
    for (const HistoryService::LoadedRun& r : loaded.runs) {
        records << r.record;
        names << (r.summary.name.isEmpty() ? tr("run %1").arg(r.summary.id) : r.summary.name);
    }
    const QString path = ReportExport::exportWithDialog(this, records, names);
    if (!path.isEmpty())
        say(tr("Writing the report of %n run(s) to %1…", nullptr, int(records.size())).arg(path));
    emit reportExportStarted(path);
}

void HistoryPage::dragEnterEvent(QDragEnterEvent* event)
{
    if (!jsonFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void HistoryPage::dropEvent(QDropEvent* event)
{
    const QStringList files = jsonFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    importFiles(files);
}

void HistoryPage::askImport()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Import run records"),
        QSettings().value(QLatin1String(kDirKey)).toString(), tr("RunRecord JSON (*.json);;All files (*)"));
    if (files.isEmpty())
        return;
    QSettings().setValue(QLatin1String(kDirKey), QFileInfo(files.first()).absolutePath());
    importFiles(files);
}

void HistoryPage::askExport()
{
    const QList<qint64> ids = selectedIds();
    if (ids.size() != 1)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the run record"),
        QSettings().value(QLatin1String(kDirKey)).toString() + QStringLiteral("/run-%1.dirbench.json").arg(ids.first()),
        tr("RunRecord JSON (*.json)"));
    if (!path.isEmpty())
        exportRun(ids.first(), path);
}

void HistoryPage::askRename()
{
    const QList<qint64> ids = selectedIds();
    if (ids.size() != 1)
        return;
    auto* d = new QInputDialog(this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setWindowTitle(tr("Rename the run"));
    d->setLabelText(tr("Name (a baseline can refer to it: --baseline NAME):"));
    if (const RunStore::Summary* s = m_model->runAt(m_model->rowOf(ids.first())))
        d->setTextValue(s->name);
    connect(
        d, &QInputDialog::textValueSelected, this, [this, id = ids.first()](const QString& t) { renameRun(id, t); });
    d->open();
}

void HistoryPage::askTags()
{
    const QList<qint64> ids = selectedIds();
    if (ids.size() != 1)
        return;
    auto* d = new QInputDialog(this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setWindowTitle(tr("Tags of the run"));
    d->setLabelText(tr("Tags, separated by commas:"));
    if (const RunStore::Summary* s = m_model->runAt(m_model->rowOf(ids.first())))
        d->setTextValue(s->tags.join(QStringLiteral(", ")));
    connect(d, &QInputDialog::textValueSelected, this,
        [this, id = ids.first()](const QString& t) { setRunTags(id, t.split(u',', Qt::SkipEmptyParts)); });
    d->open();
}

void HistoryPage::askDelete()
{
    const QList<qint64> ids = selectedIds();
    if (ids.isEmpty())
        return;
    auto* box = new QMessageBox(QMessageBox::Question, tr("Delete runs"),
        tr("Delete %n run(s) from the history? This cannot be undone.", nullptr, int(ids.size())),
        QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("historyDeleteConfirm"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [this, ids](int result) {
        if (result == QMessageBox::Yes)
            deleteRuns(ids);
    });
    box->open();
}
