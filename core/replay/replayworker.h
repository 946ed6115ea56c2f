#pragma once

#include "core/common/histogram.h"
#include "core/common/intervalclock.h"
#include "core/ldap/ldapconnector.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadstats.h"
#include "core/replay/replayplan.h"

#include <QString>

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

// What a replay's threads count in one interval: all operations and each kind (WorkloadOpKind's values).
struct ReplayStats
{
    static constexpr int Kinds = 10;
    LoadCounts all;
    std::array<LoadCounts, Kinds> byKind;
    uint64_t missed = 0; // open loop: could not be sent within the operation timeout of their time, never sent
    uint64_t connects = 0, connectFailures = 0, unbinds = 0;
    LatencyHistogram sendLag; // open loop: scheduled time to the send

    void merge(const ReplayStats& o);
};

// What the coordinator and the workers share; the workers only read the plan.
struct ReplayShared
{
    ReplayShared(const ReplayPlan& p, const LdapTarget& t, uint64_t intervalNs)
        : plan(p)
        , target(t)
        , clock(intervalNs, 0)
    { }
    const ReplayPlan& plan;
    LdapTarget target; // anonymous: every replayed connection binds as its log says
    IntervalClock clock; // t0 is the replay's start: every scheduled time counts from it
    std::atomic<bool> stop { false };
    std::atomic<uint64_t> endNs { UINT64_MAX }; // completions later than this are outside the measured span
    std::atomic<uint64_t> lastSuccessNs { 0 };
    std::atomic<uint64_t> completed { 0 }; // operations answered, all threads (progress)
};

// One replay thread: its share of the logged connections (one LdapSession each, never shared), each opened at its
// logged time on a thread of its own (LdapConnector: a slow connect, TLS handshake or server never stalls the
// others), its operations sent at their scheduled times with the asynchronous API, multiplexed with poll(). Nothing
// is done before the replay's time 0.
// An operation the log shows sent only after the previous one's result waits for it here too. Latency counts from
// the scheduled time (open loop) or the send (closed loop), and ends when poll() reports the response.
class ReplayWorker
{
public:
    ReplayWorker(ReplayShared& shared, std::vector<size_t> connections);
    ~ReplayWorker();
    ReplayWorker(const ReplayWorker&) = delete;
    ReplayWorker& operator=(const ReplayWorker&) = delete;

    void run(); // returns when every connection is done or shared.stop is set
    void take(int64_t lastIndex, ReplayStats& into); // merges the intervals up to lastIndex not taken yet
    uint64_t watermark() const { return m_watermark.load(std::memory_order_acquire); }
    bool finished() const { return m_finished.load(std::memory_order_acquire); }
    QString lastError() const;
    double cpuSeconds() const { return m_cpuSeconds.load(std::memory_order_acquire); } // this thread's, after run()
    // After run() returned: per template (indexed like the plan's templates), the whole replay.
    const std::vector<LoadCounts>& byTemplate() const { return m_byTemplate; }
    // After run() returned: the operations sent in each second after time 0 (inside the measured span).
    const std::vector<uint64_t>& sentPerSecond() const { return m_sentPerSecond; }
    // After run() returned: the server's answers received in each second after time 0 (inside the measured span).
    const std::vector<uint64_t>& answeredPerSecond() const { return m_answeredPerSecond; }

    static uint64_t nowNs();

private:
    struct Slot
    {
        int msgid = 0;
        uint64_t startNs = 0;
        size_t op = 0; // index in the connection's plan
    };
    struct Conn
    {
        const ReplayConnectionPlan* plan = nullptr;
        std::unique_ptr<LdapSession> session;
        std::unique_ptr<LdapConnector> connecting;
        enum class State
        {
            Pending,
            Connecting,
            Open,
            Done
        } state
            = State::Pending;
        int fd = -1;
        size_t next = 0;
        std::vector<Slot> inflight;
    };
    static constexpr uint64_t kMaxWaitNs = 10000000ULL;
    static constexpr uint64_t kSpinNs = 80000ULL;
    static constexpr uint64_t kConnectPollNs = 1000000ULL; // how often a connection being made is looked at
    static constexpr size_t kMaxConnecting = 32; // connections being made at once, per thread
    static constexpr size_t kStartsPerRound = 4; // connects started per loop round: a thread's start costs time too
    static constexpr int kServerDown = 81;
    static constexpr int kTimeout = 85;
    static constexpr int kLocalError = 82;

    bool waitForStart(); // false: stopped before time 0
    uint64_t openDue(uint64_t now); // starts the connects that are due; returns when it needs the loop next
    void connected(uint64_t now); // takes the connects that finished
    uint64_t step(Conn& c, uint64_t now); // returns the next time it needs the loop (absolute ns)
    void sendDue(Conn& c, uint64_t now, uint64_t& wake);
    bool send(Conn& c, size_t index, uint64_t startNs);
    void countSend(uint64_t now, uint64_t lagNs, bool openLoop);
    bool countInSecond(std::vector<uint64_t>& perSecond, uint64_t now) const;
    void drain(Conn& c, uint64_t now);
    void lost(Conn& c, uint64_t now, int code);
    void close(Conn& c);
    void expire(uint64_t now);
    void record(const ReplayOp& op, int code, int entries, uint64_t now, const uint64_t* latencyNs);
    void setLastError(const QString& e);

    ReplayShared& m_shared;
    std::vector<Conn> m_conns; // by logged open time
    size_t m_nextPending = 0; // m_conns before this were opened (or failed)
    std::vector<Conn*> m_open; // the connections open now
    std::vector<Conn*> m_connecting; // being made (LdapConnector)
    LdapTlsContext m_tls; // LDAPS/StartTLS: one context for all this thread's connections
    std::vector<char*> m_attrs;
    std::vector<LdapSession::Completion> m_done;
    std::vector<LoadCounts> m_byTemplate;
    std::vector<uint64_t> m_sentPerSecond;
    std::vector<uint64_t> m_answeredPerSecond;
    std::atomic<uint64_t> m_watermark { 0 };
    std::atomic<bool> m_finished { false };
    std::atomic<double> m_cpuSeconds { 0 };
    mutable std::mutex m_mutex;
    std::map<int64_t, ReplayStats> m_pending;
    QString m_lastError;
};
