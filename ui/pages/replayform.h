#pragma once

#include "core/common/proberror.h"
#include "core/replay/replayspec.h"
#include "ui/widgets/formerror.h"

#include <QHash>
#include <QWidget>

class LdapConnectionForm;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;

// What a replay is asked to do (`dirbench-cli replay`), in three tabs (Workload, Target, Binds and writes): the
// workload (access logs, or a saved .dbwl), the target (its connection: the setup identity that reads the server's
// counters and snapshots and undoes the writes), how values map onto the target's keys, the timing (the logged times ÷
// speed, the log's rate per second, or as fast as possible), the bind passwords, the writes and their base, threads,
// duration and interval. Each input is named by the CLI option it sets (objectName and the property "cliOption"); an
// input that does not apply to the current choice is disabled with the reason in its tooltip, as the CLI refuses it.
// Errors name the field as the CLI does.
class ReplayForm final : public QWidget
{
    Q_OBJECT
public:
    explicit ReplayForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ReplayForm)

    void readSpec(ReplaySpec* spec) const;
    LdapConnectionForm* connection() const { return m_connection; }

    // The source: access logs (several, separated by ';') or one saved workload.
    void setLogs(const QStringList& files);
    void setWorkloadFile(const QString& path);
    void setText(const QString& option, const QString& text); // key-space, write-base, passwords, shared-password-file
    void setTiming(ReplaySpec::Timing timing, double speed = 1);
    void setAllowWrites(bool allow);
    void setNumber(const QString& option, double value); // threads, duration, interval
    QWidget* field(const QString& option) const { return m_fields.value(option); }

    void showError(const ProbeError& error);
    void clearError();
    QString errorField() const { return m_errorField; } // also a connection field
    QString errorText() const;
    void setInputsEnabled(bool enabled);
    static QString fieldLabel(const QString& option);

signals:
    void edited();

private:
    QWidget* buildSource();
    QWidget* buildTiming();
    QWidget* buildWrites();
    QLineEdit* lineField(const QString& option, const QString& placeholder, const QString& tip);
    void name(QWidget* w, const QString& option);
    void chooseSource();
    void updateApplicable();
    void showTabOf(QWidget* field);
    QStringList paths() const;

    LdapConnectionForm* m_connection = nullptr;
    QTabWidget* m_tabs = nullptr;
    QComboBox* m_source = nullptr;
    QLineEdit* m_path = nullptr;
    QComboBox* m_values = nullptr;
    QComboBox* m_timing = nullptr;
    QDoubleSpinBox* m_speed = nullptr;
    QCheckBox* m_allowWrites = nullptr;
    QSpinBox* m_threads = nullptr;
    QDoubleSpinBox* m_duration = nullptr;
    QDoubleSpinBox* m_interval = nullptr;
    QCheckBox* m_serverCounters = nullptr;
    QLabel* m_errorLabel = nullptr;
    FormErrorLine m_error; // on m_errorLabel
    QHash<QString, QWidget*> m_fields; // by CLI option
    QHash<QString, QString> m_tips; // each field's own tooltip (the reason it is disabled replaces it meanwhile)
    QString m_errorField;
};
