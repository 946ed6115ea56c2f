#pragma once

#include "core/common/sample.h"

#include <QList>
#include <QString>

#include <optional>

// What each agent of a running load from many hosts is doing, as the coordinator last heard (CoordinatorSpec::
// publishAgentStates): published through the run's samples as a Sample of its own series (kSeries), which is not
// an interval: the merged intervals and the record are untouched, and a reader of intervals skips it
// (Sample::isStatus()).
namespace Agents {

struct AgentLiveRow
{
    QString name;
    QString state; // launched, connected, ready, clock measured, running, done, lost, failed
    double okPerS = 0; // its last interval
    double opsPerS = 0;
    double ok = 0; // its successes so far
    double cpuS = -1; // its process's CPU seconds so far; < 0: not known yet

    bool operator==(const AgentLiveRow&) const = default;
};

struct AgentsLive
{
    static constexpr char16_t kSeries[] = u"status: agents";
    QList<AgentLiveRow> rows;

    Sample toSample(double t) const;
    static std::optional<AgentsLive> fromSample(const Sample& s); // nullopt: not an agents sample
};

} // namespace Agents
