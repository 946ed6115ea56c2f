#pragma once

#include "ui/reportexport.h"

#include <QDialog>

class QDialogButtonBox;
class QLineEdit;
class QListWidget;

// "Export report…": the report's title and author, the file (its suffix picks PDF, HTML or CSV), and a check box per
// run offered (all checked). Export is enabled while a file is named and at least one run is checked.
class ReportExportDialog final : public QDialog
{
    Q_OBJECT
public:
    ReportExportDialog(const QList<RunRecord>& records, const QStringList& names, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ReportExportDialog)

    QLineEdit* titleEdit() const { return m_title; }
    QLineEdit* authorEdit() const { return m_author; }
    QLineEdit* pathEdit() const { return m_path; }
    QListWidget* runList() const { return m_runs; }
    // What the dialog holds: the checked runs with their names, the file, the title and the author.
    ReportExport::Request request() const;

private:
    void choosePath();
    void updateButtons();

    QList<RunRecord> m_records;
    QStringList m_names;
    QLineEdit* m_title = nullptr;
    QLineEdit* m_author = nullptr;
    QLineEdit* m_path = nullptr;
    QListWidget* m_runs = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};
