#pragma once

#include "core/ldap/accessdistribution.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadspec.h"
#include "core/ldap/loadstats.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <atomic>
#include <mutex>
#include <vector>

// What the coordinator and every worker share. The workers only read the spec; the knobs are atomics.
struct LoadShared
{
    explicit LoadShared(const CompiledLoad& l)
        : load(l)
    { }
    const CompiledLoad& load;
    std::atomic<bool> stop { false };
    std::atomic<double> ratePerThread { 0 }; // 0: closed loop
    std::atomic<int> window { 1 }; // outstanding operations per connection
    std::atomic<uint64_t> lastSuccessNs { 0 };
};

// One load thread: its own connections (one LDAP* each, never shared), multiplexed with epoll, each keeping up to
// `window` asynchronous operations in flight. The requests of one loop round are written with one send() per
// connection, and responses read ahead with one recv() for many (LdapSession::enableBatchedIo).
//
// Latency runs from the send — the write() that carries the request, taken just before it — or, under a target
// rate (open loop), from the time the operation was scheduled, so queueing shows in it (no coordinated omission);
// it ends when the worker reads the response. Closed loop with at least kBatchMinInflight operations in flight on
// a connection, the worker reads in batches: the kernel wakes it once about half of a connection's responses are
// in (SO_RCVLOWAT), then it reads every connection; a response waits at most kBatchWaitNs in the socket. That
// wait is in the latency, as it should be (the response was not read yet); at a fixed concurrency the mean
// latency is window / throughput either way (Little's law). Open loop and small windows read every response
// as soon as it arrives.
class LoadWorker
{
public:
    LoadWorker(LoadShared& shared, int index);
    ~LoadWorker();
    LoadWorker(const LoadWorker&) = delete;
    LoadWorker& operator=(const LoadWorker&) = delete;

    void run(); // the thread's body; returns when shared.stop is set
    LoadStats take(); // what was counted since the last take (coordinator, any time)
    QString lastError() const;

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
        LdapSession session;
        SocketIo* io = nullptr; // the session's batched I/O layer (null if it could not be set up)
        int fd = -1;
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
    static constexpr int OpDelete = 100;
    static constexpr int kServerDown = 81; // LDAP_SERVER_DOWN as a result code (libldap reports it as -1)
    static constexpr int kTimeout = 85; // LDAP_TIMEOUT
    static constexpr uint64_t kMaxWaitNs = 10000000ULL; // the loop's longest sleep: stop and housekeeping checks
    // Read batching (closed loop only): with at least kBatchMinInflight operations in flight on a connection, the
    // kernel wakes the thread only once about kBatchShare of their responses have arrived (SO_RCVLOWAT, from the
    // bytes per response seen so far), or after kBatchWaitNs at the latest; then every connection is read.
    static constexpr int kBatchMinInflight = 8;
    static constexpr double kBatchShare = 0.5;
    static constexpr uint64_t kBatchWaitNs = 2000000ULL;
    static constexpr uint64_t kFinishWaitNs = 500000000ULL; // write loads: the end waits this long for adds

    void runAsync();
    void runBindNewConnection();
    bool connect(Conn& c, uint64_t now);
    void lost(Conn& c, uint64_t now);
    bool send(Conn& c, uint64_t startNs, bool stampAtFlush);
    bool sendDelete(Conn& c, Slot& slot, uint64_t now);
    void drain(Conn& c, uint64_t now, bool readable = false); // readable: epoll said so
    void flushSends();
    bool tuneLowWater(bool closedLoop); // true when some connection waits for more than one byte
    int waitEvents(struct epoll_event* events, int max, uint64_t timeoutNs);
    void expire(uint64_t now);
    void record(int op, int code, uint64_t latencyNs, int entries, uint64_t now);
    void flush();
    void finish();
    void abandonAll();

    LoadShared& m_shared;
    const int m_index;
    int m_epoll = -1;
    uint64_t m_round = 0; // event-loop iterations
    uint64_t m_lastSuccessStored = 0;
    bool m_stopping = false;
    bool m_pwait2 = true; // epoll_pwait2 (nanosecond timeouts) until the kernel says it has none
    std::vector<Conn> m_conns;
    AccessDistribution::Rng m_rng;
    QByteArray m_buf, m_buf2;
    std::vector<char*> m_attrs;
    std::vector<LdapSession::Completion> m_done;
    uint64_t m_addCounter = 0;
    size_t m_nextConn = 0;
    LoadStats m_local;
    mutable std::mutex m_mutex;
    LoadStats m_pending;
    QString m_lastError;
};
