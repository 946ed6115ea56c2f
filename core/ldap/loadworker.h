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
// `window` asynchronous operations in flight. Latency is measured from the send, or, under a target rate (open
// loop), from the time the operation was scheduled, so queueing shows in it (no coordinated omission).
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
        QByteArray dn; // add+delete: the entry
    };
    struct Conn
    {
        LdapSession session;
        int fd = -1;
        std::vector<Slot> slotTable;
        int inflight = 0;
        bool up = false;
        bool everUp = false;
        uint64_t retryAtNs = 0;
        uint64_t backoffMs = 50;
    };
    static constexpr int OpDelete = 100;

    void runAsync();
    void runBindNewConnection();
    bool connect(Conn& c, uint64_t now);
    void lost(Conn& c, uint64_t now);
    bool send(Conn& c, uint64_t startNs);
    bool sendDelete(Conn& c, Slot& slot, uint64_t now);
    void drain(Conn& c, uint64_t now);
    void expire(uint64_t now);
    void record(int op, int code, uint64_t latencyNs, int entries, uint64_t now);
    void flush();
    void abandonAll();

    LoadShared& m_shared;
    const int m_index;
    int m_epoll = -1;
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
