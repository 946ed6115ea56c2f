#include "ui/pages/sshfields.h"

#include <QCoreApplication>
#include <QProcess>

namespace SshFields {

ProbeError read(const QString& sshText, const QString& commandText, QStringList* sshOptions, QString* command)
{
    const QString ssh = sshText.trimmed();
    *sshOptions = QProcess::splitCommand(ssh);
    if (!ssh.isEmpty() && sshOptions->isEmpty())
        return ProbeError::invalid(QStringLiteral("ssh-option"),
            QCoreApplication::translate("SshFields", "cannot be split into arguments (a quote open?)"));
    *command = commandText.trimmed();
    if (command->isEmpty())
        return ProbeError::invalid(
            QStringLiteral("agent-command"), QCoreApplication::translate("SshFields", "required, e.g. dirbench-cli"));
    return {};
}

} // namespace SshFields
