// The coordinator's status samples for the GUI (CoordinatorSpec::publishAgentStates, agentlive.h).
#include "core/agents/agentlive.h"
#include "core/agents/coordinator_p.h"
#include "core/run/runcontext.h"

#include <algorithm>

namespace Agents {

namespace {

QString stateName(const AgentLink& a)
{
    switch (a.phase) {
    case AgentLink::Phase::Launched:
        return QStringLiteral("launched");
    case AgentLink::Phase::Hello:
        return QStringLiteral("connected");
    case AgentLink::Phase::Ready:
        return QStringLiteral("ready");
    case AgentLink::Phase::Probed:
        return QStringLiteral("clock measured");
    case AgentLink::Phase::Started:
        return QStringLiteral("running");
    case AgentLink::Phase::Final:
        return a.final.value(QStringLiteral("status")).toString(QStringLiteral("done"));
    case AgentLink::Phase::Lost:
        break;
    }
    return QStringLiteral("lost");
}

} // namespace

// Each agent's state and its own last figures, for the GUI's strip (agentlive.h); the merged figures are apart.
void Coordinator::publishStates()
{
    if (!m_spec.publishAgentStates)
        return;
    AgentsLive live;
    double t = 0;
    for (const auto& a : m_agents) {
        AgentLiveRow row;
        row.name = a->name();
        row.state = stateName(*a);
        row.cpuS = a->cpuS;
        for (const LoadInterval& iv : a->intervals)
            row.ok += iv.all.ok;
        if (!a->intervals.isEmpty()) {
            row.okPerS = a->intervals.constLast().all.okPerS;
            row.opsPerS = a->intervals.constLast().all.opsPerS;
            t = std::max(t, a->intervals.constLast().t);
        }
        live.rows << row;
    }
    m_ctx.addSample(live.toSample(t));
}

} // namespace Agents
