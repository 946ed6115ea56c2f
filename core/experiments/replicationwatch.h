#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/ldaptarget.h"

#include <QJsonObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

// The marker probe's moving parts (core/experiments/replication.h): the writer on the supplier, a watcher per
// consumer, and the arithmetic that turns their time stamps into interval figures. Every time stamp is
// nowNs(), one steady clock.
namespace ReplicationWatch {

qint64 nowNs();

// Writes marker k = 1, 2, ... at t0 + (k-1)/rate into description of dn, open loop with up to
// ReplicationLag::kMaxInFlight modifies in flight; a marker that cannot be sent before the next one is due is missed.
class Writer
{
public:
    Writer(const LdapTarget& supplier, const QString& dn, double rate);
    ~Writer();
    void start(qint64 t0Ns);
    void stop();
    // ack[k-1]: when marker k was acknowledged; 0 = in flight or not written yet, ReplicationLag::kFailed = the
    // write failed (or was not answered within 5 s of the end), ReplicationLag::kMissed = not sent on time.
    std::vector<qint64> acks() const;
    // sends[k-1]: when marker k's write was sent (its CSN, the supplier's commit, lies between it and the ack).
    std::vector<qint64> sends() const;
    qint64 lastAckNs() const { return m_lastAck.load(); }
    qint64 errors() const { return m_errors.load(); }
    qint64 missed() const { return m_missed.load(); }
    QString lastError() const;

private:
    struct Flight;
    static void answered(void* user, const LdapSession::Completion& c);
    void settle(size_t index, qint64 ack, const QString& error);
    void collect(Flight& f);
    void send(Flight& f, qint64 k);
    void miss();
    void run(qint64 t0Ns);
    LdapTarget m_target;
    QString m_dn;
    double m_rate;
    std::atomic<bool> m_stop { false };
    std::atomic<qint64> m_lastAck { 0 }, m_errors { 0 }, m_missed { 0 };
    mutable std::mutex m_mutex;
    std::vector<qint64> m_acks, m_sends;
    QString m_lastError;
    std::thread m_thread;
};

// Watches the marker entry on one consumer; seen[k-1] = when a value >= k was first seen there. How, is the
// choice's: "poll" reads it (base scope) every pollMs; "push" keeps a persistent search open on it (RFC 4533 sync
// where the consumer's root DSE offers it, else the persistent search control: LdapWatch) and time-stamps each
// entry the consumer sends; "auto" pushes where the consumer offers either and polls where it offers neither.
// The method is chosen at the first connection; on "push", a consumer that offers neither, or refuses the search
// (unavailableCriticalExtension, unwillingToPerform), is refused (refused(), lastError() says why) and nothing
// more is watched; on "auto", such a refusal falls back to polling. A lost connection is reopened every 500 ms, then
// the watch resumes.
class Watcher
{
public:
    Watcher(const LdapTarget& consumer, const QString& dn, int pollMs, const QString& choice);
    ~Watcher();
    void start();
    void stop();
    std::vector<qint64> seen() const;
    bool reachable() const { return m_reachable.load(); }
    bool everReached() const { return m_everReached.load(); }
    // The longest stretch in which it could not be read (from start() until the first read, or from a failed
    // connection or read until the next good one), up to now, in s.
    double longestUnreadableS() const;
    // The first connection attempt is over: the method is chosen, the consumer refused, or it could not be read.
    bool settled() const { return m_settled.load(); }
    bool refused() const { return m_refused.load(); }
    // "sync", "psearch", "poll", or "" while not chosen yet.
    QString method() const;
    QString lastError() const;
    const QString& uri() const { return m_target.uri; }

private:
    enum Method
    {
        Unknown,
        Poll,
        Sync,
        PersistentSearch
    };
    void run();
    ProbeError choose(LdapSession& s);
    ProbeError pollOnce(LdapSession& s);
    ProbeError push(LdapSession& s);
    bool refusedPush(const ProbeError& e);
    void lost(LdapSession& s, const ProbeError& e);
    bool pause(int ms) const; // false when asked to stop
    void record(qint64 highest, qint64 t);
    void reached();
    LdapTarget m_target;
    QString m_dn;
    int m_pollMs;
    QString m_choice;
    std::atomic<int> m_method { Unknown };
    std::atomic<bool> m_stop { false }, m_reachable { false }, m_everReached { false };
    std::atomic<bool> m_settled { false }, m_refused { false };
    std::atomic<qint64> m_downSince { 0 }, m_longestDown { 0 }; // ns; m_downSince 0: readable now
    mutable std::mutex m_mutex;
    std::vector<qint64> m_seen;
    QString m_lastError;
    std::thread m_thread;
};

using Watchers = std::vector<std::unique_ptr<Watcher>>;
// Waits until every watcher has settled (its first connection is over), or stopRequested() says so.
void awaitSettled(const Watchers& watchers, const std::function<bool()>& stopRequested);
// Why the run cannot go on ("--watch push: consumer URI offers neither ..."), or empty.
QString refusal(const Watchers& watchers);
// A watcher's method for the record: "sync", "psearch", "poll", or "unknown" when it never connected.
QString methodName(const Watcher& w);
// The summary's method: the one every consumer used, "mixed" when they differ, "unknown" when none connected.
QString methodSet(const Watchers& watchers);

// One consumer's running account: the markers (in order) whose lag the intervals have counted so far.
struct Account
{
    size_t counted = 0;
};
// The interval ending at nowNs: lag_ms (from the acknowledgement) and lag_from_send_ms of the markers counted in
// it (seen and answered; ReplicationLag), behind (acknowledged, not seen), oldest_unseen_s, seen_before_ack;
// updates the account. The run's figures are the summary's, over every marker at once (ReplicationLag::lags).
QJsonObject interval(const std::vector<qint64>& acks, const std::vector<qint64>& sends, const std::vector<qint64>& seen,
    qint64 nowNs, Account& a);

} // namespace ReplicationWatch
