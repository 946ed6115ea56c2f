#pragma once

#include "core/common/proberror.h"
#include "core/experiments/guided.h"
#include "ui/widgets/formerror.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

// The settings of the guide's experiments: points of the thread sweep (client threads, or the server's
// nsslapd-threadnumber with an optional sandbox restart), the TLS server for the TLS cost, the directory sizes of
// the database-size experiment, and the seconds per point. Each read* fills the experiment's own fields of a spec
// (the LDAP page gives connection and search) and names the field it cannot read: points, server-threads,
// tls-uri, tls-ca-file, entries, seconds.
class ExperimentForm final : public QWidget
{
    Q_OBJECT
public:
    explicit ExperimentForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ExperimentForm)

    ProbeError readThreadSweep(ThreadSweepSpec* spec) const;
    ProbeError readTlsCost(TlsCostSpec* spec) const;
    ProbeError readDatabaseSize(DatabaseSizeSpec* spec) const;

    QLineEdit* edit(const QString& field) const { return m_edits.value(field); }
    void setText(const QString& field, const QString& text);
    void setRestart(bool restart);
    void setSeconds(double seconds);
    void showError(const ProbeError& error);
    void clearError();
    QString errorField() const { return m_error.field(); }
    QString errorText() const;
    void setInputsEnabled(bool enabled);

private:
    QLineEdit* addEdit(const QString& field, const QString& placeholder, const QString& tip);
    static ProbeError readList(const QString& field, const QString& text, int lo, int hi, QList<int>* out);

    QHash<QString, QLineEdit*> m_edits;
    QLineEdit* m_points = nullptr; // client threads of a thread sweep
    QLineEdit* m_entries = nullptr; // directory sizes

    QHash<QString, QString> m_labels; // field -> its row's label
    QCheckBox* m_startTls = nullptr;
    QCheckBox* m_restart = nullptr;
    QDoubleSpinBox* m_seconds = nullptr;
    QLabel* m_errorLabel = nullptr;
    FormErrorLine m_error; // on m_errorLabel
};
