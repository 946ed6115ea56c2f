#pragma once

#include "core/common/proberror.h"

#include <QString>
#include <QStringList>

// The ssh options and the program of a form that reaches hosts (the LDAP page's agents, the Disk page's host): the
// options split as a shell would, the program required; an error naming the field ("ssh-option", "agent-command").
namespace SshFields {

ProbeError read(const QString& sshText, const QString& commandText, QStringList* sshOptions, QString* command);

} // namespace SshFields
