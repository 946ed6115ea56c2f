#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/loadresult.h"

#include <QList>
#include <QString>

#include <optional>

// A load from many hosts (Coordinator::record writes extra.agents[] and extra.start_spread_ms) read into typed values
// in one place: the window's agent strip and the report's agents table read these fields.
namespace Agents {

struct AgentFigures
{
    QString name;
    int threads = 0; // its share of the load
    std::optional<double> rate; // its share's ops/s, none without a rate
    std::optional<double> ok, offsetMs, rttMs, startNs, cpuS;
    QString status;
    std::optional<QString> failure;
    LoadSummary summary; // the agent's own

    static AgentFigures fromJson(const QJsonObject& o);
};

struct AgentsFigures
{
    QList<AgentFigures> agents;
    std::optional<double> startSpreadMs;

    static AgentsFigures of(const RunRecord& r);
    // The earliest agent start (ns on the coordinator's clock); none when no agent has one.
    std::optional<double> firstStartNs() const;
};

} // namespace Agents
