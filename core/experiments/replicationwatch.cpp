#include "core/experiments/replicationwatch.h"

#include "core/ldap/ldapsession.h"

#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace {

double percentile(const std::vector<double>& sorted, double q)
{
    const size_t rank = size_t(std::ceil(q * double(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

} // namespace

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

void ReplicationWatch::Writer::run(qint64 t0Ns)
{
    LdapSession s;
    for (qint64 k = 1; !m_stop; ++k) {
        const qint64 due = t0Ns + qint64(double(k - 1) * 1e9 / m_rate);
        while (!m_stop && nowNs() < due)
            std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<qint64>(due - nowNs(), 20000000)));
        if (m_stop)
            break;
        ProbeError e = s.isOpen() ? ProbeError {} : s.open(m_target);
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_acks.push_back(0);
            m_sends.push_back(nowNs());
        }
        if (!e.isError())
            e = s.modifyReplace(m_dn, QStringLiteral("description"), { QByteArray::number(k) });
        const qint64 t = nowNs();
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_acks.back() = e.isError() ? -1 : t;
        if (e.isError()) {
            ++m_errors;
            m_lastError = e.message();
            s.close();
        } else {
            m_lastAck = t;
        }
    }
}

QJsonValue ReplicationWatch::lagJson(std::vector<double> lags)
{
    if (lags.empty())
        return QJsonValue::Null;
    std::sort(lags.begin(), lags.end());
    return QJsonObject { { QStringLiteral("p50"), percentile(lags, 0.5) },
        { QStringLiteral("p99"), percentile(lags, 0.99) }, { QStringLiteral("max"), lags.back() } };
}

QJsonObject ReplicationWatch::interval(
    const std::vector<qint64>& acks, const std::vector<qint64>& seen, qint64 nowNs, Account& a)
{
    std::vector<double> lags;
    qint64 before = 0;
    for (; a.counted < acks.size() && a.counted < seen.size() && acks[a.counted] != 0; ++a.counted) {
        const qint64 ack = acks[a.counted];
        if (ack < 0)
            continue; // the write failed: no acknowledgement to measure from
        const qint64 at = seen[a.counted];
        before += at < ack ? 1 : 0;
        lags.push_back(at < ack ? 0.0 : double(at - ack) / 1e6);
    }
    qint64 behind = 0;
    double oldest = 0;
    for (size_t k = seen.size(); k < acks.size(); ++k) {
        if (acks[k] <= 0)
            continue;
        if (behind++ == 0)
            oldest = double(nowNs - acks[k]) / 1e9;
    }
    a.seenBeforeAck += before;
    a.lagsMs.insert(a.lagsMs.end(), lags.begin(), lags.end());
    return { { QStringLiteral("lag_ms"), lagJson(lags) }, { QStringLiteral("seen"), qint64(lags.size()) },
        { QStringLiteral("behind"), behind }, { QStringLiteral("oldest_unseen_s"), oldest },
        { QStringLiteral("seen_before_ack"), before } };
}
