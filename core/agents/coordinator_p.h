#pragma once

#include "core/agents/agentprotocol.h"
#include "core/agents/coordinator.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadresult.h"
#include "core/ldap/monitorreader.h"

#include <QEventLoop>
#include <QMap>
#include <QObject>
#include <QProcess>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

namespace Agents {

// One agent as the coordinator sees it: its process, its stream, what it said.
struct AgentLink
{
    enum class Phase
    {
        Launched,
        Hello,
        Ready,
        Probed,
        Started,
        Final,
        Lost
    };
    AgentHost host;
    int index = 0;
    int threads = 0;
    double rate = 0;
    std::unique_ptr<QProcess> proc;
    LineBuffer out, err;
    Phase phase = Phase::Launched;
    QJsonObject hello;
    QList<ClockRound> rounds;
    std::optional<ClockRound> best;
    int64_t startedRealNs = 0; // the agent's clock
    QList<LoadInterval> intervals;
    QJsonObject final;
    double cpuS = -1; // its process's CPU seconds, from its last interval or its final message
    uint64_t lastHeardNs = 0; // monotonic, this machine
    QString lostWhy;
    bool gone = false; // the process has exited

    QString name() const { return host.name; }
    bool done() const { return phase == Phase::Final || phase == Phase::Lost; }
    double offsetMs() const { return best ? double(best->offsetNs()) / 1e6 : 0.0; }
};

class Coordinator : public QObject
{
public:
    Coordinator(const CoordinatorSpec& spec, RunContext& ctx);
    RunRecord run();

private:
    bool openServer();
    void launch(AgentLink& a);
    void onStdout(AgentLink& a);
    void onStderr(AgentLink& a);
    void onFinished(AgentLink& a, int code, QProcess::ExitStatus status);
    void handle(AgentLink& a, const QJsonObject& m);
    void handleMessage(AgentLink& a, const QJsonObject& m);
    void onPong(AgentLink& a, const QJsonObject& m);
    void onInterval(AgentLink& a, const QJsonObject& m);
    void allProbed();
    void sendStart();
    void tick();
    void lose(AgentLink& a, const QString& why);
    void fail(const QString& sentence);
    void stopAll(const QString& reason);
    void send(AgentLink& a, const QJsonObject& m);
    void release();
    void checkDone();
    void publishStates();
    bool all(AgentLink::Phase atLeast) const;
    void readBoundary();
    QJsonValue serverInterval(int64_t k) const;
    const QMap<QString, double>* endReading() const;
    QString sharpName(const AgentLink& a) const;
    RunRecord record();
    QJsonObject agentJson(const AgentLink& a) const;
    QJsonObject specAgents() const;

    CoordinatorSpec m_spec;
    RunContext& m_ctx;
    std::vector<std::unique_ptr<AgentLink>> m_agents;
    QEventLoop m_loop;
    QTimer m_tick;
    RunRecord m_rec;
    QString m_failure;
    bool m_cancelled = false;
    bool m_stopping = false;
    uint64_t m_launchNs = 0, m_stopDeadlineNs = 0, m_hardDeadlineNs = 0;
    int64_t m_t0Real = 0; // the start, this machine's CLOCK_REALTIME
    double m_totalSeconds = 0;
    int64_t m_released = 0;
    QByteArray m_runTag;
    QMap<int64_t, QJsonValue> m_server; // interval index -> the server's counters over it
    LdapSession m_session;
    std::unique_ptr<MonitorReader> m_monitor;
    bool m_monitorOk = false;
    QMap<QString, double> m_monStart;
    // The server's counters read at each interval boundary on this machine's clock (index k: the start of interval
    // k; 0 is read just before t0), with when they were read: merged interval k's are the delta over its own span,
    // whenever the slowest agent reports it.
    struct Reading
    {
        QMap<QString, double> counters;
        int64_t realNs = 0;
    };
    std::vector<Reading> m_boundaries;
};

} // namespace Agents
