#include "ui/pages/historypage.h"

#include "core/run/proberunner.h"
#include "core/store/recordfile.h"
#include "core/store/runrecorder.h"
#include "ui/charts/overlaychartview.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/historymodel.h"
#include "ui/widgets/historyfilterbar.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

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
    , m_store(std::make_unique<RunStore>())
    , m_filter(new HistoryFilterBar(this))
    , m_model(new HistoryModel(this))
    , m_table(new QTableView(this))
    , m_comparison(new ComparisonModel(this))
    , m_diffTable(new QTableView(this))
    , m_chart(new OverlayChartView(this))
    , m_message(new QLabel(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("historyPage"));
    setAcceptDrops(true);
    ProbeError e;
    if (!m_store->open({}, &e))
        m_storeError = e.message();

    auto* importButton = button(tr("Import…"), "historyImport", this);
    m_exportButton = button(tr("Export…"), "historyExport", this);
    m_renameButton = button(tr("Rename…"), "historyRename", this);
    m_tagButton = button(tr("Tags…"), "historyTags", this);
    m_deleteButton = button(tr("Delete…"), "historyDelete", this);
    m_compareButton = button(tr("Compare"), "historyCompare", this);
    m_compareButton->setToolTip(tr("Compare the selected runs (the first selected is the reference)"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_filter, 1);
    for (QPushButton* b :
        { importButton, m_exportButton, m_renameButton, m_tagButton, m_deleteButton, m_compareButton })
        buttons->addWidget(b);

    m_table->setObjectName(QStringLiteral("historyTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_diffTable->setObjectName(QStringLiteral("historyDiffTable"));
    m_diffTable->setModel(m_comparison);
    m_diffTable->verticalHeader()->hide();
    m_diffTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_message->setObjectName(QStringLiteral("historyMessage"));
    m_message->setWordWrap(true);
    m_message->setText(m_storeError.isEmpty()
            ? tr("Drop RunRecord JSON files (dirbench-cli --json, history export) here to import them.")
            : tr("The history cannot be opened: %1").arg(m_storeError));

    // Chart and table side by side, half and half (a splitter would give the table its whole content width).
    auto* compareBox = new QWidget(this);
    auto* compareLayout = new QHBoxLayout(compareBox);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    compareLayout->addWidget(m_chart, 1);
    compareLayout->addWidget(m_diffTable, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(compareBox);
    split->setSizes({ 2, 3 }); // the comparison gets the larger part
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);
    layout->addWidget(m_message);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_debounce, &QTimer::timeout, this, &HistoryPage::refresh);
    connect(m_filter, &HistoryFilterBar::filterChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPage::updateButtons);
    connect(m_table, &QTableView::doubleClicked, this, &HistoryPage::askRename);
    connect(importButton, &QPushButton::clicked, this, &HistoryPage::askImport);
    connect(m_exportButton, &QPushButton::clicked, this, &HistoryPage::askExport);
    connect(m_renameButton, &QPushButton::clicked, this, &HistoryPage::askRename);
    connect(m_tagButton, &QPushButton::clicked, this, &HistoryPage::askTags);
    connect(m_deleteButton, &QPushButton::clicked, this, &HistoryPage::askDelete);
    connect(m_compareButton, &QPushButton::clicked, this, &HistoryPage::compareSelected);
    // Every page's run is saved by the runner's recorder; show it when it is.
    connect(RunRecorder::of(runner), &RunRecorder::runSaved, this, &HistoryPage::refresh);
    connect(RunRecorder::of(runner), &RunRecorder::saveFailed, this, &HistoryPage::say);
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
    if (!m_store->isOpen())
        return;
    const QList<qint64> selected = selectedIds();
    QStringList kinds;
    for (const RunStore::Summary& s : m_store->list())
        if (!kinds.contains(s.kind))
            kinds << s.kind;
    kinds.sort();
    m_filter->setKinds(kinds);
    m_model->setRuns(m_store->list(m_filter->filter()));
    m_table->resizeColumnsToContents();
    selectRuns(selected);
    updateButtons();
}

void HistoryPage::updateButtons()
{
    const qsizetype n = selectedIds().size();
    m_exportButton->setEnabled(n == 1);
    m_renameButton->setEnabled(n == 1);
    m_tagButton->setEnabled(n == 1);
    m_deleteButton->setEnabled(n >= 1);
    m_compareButton->setEnabled(n >= 2);
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

int HistoryPage::importFiles(const QStringList& paths)
{
    QStringList errors;
    int imported = 0;
    QList<qint64> ids;
    for (const QString& path : paths) {
        QString why;
        const auto rec = RecordFile::read(path, &why);
        ProbeError e;
        const qint64 id = rec ? m_store->save(*rec, {}, &e) : 0;
        if (id) {
            ++imported;
            ids << id;
        } else {
            errors << (rec ? path + QStringLiteral(": ") + e.message() : why);
        }
    }
    refresh();
    selectRuns(ids);
    QString text = tr("Imported %n run(s).", nullptr, imported);
    if (!errors.isEmpty())
        text += u' ' + tr("Not imported: %1").arg(errors.join(QStringLiteral("; ")));
    say(text);
    return imported;
}

bool HistoryPage::exportRun(qint64 id, const QString& path)
{
    ProbeError e;
    const auto rec = m_store->load(id, &e);
    QString why;
    if (!rec || !RecordFile::write(*rec, path, &why)) {
        say(tr("Export failed: %1").arg(rec ? why : e.message()));
        return false;
    }
    say(tr("Exported %1 to %2").arg(labelOf(id), path));
    return true;
}

bool HistoryPage::renameRun(qint64 id, const QString& name)
{
    const bool ok = m_store->rename(id, name.trimmed());
    refresh();
    return ok;
}

bool HistoryPage::setRunTags(qint64 id, const QStringList& tags)
{
    const bool ok = m_store->setTags(id, tags);
    refresh();
    return ok;
}

int HistoryPage::deleteRuns(const QList<qint64>& ids)
{
    int n = 0;
    for (const qint64 id : ids)
        n += m_store->remove(id) ? 1 : 0;
    refresh();
    say(tr("Deleted %n run(s).", nullptr, n));
    return n;
}

QString HistoryPage::labelOf(qint64 id) const
{
    const auto s = m_store->summary(id);
    return s && !s->name.isEmpty() ? s->name : tr("run %1").arg(id);
}

bool HistoryPage::compareRuns(const QList<qint64>& ids)
{
    if (ids.size() < 2) {
        say(tr("Select two or more runs to compare (Ctrl+click)."));
        return false;
    }
    QList<ComparisonModel::Run> runs;
    QList<OverlayChartView::Run> lines;
    for (const qint64 id : ids) {
        ProbeError e;
        const auto rec = m_store->load(id, &e);
        if (!rec) {
            say(tr("Cannot compare %1: %2").arg(labelOf(id), e.message()));
            return false;
        }
        runs << ComparisonModel::Run { labelOf(id), *rec };
        lines << OverlayChartView::Run { labelOf(id), *rec };
    }
    m_comparison->setRuns(runs);
    m_chart->setRuns(lines);
    QStringList others;
    for (qsizetype i = 1; i < runs.size(); ++i)
        others << runs.at(i).label;
    say(tr("%1 compared with %2, the reference.").arg(others.join(QStringLiteral(", ")), runs.first().label));
    return true;
}

void HistoryPage::compareSelected()
{
    compareRuns(selectedIds());
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
        QSettings().value(QLatin1String(kDirKey)).toString() + QStringLiteral("/run-%1.json").arg(ids.first()),
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
    d->setTextValue(m_store->summary(ids.first())->name);
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
    d->setTextValue(m_store->summary(ids.first())->tags.join(QStringLiteral(", ")));
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
