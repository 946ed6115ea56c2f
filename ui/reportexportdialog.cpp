#include "ui/reportexportdialog.h"

#include "ui/report/report.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

ReportExportDialog::ReportExportDialog(const QList<RunRecord>& records, const QStringList& names, QWidget* parent)
    : QDialog(parent)
    , m_records(records)
    , m_names(names)
    , m_title(new QLineEdit(ReportOptions().title, this))
    , m_author(new QLineEdit(this))
    , m_path(new QLineEdit(QDir::home().filePath(QStringLiteral("dirbench-report.pdf")), this))
    , m_runs(new QListWidget(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("reportExportDialog"));
    setWindowTitle(tr("Export report"));
    m_title->setObjectName(QStringLiteral("reportTitle"));
    m_author->setObjectName(QStringLiteral("reportAuthor"));
    m_author->setPlaceholderText(tr("who prepared it (optional)"));
    m_path->setObjectName(QStringLiteral("reportPath"));
    m_runs->setObjectName(QStringLiteral("reportRuns"));
    auto* browse = new QPushButton(tr("Choose…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);

    ReportOptions options;
    options.runNames = names;
    for (qsizetype i = 0; i < records.size(); ++i) {
        const RunRecord& r = records.at(i);
        auto* item = new QListWidgetItem(tr("%1 (%2, %3)")
                                             .arg(Report::runName(records, options, i), r.kind,
                                                 r.started.toString(QStringLiteral("yyyy-MM-dd HH:mm"))),
            m_runs);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }

    auto* form = new QFormLayout;
    form->addRow(tr("&Title:"), m_title);
    form->addRow(tr("&Author:"), m_author);
    // A row of a layout has no buddy of its own: the label is given its field, or it would show "&File:".
    auto* fileLabel = new QLabel(tr("&File:"), this);
    fileLabel->setBuddy(m_path);
    form->addRow(fileLabel, pathRow);
    auto* hint = new QLabel(tr("The file's ending picks the format: .pdf, .html, or .csv (the intervals only)."), this);
    hint->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    auto* runsLabel = new QLabel(tr("&Runs in the report:"), this);
    runsLabel->setBuddy(m_runs);
    layout->addWidget(runsLabel);
    layout->addWidget(m_runs, 1);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));

    connect(browse, &QPushButton::clicked, this, &ReportExportDialog::choosePath);
    connect(m_path, &QLineEdit::textChanged, this, &ReportExportDialog::updateButtons);
    connect(m_runs, &QListWidget::itemChanged, this, &ReportExportDialog::updateButtons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(560, 420);
    updateButtons();
}

ReportExport::Request ReportExportDialog::request() const
{
    ReportExport::Request req;
    for (int i = 0; i < m_runs->count() && i < m_records.size(); ++i) {
        if (m_runs->item(i)->checkState() != Qt::Checked)
            continue;
        req.records << m_records.at(i);
        req.names << m_names.value(i);
    }
    req.path = m_path->text().trimmed();
    req.title = m_title->text().trimmed();
    req.author = m_author->text().trimmed();
    return req;
}

void ReportExportDialog::choosePath()
{
    QString filter = tr("PDF report (*.pdf)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export report"), m_path->text(),
        tr("PDF report (*.pdf);;HTML report (*.html);;Intervals as CSV (*.csv)"), &filter);
    if (!path.isEmpty())
        m_path->setText(path);
}

void ReportExportDialog::updateButtons()
{
    bool anyRun = false;
    for (int i = 0; i < m_runs->count(); ++i)
        anyRun = anyRun || m_runs->item(i)->checkState() == Qt::Checked;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(anyRun && !m_path->text().trimmed().isEmpty());
}
