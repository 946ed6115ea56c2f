#pragma once

#include "core/common/proberror.h"
#include "core/workload/workloadanalyze.h"
#include "ui/widgets/formerror.h"

#include <QHash>
#include <QStringList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;

// The inputs of a workload analysis: the access log files (several, gzip'd or not, rotated ones in any order), the
// format, and the optional filters (from/to, client address, operation kinds), plus "keep values" for a saved
// workload. Field names are the CLI's: log, format, from, to, client, operations.
class WorkloadForm final : public QWidget
{
    Q_OBJECT
public:
    explicit WorkloadForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(WorkloadForm)

    // Fills *options (logs, format, filter, keepValues); an error naming the field when an input is wrong, the
    // files checked readable (a stat and an open, nothing read).
    ProbeError readOptions(AnalyzeOptions* options) const;

    void setFiles(const QStringList& files);
    QStringList files() const;
    void setFormatText(const QString& option); // "auto", "389", "openldap", "accesslog-ldif"
    void setText(const QString& field, const QString& text); // from, to, client, operations
    void setKeepValues(bool keep);
    bool keepValues() const;

    void showError(const ProbeError& error);
    void clearError();
    QString errorField() const { return m_error.field(); }
    QString errorText() const;
    void setInputsEnabled(bool enabled);
    static QString fieldLabel(const QString& field);

private:
    void chooseFiles();
    ProbeError readFilter(WorkloadFilter* filter) const;

    QListWidget* m_files = nullptr;
    QComboBox* m_format = nullptr;
    QCheckBox* m_keepValues = nullptr;
    QLabel* m_errorLabel = nullptr;
    FormErrorLine m_error; // on m_errorLabel
    QHash<QString, QLineEdit*> m_edits;
    QLineEdit* m_from = nullptr;
    QLineEdit* m_to = nullptr;
    QLineEdit* m_client = nullptr;
    QLineEdit* m_operations = nullptr;
    QHash<QString, QWidget*> m_fields;
    QList<QWidget*> m_inputs;
};
