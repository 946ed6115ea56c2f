#pragma once

#include "core/common/intervalclock.h"
#include "core/ldap/accessdistribution.h"
#include "core/ldap/ldapconnector.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadspec.h"
#include "core/ldap/loadstats.h"
#include "core/ldap/operationsource.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

// What the coordinator and every worker share. The workers only read the spec; the knobs are atomics.
struct LoadShared
{
    LoadShared(const CompiledLoad& l, const OperationSource& s, uint64_t intervalNs, uint64_t stepNs)
        : load(l)
        , source(s)
        , clock(intervalNs, stepNs)
    { }
    const CompiledLoad& load;
    const OperationSource& source;
    IntervalClock clock; // which interval an operation completed in
    QByteArray runTag; // add+delete: uid=dirbench-TAG-THREAD-N, unique to the run
    std::atomic<bool> stop { false };
    std::atomic<uint64_t> endNs { UINT64_MAX }; // operations completed later are outside the measured span
    std::atomic<double> ratePerThread { 0 }; // 0: closed loop
    std::atomic<int> window { 1 }; // outstanding operations per connection
    std::atomic<uint64_t> lastSuccessNs { 0 };
    std::atomic<int> ready { 0 }; // workers whose first connections were tried
    // No request is sent before this instant (0: at once): a run started at a given instant (agents, --start-at)
    // connects and binds, then idles until its warm-up begins, so --warmup 0 sends nothing before t0.
    std::atomic<uint64_t> sendFromNs { 0 };
    std::atomic<int> unansweredAdds { 0 }; // adds still without an answer when the run ended: they may yet commit
};

// One load thread: its own connections (one LDAP* each, never shared), multiplexed with epoll, each keeping up to
// `window` asynchronous operations in flight. The requests of one loop round are written with one send() per
// connection, and responses read ahead with one recv() for many (LdapSession::enableBatchedIo). In a mix with
// binds, binds go to one connection of their own per thread, so the other operations keep the identity the user
// bound with and their window.
//
// Latency runs from the send — the write() that carries the request, taken just before it — or, under a target
// rate (open loop), from the time the operation was scheduled, so queueing shows in it (no coordinated omission);
// it ends when epoll reports the response readable. By default nothing holds a response: with coalesceReads
// (closed loop only), the kernel wakes the thread only once about half of a connection's responses are in
// (SO_RCVLOWAT) or after kBatchWaitNs, and that hold is in the latency; the record says so.
//
// Every operation is counted in the interval (IntervalClock) in which it completed; the coordinator takes an
// interval once every worker's watermark has passed its end. A lost connection is made again on a helper thread,
// so the thread's other connections keep going.
class LoadWorker
{
public:
    LoadWorker(LoadShared& shared, int index);
    ~LoadWorker();
    LoadWorker(const LoadWorker&) = delete;
    LoadWorker& operator=(const LoadWorker&) = delete;

    void run(); // the thread's body; returns when shared.stop is set
    // What was counted in intervals up to `lastIndex` and not taken yet (coordinator, any time).
    LoadStats take(int64_t lastIndex);
    // Every operation that completed before this time is in what take() returns.
    uint64_t watermark() const { return m_watermark.load(std::memory_order_acquire); }
    QString lastError() const;
    int connectionCount() const;

    static uint64_t nowNs();

private:
    struct Slot
    {
        int msgid = 0;
        uint64_t startNs = 0;
        int op = 0; // LdapOpKind, or OpDelete
        bool busy = false;
        bool stampAtFlush = false; // closed loop: the latency starts when the request is written
        QByteArray dn; // add+delete: the entry
    };
    struct Conn
    {
        std::unique_ptr<LdapSession> session;
        std::unique_ptr<LdapConnector> connecting; // a reconnect: the worker's loop never blocks on it
        SocketIo* io = nullptr; // the session's batched I/O layer (null if it could not be set up)
        int fd = -1;
        bool bindOnly = false; // binds only, one at a time
        std::vector<Slot> slotTable;
        int inflight = 0;
        bool up = false;
        bool everUp = false;
        uint64_t retryAtNs = 0;
        uint64_t backoffMs = 50;
        bool dirty = false; // requests held in the session, to be flushed
        std::vector<uint32_t> unsent; // slots whose requests are held, not yet written
        uint64_t completed = 0; // since connected: responses, for the bytes-per-response estimate
        uint64_t bytesBase = 0;
        uint64_t drainedRound = 0;
    };
    enum class SendResult
    {
        Sent,
        Full, // no free slot, or the connection is down: try later
        Failed // counted as an error; the operation is used up
    };
    static constexpr int OpDelete = 100;
    static constexpr int kServerDown = 81; // LDAP_SERVER_DOWN as a result code (libldap reports it as -1)
    static constexpr int kTimeout = 85; // LDAP_TIMEOUT
    static constexpr int kLocalError = 82; // LDAP_LOCAL_ERROR
    static constexpr uint64_t kMaxWaitNs = 10000000ULL; // the loop's longest sleep: stop and housekeeping checks
    static constexpr int kBatchMinInflight = 8;
    static constexpr double kBatchShare = 0.5;
    static constexpr uint64_t kBatchWaitNs = 2000000ULL;
    static constexpr uint64_t kFinishWaitNs = 500000000ULL; // write loads: the end waits at least this for adds
    static constexpr uint64_t kFinishWaitMaxNs = 30000000000ULL; // ... and at most this (else the op timeout)
    static constexpr int kMaxSendsPerRound = 4096;
    static constexpr uint64_t kSpinNs = 80000ULL; // open loop: polled, not slept, this close to a due send
    static constexpr int64_t kAfterEnd = INT64_MAX; // m_localIndex past the measured span

    void runAsync();
    void runBindNewConnection();
    void setUpConnections();
    void sendClosedLoop(uint64_t now, int window);
    uint64_t sendOpenLoop(uint64_t now, int window, double rate, uint64_t& nextIntended);
    Conn* connectionFor(LdapOpKind op, int window);
    bool connect(Conn& c, uint64_t now);
    void startReconnect(Conn& c, uint64_t now);
    void finishReconnect(Conn& c, uint64_t now);
    bool install(Conn& c, std::unique_ptr<LdapSession> session, uint64_t now);
    void connectFailed(Conn& c, const ProbeError& e, uint64_t now);
    void reconnectDue(uint64_t now);
    void lost(Conn& c, uint64_t now);
    SendResult send(Conn& c, LdapOpKind op, uint64_t startNs, bool stampAtFlush);
    bool sendDelete(Conn& c, Slot& slot, uint64_t now);
    void drain(Conn& c, uint64_t now, bool readable = false); // readable: epoll said so
    void flushSends();
    bool tuneLowWater(bool closedLoop); // true when some connection waits for more than one byte
    int waitEvents(struct epoll_event* events, int max, uint64_t timeoutNs);
    void expire(uint64_t now);
    bool isSuccess(int op, int code) const;
    LoadStats* statsAt(uint64_t now); // the interval's counters, or null outside the measured phase
    void advance(uint64_t now); // rolls to now's interval and publishes the watermark
    void record(int op, int code, int entries, uint64_t now, const uint64_t* latencyNs);
    void setLastError(const QString& e);
    void flush();
    void finish();
    void abandonAll();

    LoadShared& m_shared;
    const int m_index;
    const bool m_mixed; // more than one kind of operation: counted per kind too
    int m_epoll = -1;
    uint64_t m_round = 0; // event-loop iterations
    uint64_t m_lastSuccessStored = 0;
    bool m_stopping = false;
    bool m_pwait2 = true; // epoll_pwait2 (nanosecond timeouts) until the kernel says it has none
    std::vector<Conn> m_conns;
    AccessDistribution::Rng m_rng;
    int m_nextOp = -1; // drawn, not sent yet (an operation is never skipped: the mix stays exact)
    QByteArray m_buf, m_buf2;
    std::vector<char*> m_attrs;
    std::vector<LdapSession::Completion> m_done;
    uint64_t m_addCounter = 0;
    size_t m_nextConn = 0;
    LoadStats m_local;
    int64_t m_localIndex = -1;
    std::atomic<uint64_t> m_watermark { 0 };
    mutable std::mutex m_mutex;
    std::map<int64_t, LoadStats> m_pending; // by interval index
    QString m_lastError;
};
