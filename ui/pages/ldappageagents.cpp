// The LDAP page's load from agents ("these hosts" or both on the Hosts tab) and the live samples: intervals to the
// load view, the agents' status samples to the strip.
#include "core/agents/agentargs.h"
#include "core/agents/agentlive.h"
#include "core/ldap/loadspec.h"
#include "core/workload/serverlogtail.h"
#include "ui/pages/ldapagentsform.h"
#include "ui/pages/ldappage.h"
#include "ui/widgets/agentstrip.h"
#include "ui/widgets/ldaploadview.h"

#include <memory>
#include <tuple>

// A load from agents: the hosts (a file, ansible-inventory), the split's rules (at least a thread per agent: the
// error names Threads) and the load are checked off the GUI thread, before any agent starts.
void LdapPage::startWithAgents(const LdapLoadSpec& spec)
{
    auto agents = std::make_shared<Agents::CoordinatorSpec>();
    if (const ProbeError e = m_agentsForm->readSettings(agents.get()); e.isError()) {
        showError(e);
        return;
    }
    const QString lines = m_agentsForm->hostsText();
    const bool withThis = m_agentsForm->source() == LdapAgentsForm::Source::Both;
    checkOffThread(
        [spec, agents, lines, withThis] {
            ProbeError e;
            const auto hosts = LdapAgentsForm::hosts(lines, withThis, &e);
            if (!hosts)
                return e;
            if (e = Agents::checkAgentSplit(spec, int(hosts->size())); e.isError())
                return e;
            std::ignore = CompiledLoad::compile(spec, &e);
            agents->hosts = *hosts;
            agents->load = spec;
            agents->args = Agents::agentLoadArgs(spec);
            return e;
        },
        [this, spec, agents] {
            m_agentsRun = *agents;
            startChecked(spec);
        });
}

void LdapPage::onSamples(int runId, const SampleBatch& samples)
{
    if (runId != m_runId || runId == 0 || m_probing)
        return;
    SampleBatch intervals;
    for (const Sample& s : samples) {
        if (const auto live = Agents::AgentsLive::fromSample(s))
            m_strip->showLive(*live);
        else if (const auto slice = ServerLogTail::Slice::fromSample(s))
            m_loadView->addServerSlice(*slice);
        else if (!s.isStatus())
            intervals << s;
    }
    m_loadView->addSamples(intervals);
}
