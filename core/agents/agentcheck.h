#pragma once

#include "core/agents/coordinator.h"

#include <QJsonObject>
#include <QList>

#include <optional>

// `dirbench-cli agents check` and the LDAP page's "Check agents": each host's agent started as a run starts it,
// its hello (version, CPUs), its clock measured as before a run (8 rounds, the lowest round trip wins), and (with a
// URI) whether it reaches the target from there. Blocking: run it off the GUI thread.
namespace Agents {

struct AgentCheck
{
    AgentHost host;
    QJsonObject hello; // {proto, version, host, pid, cpus, ...}
    QJsonObject reach; // {ok, message}
    std::optional<double> offsetMs, rttMs;
    QString error; // no answer, not the protocol

    QString version() const;
    int cpus() const;
    bool reached() const;
    bool ok() const { return offsetMs && error.isEmpty() && reached(); }
    QString targetText() const; // the error, else what the agent said of the target
};

// The hosts, ssh options and agent command of `spec` (the rest is unused); all hosts started at once, then asked
// one after the other.
QList<AgentCheck> checkAgents(const CoordinatorSpec& spec, const QString& uri);

} // namespace Agents
