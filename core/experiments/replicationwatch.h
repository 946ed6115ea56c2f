#pragma once

#include "core/ldap/ldaptarget.h"

#include <QJsonObject>
#include <QString>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

// The marker probe's moving parts (core/experiments/replication.h): the writer on the supplier, a watcher per
// consumer, and the arithmetic that turns their time stamps into interval figures. Every time stamp is
// nowNs(), one steady clock.
namespace ReplicationWatch {

qint64 nowNs();

// Writes marker k = 1, 2, ... at t0 + (k-1)/rate into description of dn, one modify at a time.
class Writer
{
public:
    Writer(const LdapTarget& supplier, const QString& dn, double rate);
    ~Writer();
    void start(qint64 t0Ns);
    void stop();
    // ack[k-1]: when marker k was acknowledged; 0 = in flight or not written yet, -1 = the write failed.
    std::vector<qint64> acks() const;
    qint64 lastAckNs() const { return m_lastAck.load(); }
    qint64 errors() const { return m_errors.load(); }
    QString lastError() const;

private:
    void run(qint64 t0Ns);
    LdapTarget m_target;
    QString m_dn;
    double m_rate;
    std::atomic<bool> m_stop { false };
    std::atomic<qint64> m_lastAck { 0 }, m_errors { 0 };
    mutable std::mutex m_mutex;
    std::vector<qint64> m_acks;
    QString m_lastError;
    std::thread m_thread;
};

// Reads the marker entry on one consumer every pollMs; seen[k-1] = when a value >= k was first read.
class Watcher
{
public:
    Watcher(const LdapTarget& consumer, const QString& dn, int pollMs);
    ~Watcher();
    void start();
    void stop();
    std::vector<qint64> seen() const;
    bool reachable() const { return m_reachable.load(); }
    bool everReached() const { return m_everReached.load(); }
    QString lastError() const;
    const QString& uri() const { return m_target.uri; }

private:
    void run();
    void record(qint64 highest, qint64 t);
    LdapTarget m_target;
    QString m_dn;
    int m_pollMs;
    std::atomic<bool> m_stop { false }, m_reachable { false }, m_everReached { false };
    mutable std::mutex m_mutex;
    std::vector<qint64> m_seen;
    QString m_lastError;
    std::thread m_thread;
};

// One consumer's running account: the markers whose lag is counted so far, and every lag (ms).
struct Account
{
    size_t counted = 0;
    qint64 seenBeforeAck = 0;
    std::vector<double> lagsMs;
};
// The interval ending at nowNs: lags of the markers counted in it (seen and acknowledged), behind (acknowledged,
// not seen), oldest_unseen_s, seen_before_ack; updates the account.
QJsonObject interval(const std::vector<qint64>& acks, const std::vector<qint64>& seen, qint64 nowNs, Account& a);
// {p50, p99, max} of the values, or null when there are none.
QJsonValue lagJson(std::vector<double> lagsMs);

} // namespace ReplicationWatch
