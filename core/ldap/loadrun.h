#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadspec.h"
#include "core/ldap/loadstats.h"
#include "core/ldap/monitorreader.h"

#include <QMap>

#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

class RunContext;
class LoadWorker;
class OperationSource;
struct LoadShared;

namespace Ldap {

// What a caller may supply from outside a load run: when its measured phase begins (a coordinator starting many
// hosts at one instant) and where its operations come from (a replay); by default now + warm-up, and the mix.
struct LoadRunOptions
{
    std::optional<uint64_t> startAtNs; // CLOCK_MONOTONIC; the warm-up is whatever time is left before it
    std::shared_ptr<const OperationSource> source;
    // Called once every worker has connected (and bound): returns the start instant (CLOCK_MONOTONIC) when it
    // is known only then (an agent reports ready and waits for the coordinator), or nullopt to stop the run.
    // The workers keep loading the server (warm-up) while it waits.
    std::function<std::optional<uint64_t>()> startGate;
    std::function<void(uint64_t monotonicNs)> onStarted; // the instant the measured phase actually began
    QByteArray runTag; // names added entries (uid=dirbench-TAG-...); empty: pid and a random number
};

// One LDAP load, its steps in the order the run takes them: connect and identify the server, start the workers,
// warm up, measure (interval by interval, each operation in the interval it completed in), stop and clean up,
// summarise. A run whose target is gone for longer than the failure window fails with what it measured so far;
// write loads remove what they added, also on cancel or failure.
class LoadRun
{
public:
    LoadRun(const LdapLoadSpec& spec, RunContext& ctx, LoadRunOptions options = {});
    ~LoadRun();
    LoadRun(const LoadRun&) = delete;
    LoadRun& operator=(const LoadRun&) = delete;

    RunRecord run();

private:
    bool prepare();
    bool connectAndIdentify();
    void startWorkers();
    void warmUp();
    void measure();
    void stopWorkers();
    void readEndCounters();
    void cleanUp();
    void summarise();
    void addWarnings();
    RunRecord finished();

    bool stopping(uint64_t now, bool warmingUp); // cancel, failure window, error limit
    bool waitUntil(uint64_t t); // false when the run stops first
    uint64_t intervalEnd(int64_t index) const;
    void waitForWatermarks(uint64_t t);
    void emitInterval(int64_t index, uint64_t endNs);
    QJsonValue serverInterval();
    void applyStep(int step);
    double loadCpuSeconds(); // the load threads' CPU clocks, summed
    QString lastError() const;

    LdapLoadSpec m_spec;
    RunContext& m_ctx;
    LoadRunOptions m_options;
    RunRecord m_rec;
    std::optional<CompiledLoad> m_load;
    LdapSession m_setup;
    QString m_serverKind;
    std::unique_ptr<MonitorReader> m_monitor;
    bool m_monitorOk = false;
    QMap<QString, double> m_monStart, m_monBefore;
    QMap<QString, double> m_monEnd; // read when the measured span ended, before a write load's cleanup
    uint64_t m_monBeforeNs = 0;
    uint64_t m_monitorRetryNs = 0;
    std::unique_ptr<LoadShared> m_shared;
    std::vector<std::unique_ptr<LoadWorker>> m_workers;
    std::vector<std::thread> m_pool;
    LoadStats m_total;
    QString m_failure;
    bool m_windowFailure = false;
    bool m_cancelled = false;
    int m_step = -1;
    int64_t m_next = 0; // the next interval to emit
    uint64_t m_t0 = 0, m_tEnd = 0, m_endAll = 0;
    double m_cpu0 = 0, m_cpu = 0;
    double m_loadCpu0 = 0, m_loadCpu = 0;
};

} // namespace Ldap
