#include "core/experiments/replicationwatch.h"

#include "core/experiments/replicationlag.h"
#include "core/ldap/ldapsession.h"

#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <poll.h>
#include <thread>

qint64 ReplicationWatch::nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

ReplicationWatch::Writer::Writer(const LdapTarget& supplier, const QString& dn, double rate)
    : m_target(supplier)
    , m_dn(dn)
    , m_rate(rate)
{ }

ReplicationWatch::Writer::~Writer()
{
    stop();
    m_target.password.fill('\0');
}

void ReplicationWatch::Writer::start(qint64 t0Ns)
{
    m_thread = std::thread([this, t0Ns] { run(t0Ns); });
}

void ReplicationWatch::Writer::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

std::vector<qint64> ReplicationWatch::Writer::acks() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_acks;
}

std::vector<qint64> ReplicationWatch::Writer::sends() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_sends;
}

QString ReplicationWatch::Writer::lastError() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_lastError;
}

namespace {

constexpr qint64 kSliceNs = 20000000; // a wait's longest slice: stop() is honoured within about this
constexpr qint64 kDrainNs = 5000000000; // after the last marker, how long writes in flight may still be answered

// Waits until `until` or until the session has data to read (when something is in flight), in slices.
void waitFor(const LdapSession& s, bool inFlight, qint64 until)
{
    const qint64 ns = std::clamp<qint64>(until - ReplicationWatch::nowNs(), 0, kSliceNs);
    if (!inFlight || s.fd() < 0) {
        std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
        return;
    }
    pollfd p { s.fd(), POLLIN, 0 };
    const timespec ts { time_t(ns / 1000000000), long(ns % 1000000000) };
    ::ppoll(&p, 1, &ts, nullptr);
}

} // namespace

// The writer's own state while it runs: its session and the writes in flight (msgid -> marker index).
struct ReplicationWatch::Writer::Flight
{
    LdapSession session;
    std::map<int, size_t> inFlight;
    Writer* writer = nullptr;
};

void ReplicationWatch::Writer::answered(void* user, const LdapSession::Completion& c)
{
    auto* f = static_cast<Flight*>(user);
    const auto it = f->inFlight.find(c.msgid);
    if (it == f->inFlight.end())
        return;
    f->writer->settle(it->second, c.resultCode == 0 ? nowNs() : ReplicationLag::kFailed,
        c.resultCode == 0 ? QString() : LdapSession::resultText(c.resultCode));
    f->inFlight.erase(it);
}

void ReplicationWatch::Writer::settle(size_t index, qint64 ack, const QString& error)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_acks[index] = ack;
    if (ack > 0) {
        m_lastAck = std::max(m_lastAck.load(), ack);
        return;
    }
    ++m_errors;
    m_lastError = error;
}

// Reads every answer already there; a lost connection fails what was in flight and is closed.
void ReplicationWatch::Writer::collect(Flight& f)
{
    if (!f.session.isOpen() || f.session.collect(&Writer::answered, &f) >= 0)
        return;
    for (const auto& [msgid, index] : f.inFlight)
        settle(index, ReplicationLag::kFailed, QStringLiteral("the connection to the supplier was lost"));
    f.inFlight.clear();
    f.session.close();
}

// Marker k's write: recorded as sent, then sent (or failed at once).
void ReplicationWatch::Writer::send(Flight& f, qint64 k)
{
    size_t index = 0;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        index = m_acks.size();
        m_acks.push_back(0);
        m_sends.push_back(nowNs());
    }
    ProbeError e = f.session.isOpen() ? ProbeError {} : f.session.open(m_target);
    const QByteArray dn = m_dn.toUtf8(), value = QByteArray::number(k);
    int msgid = 0;
    if (!e.isError()) {
        if (const int rc
            = f.session.sendModifyReplace(dn.constData(), "description", value.constData(), int(value.size()), &msgid);
            rc != 0)
            e = ProbeError { ProbeError::Kind::Ldap, rc, {}, LdapSession::resultText(rc), {} };
    }
    if (!e.isError()) {
        f.inFlight.emplace(msgid, index);
        return;
    }
    settle(index, ReplicationLag::kFailed, e.message());
    f.session.close();
}

void ReplicationWatch::Writer::miss()
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_acks.push_back(ReplicationLag::kMissed);
    m_sends.push_back(0);
    ++m_missed;
}

// Open loop: marker k is due at t0 + (k-1)/rate and sent when due, while fewer than kMaxInFlight writes are
// unanswered; one that cannot be sent before the next one is due is missed (counted, not sent), so a slow supplier
// gets the asked rate exactly when lag is worst.
void ReplicationWatch::Writer::run(qint64 t0Ns)
{
    Flight f;
    f.writer = this;
    const auto due = [&](qint64 k) { return t0Ns + qint64(double(k - 1) * 1e9 / m_rate); };
    for (qint64 k = 1; !m_stop;) {
        collect(f);
        const qint64 now = nowNs();
        if (now >= due(k + 1)) {
            miss();
            ++k;
        } else if (now >= due(k) && f.inFlight.size() < size_t(ReplicationLag::kMaxInFlight)) {
            send(f, k);
            ++k;
        } else {
            waitFor(f.session, !f.inFlight.empty(), now >= due(k) ? due(k + 1) : due(k));
        }
    }
    const qint64 drainEnd = nowNs() + kDrainNs;
    for (collect(f); !f.inFlight.empty() && nowNs() < drainEnd; collect(f))
        waitFor(f.session, true, drainEnd);
    for (const auto& [msgid, index] : f.inFlight)
        settle(index, ReplicationLag::kFailed, QStringLiteral("no answer from the supplier within 5 s"));
}

QJsonObject ReplicationWatch::interval(const std::vector<qint64>& acks, const std::vector<qint64>& sends,
    const std::vector<qint64>& seen, qint64 nowNs, Account& a)
{
    const size_t from = a.counted;
    while (a.counted < acks.size() && a.counted < seen.size() && acks[a.counted] != 0)
        ++a.counted;
    const auto slice = [&](const std::vector<qint64>& v) {
        const size_t end = std::min(a.counted, v.size()), begin = std::min(from, end);
        return std::vector<qint64>(v.begin() + qint64(begin), v.begin() + qint64(end));
    };
    // Every marker of the slice is seen: none is censored here (the unseen ones are `behind`).
    const ReplicationLag::Lags lags = ReplicationLag::lags(slice(acks), slice(sends), slice(seen), nowNs);
    qint64 behind = 0;
    double oldest = 0;
    for (size_t k = seen.size(); k < acks.size(); ++k) {
        if (acks[k] <= 0)
            continue;
        if (behind++ == 0)
            oldest = double(nowNs - acks[k]) / 1e9;
    }
    return { { QStringLiteral("lag_ms"), ReplicationLag::figuresJson(lags.fromAckMs, lags.censored) },
        { QStringLiteral("lag_from_send_ms"), ReplicationLag::figuresJson(lags.fromSendMs, lags.censored) },
        { QStringLiteral("seen"), qint64(lags.fromAckMs.size()) }, { QStringLiteral("behind"), behind },
        { QStringLiteral("oldest_unseen_s"), oldest }, { QStringLiteral("seen_before_ack"), lags.seenBeforeAck } };
}
