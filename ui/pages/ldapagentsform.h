#pragma once

#include "core/agents/agentcheck.h"
#include "core/agents/coordinator.h"
#include "core/common/proberror.h"
#include "ui/widgets/formerror.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

// Where the LDAP page's load comes from: this machine, these hosts (agents, as `dirbench-cli ldap --agents`) or
// both; the hosts one a line (the items of --agents: host names as in ~/.ssh/config, local:N, @FILE,
// ansible:INVENTORY:GROUP, this), ssh options, the agent command, and "Check agents" (`dirbench-cli agents
// check`, off the GUI thread) with a row per host; what a lost agent does and whether a clock skew may start.
// Field names (the options, property "cliOption"): agents, ssh-option, agent-command, on-agent-loss,
// allow-clock-skew.
class LdapAgentsForm final : public QWidget
{
    Q_OBJECT
public:
    enum class Source
    {
        ThisMachine,
        Hosts,
        Both
    };
    explicit LdapAgentsForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(LdapAgentsForm)

    Source source() const;
    void setSource(Source s);
    bool usesAgents() const { return source() != Source::ThisMachine; }
    void setHosts(const QString& lines);
    QString hostsText() const;
    void setSshOptions(const QString& options);
    void setAgentCommand(const QString& command);

    // The coordinator's settings from the form, the hosts left empty (reading them may run ansible-inventory or
    // read a file: hosts(), off the GUI thread). An error naming the field when the ssh options cannot be split.
    ProbeError readSettings(Agents::CoordinatorSpec* spec) const;
    // The hosts of `lines` (one item a line, # comments), `this` first when withThis. Any thread.
    static std::optional<QList<Agents::AgentHost>> hosts(const QString& lines, bool withThis, ProbeError* error);

    // Runs the check against `uri` off the GUI thread and fills the table.
    void runCheck(const QString& uri);
    bool isChecking() const { return m_checking; }
    QTableWidget* checkTable() const { return m_checkTable; }

    static bool ownsField(const QString& field);
    static QString fieldLabel(const QString& field);
    void showError(const ProbeError& error);
    void clearError();
    QString errorField() const { return m_error.field(); }
    QString errorText() const;
    void setInputsEnabled(bool enabled);

signals:
    void checkRequested();
    void checkFinished();

private:
    void updateEnabled();
    void showChecks(const QList<Agents::AgentCheck>& checks);

    QComboBox* m_sourceCombo;
    QPlainTextEdit* m_hostsEdit;
    QLineEdit* m_sshEdit;
    QLineEdit* m_commandEdit;
    QPushButton* m_checkButton;
    QTableWidget* m_checkTable;
    QLabel* m_errorLabel;
    FormErrorLine m_error; // on m_errorLabel
    QComboBox* m_lossCombo;
    QCheckBox* m_clockSkewCheck;
    QHash<QString, QWidget*> m_fields;
    bool m_inputsEnabled = true;
    bool m_checking = false;
};
