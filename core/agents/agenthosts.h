#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Where agents run, from `--agents`: `local:N` (N child processes here, no ssh), host names as in ~/.ssh/config
// (`load1,load2`), `@FILE` (one host a line, # comments), `ansible:INVENTORY:GROUP` (read with
// `ansible-inventory -i INVENTORY --list`), and `this` (a child process here) among them.
namespace Agents {

struct AgentHost
{
    QString name; // "local 1", "this" or the ssh destination
    bool local = false; // a child process of this machine, no ssh
};

// nullopt and *error (the message for `--agents`) when the list is empty or cannot be read.
std::optional<QList<AgentHost>> parseAgentList(const QString& text, QString* error);

// The hosts of a group in `ansible-inventory --list` output (children followed), in order, each once.
QStringList ansibleGroupHosts(const QByteArray& inventoryJson, const QString& group, QString* error);

} // namespace Agents
