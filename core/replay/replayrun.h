#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/monitorreader.h"
#include "core/replay/replayplan.h"
#include "core/replay/replayspec.h"
#include "core/replay/replaysummary.h"
#include "core/replay/replayworker.h"
#include "core/replay/replaywrites.h"

#include <QMap>

#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

class RunContext;

namespace Replay {

// One replay of a workload against a server (record kind "replay"), its steps in the order the run takes them:
// plan, connect the setup session and identify the server, read the entries the replay will write, start the
// threads (each driving its share of the logged connections), measure interval by interval (each operation in
// the interval it completed in), stop, undo the writes (also on cancel or failure), summarise with the fidelity
// report. The intervals and summary are the LDAP load's (LoadInterval, LoadSummary, by_operation per kind).
class ReplayRun
{
public:
    ReplayRun(ReplaySpec spec, std::shared_ptr<const Workload> workload, ReplayPasswords passwords, RunContext& ctx);
    ~ReplayRun();
    ReplayRun(const ReplayRun&) = delete;
    ReplayRun& operator=(const ReplayRun&) = delete;

    RunRecord run();

private:
    bool prepare();
    bool connectAndIdentify();
    bool snapshotWrites();
    void startWorkers();
    void measure();
    void stopWorkers();
    void undoWrites();
    void summarise();
    void addWarnings();
    RunRecord finished();

    bool allFinished() const;
    uint64_t intervalEnd(int64_t index) const;
    // The interval `index`, up to endNs; with lastIndex > index, what the next ones counted too (a last sliver).
    void emitInterval(int64_t index, uint64_t endNs, int64_t lastIndex = -1);
    static double processCpuSeconds();
    QJsonValue serverInterval();
    ReplayIntervalExtra intervalExtra(const ReplayStats& s, uint64_t beginNs, uint64_t endNs) const;
    QString lastError() const;

    ReplaySpec m_spec;
    std::shared_ptr<const Workload> m_workload;
    ReplayPasswords m_passwords;
    RunContext& m_ctx;
    RunRecord m_rec;
    QString m_tag;
    std::optional<ReplayPlan> m_plan;
    LdapSession m_setup;
    std::unique_ptr<MonitorReader> m_monitor;
    bool m_monitorOk = false;
    QMap<QString, double> m_monStart, m_monBefore, m_monEnd;
    uint64_t m_monBeforeNs = 0;
    ReplayWrites m_writes;
    bool m_writesArmed = false;
    std::optional<ReplayWrites::Outcome> m_undo;
    std::unique_ptr<ReplayShared> m_shared;
    std::vector<std::unique_ptr<ReplayWorker>> m_workers;
    std::vector<std::thread> m_pool;
    ReplayStats m_total;
    std::vector<LoadCounts> m_byTemplate;
    std::vector<uint64_t> m_sentPerSecond; // every thread's sends, by second after t0
    std::vector<uint64_t> m_answeredPerSecond; // every thread's answers received, by second after t0
    std::vector<uint64_t> m_scheduledPerSecond; // open loop: the plan's sends by scheduled second
    bool m_cancelled = false;
    int64_t m_next = 0;
    uint64_t m_t0 = 0, m_tEnd = 0, m_endAll = UINT64_MAX;
    double m_cpu0 = 0, m_cpu = 0, m_loadCpu = 0;
};

RunRecord runReplay(const ReplaySpec& spec, std::shared_ptr<const Workload> workload, const ReplayPasswords& passwords,
    RunContext& ctx);

inline std::function<RunRecord(RunContext&)> makeReplayJob(
    ReplaySpec spec, std::shared_ptr<const Workload> workload, ReplayPasswords passwords)
{
    return [spec = std::move(spec), workload = std::move(workload), passwords = std::move(passwords)](
               RunContext& ctx) { return runReplay(spec, workload, passwords, ctx); };
}

} // namespace Replay
