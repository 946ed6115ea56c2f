#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Where agents run, from `--agents`: `local:N` (N child processes here, no ssh), host names as in ~/.ssh/config
// (`load1,load2`), `@FILE` (one host a line, # comments), `ansible:INVENTORY:GROUP` (read with
// `ansible-inventory -i INVENTORY --list`), `k8s:[NAMESPACE/]JOB:N` (the N pods of an Indexed Job written by
// `agents k8s-manifest`, reached with `kubectl attach -i`), and `this` (a child process here) among them.
namespace Agents {

struct AgentHost
{
    QString name; // "local 1", "this" or the ssh destination
    bool local = false; // a child process of this machine, no ssh
    // A pod of a Kubernetes Indexed Job (k8s:...): its agent already runs, waiting on stdin; kubectl attaches to it.
    QString k8sJob, k8sNamespace; // the namespace empty: kubectl's current one
    int k8sIndex = -1; // the pod's completion index; -1: not a pod

    bool isPod() const { return k8sIndex >= 0; }
    static AgentHost named(const QString& name, bool local = false)
    {
        AgentHost h;
        h.name = name;
        h.local = local;
        return h;
    }
};

// nullopt and *error (the message for `--agents`) when the list is empty or cannot be read.
std::optional<QList<AgentHost>> parseAgentList(const QString& text, QString* error);

// The hosts of a group in `ansible-inventory --list` output (children followed), in order, each once.
QStringList ansibleGroupHosts(const QByteArray& inventoryJson, const QString& group, QString* error);

} // namespace Agents
