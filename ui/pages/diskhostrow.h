#pragma once

#include "core/agents/remoterun.h"
#include "core/common/proberror.h"
#include "core/disk/diskspec.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

// Where the Disk page's test runs: this machine, or a host (`dirbench-cli disk --host`: an ssh destination as
// `--agents` takes them, the ssh options, the program there). Check asks the host's agent, off the GUI thread,
// for its version and the file systems it can test (offered as the test's directory). Field names (the options,
// property "cliOption"): host, ssh-option, agent-command.
class DiskHostRow final : public QWidget
{
    Q_OBJECT
public:
    explicit DiskHostRow(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(DiskHostRow)

    bool onHost() const;
    void setOnHost(bool on);
    void setHost(const QString& destination);
    void setSshOptions(const QString& options);
    void setAgentCommand(const QString& command);

    // The run on the host for `spec` (nullopt: this machine), or an error naming the field.
    ProbeError read(const DiskSpec& spec, std::optional<Agents::RemoteRunSpec>* remote) const;

    void runCheck();
    bool isChecking() const { return m_checking; }
    QString checkText() const;
    void setInputsEnabled(bool enabled);

    static bool ownsField(const QString& field);
    static QString fieldLabel(const QString& field); // "" for a field not its own
    QWidget* field(const QString& name) const { return m_fields.value(name); }

signals:
    void placeChanged(bool onHost);
    void checkFinished(const QStringList& mountPoints); // empty when the host could not be asked
    void edited();

private:
    void updateEnabled();
    void showCheck(const Agents::HostCheck& check);

    QComboBox* m_placeCombo;
    QLineEdit* m_hostEdit;
    QPushButton* m_checkButton;
    QLineEdit* m_sshEdit;
    QLineEdit* m_commandEdit;
    QLabel* m_checkLabel;
    QLabel* m_checkErrorLabel;
    QHash<QString, QWidget*> m_fields;
    bool m_inputsEnabled = true;
    bool m_checking = false;
};
