#include "core/ldap/loadworker.h"

#include <QCoreApplication>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <sys/epoll.h>
#include <thread>
#include <unistd.h>

namespace {

bool success(int op, int code)
{
    if (op == int(LdapOpKind::Compare))
        return code == 5 || code == 6; // compareFalse, compareTrue
    return code == 0;
}

} // namespace

uint64_t LoadWorker::nowNs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000000ULL + uint64_t(ts.tv_nsec);
}

LoadWorker::LoadWorker(LoadShared& shared, int index)
    : m_shared(shared)
    , m_index(index)
    , m_rng(0x9E3779B97F4A7C15ULL * uint64_t(index + 1) ^ nowNs())
{
    const CompiledLoad& l = shared.load;
    for (const QByteArray& a : l.attrs)
        m_attrs.push_back(const_cast<char*>(a.constData()));
    m_attrs.push_back(nullptr);
    m_buf.reserve(256);
    m_buf2.reserve(256);
    m_done.reserve(256);
}

LoadWorker::~LoadWorker()
{
    if (m_epoll >= 0)
        ::close(m_epoll);
}

LoadStats LoadWorker::take()
{
    std::lock_guard lock(m_mutex);
    LoadStats out = m_pending;
    m_pending.reset();
    return out;
}

QString LoadWorker::lastError() const
{
    std::lock_guard lock(m_mutex);
    return m_lastError;
}

void LoadWorker::flush()
{
    std::lock_guard lock(m_mutex);
    m_pending.merge(m_local);
    m_local.reset();
}

void LoadWorker::run()
{
    const CompiledLoad& l = m_shared.load;
    if (l.has(LdapOpKind::Bind) && l.spec.bindNewConnection)
        runBindNewConnection();
    else
        runAsync();
    flush();
}

void LoadWorker::record(int op, int code, uint64_t latencyNs, int entries, uint64_t now)
{
    m_local.latency.record(latencyNs);
    ++m_local.resultCodes[code];
    if (success(op, code)) {
        ++m_local.ok;
        if (op == int(LdapOpKind::Search)) {
            m_local.entries += uint64_t(entries);
            if (entries == 0)
                ++m_local.noEntry;
        }
        if (now - m_lastSuccessStored >= 1000000ULL) { // a shared cache line: written at most once per ms
            m_lastSuccessStored = now;
            m_shared.lastSuccessNs.store(now, std::memory_order_relaxed);
        }
    } else {
        ++m_local.errors;
    }
}

void LoadWorker::runAsync()
{
    const CompiledLoad& l = m_shared.load;
    const bool bindOnly = l.has(LdapOpKind::Bind); // a bind must be alone on its connection
    m_epoll = epoll_create1(EPOLL_CLOEXEC);
    m_conns.resize(size_t(l.spec.connections));
    int maxWindow = bindOnly ? 1 : l.spec.outstanding;
    if (l.ramp.what == LoadRamp::What::Outstanding)
        for (double v : l.ramp.values)
            maxWindow = std::max(maxWindow, int(v));
    for (Conn& c : m_conns) {
        c.slotTable.resize(size_t(maxWindow));
        if (!m_shared.stop.load())
            connect(c, nowNs());
    }
    uint64_t nextIntended = nowNs();
    uint64_t lastHousekeeping = nextIntended;
    epoll_event events[64];
    while (!m_shared.stop.load(std::memory_order_relaxed)) {
        uint64_t now = nowNs();
        const double rate = m_shared.ratePerThread.load(std::memory_order_relaxed);
        const int window = bindOnly ? 1 : std::clamp(m_shared.window.load(std::memory_order_relaxed), 1, 1024);
        uint64_t waitNs = kMaxWaitNs;
        if (rate > 0) {
            const auto period = uint64_t(1e9 / rate);
            // An outage must not turn into a burst afterwards: the schedule never lags more than the op timeout.
            const uint64_t lagLimit = uint64_t(l.spec.target.opTimeoutMs) * 1000000ULL;
            if (now > nextIntended + lagLimit)
                nextIntended = now - lagLimit;
            size_t tried = 0;
            while (nextIntended <= now && tried < m_conns.size()) {
                Conn& c = m_conns[m_nextConn % m_conns.size()];
                if (c.up && c.inflight < window && send(c, nextIntended, false)) {
                    nextIntended += period;
                    tried = 0;
                } else {
                    ++m_nextConn;
                    ++tried;
                }
            }
            // Sleep until the next operation is due, or (window full) until a completion, at most 1 ms.
            waitNs = nextIntended > now ? std::min(kMaxWaitNs, nextIntended - now) : kBatchWaitNs;
        } else {
            for (Conn& c : m_conns)
                while (c.up && c.inflight < window && send(c, now, true)) { }
            nextIntended = now;
        }
        flushSends();
        const bool batching = tuneLowWater(rate <= 0);
        if (batching)
            waitNs = kBatchWaitNs;
        const int n = waitEvents(events, 64, waitNs);
        now = nowNs();
        ++m_round;
        for (int i = 0; i < n; ++i) {
            Conn& c = m_conns[size_t(events[i].data.u64)];
            if (c.up)
                drain(c, now, true);
        }
        // Batching: awake anyway (a connection reached its mark, or the bound passed), read every connection, so
        // that they stay in step and one wake-up serves about half of all the responses in flight.
        if (batching && n >= 0)
            for (Conn& c : m_conns)
                if (c.up && c.inflight > 0 && c.drainedRound != m_round)
                    drain(c, now, true);
        if (now - lastHousekeeping >= 20000000ULL) {
            lastHousekeeping = now;
            expire(now);
            for (Conn& c : m_conns)
                if (!c.up && now >= c.retryAtNs && !m_shared.stop.load())
                    connect(c, now);
            flush();
        }
    }
    finish();
}

void LoadWorker::runBindNewConnection()
{
    const CompiledLoad& l = m_shared.load;
    LdapTarget t = l.spec.target;
    t.auth = LdapTarget::Auth::Simple;
    LdapTlsContext tls; // LDAPS/StartTLS: one context for all this thread's connections
    uint64_t nextIntended = nowNs();
    uint64_t lastFlush = nextIntended;
    while (!m_shared.stop.load(std::memory_order_relaxed)) {
        uint64_t now = nowNs();
        const double rate = m_shared.ratePerThread.load(std::memory_order_relaxed);
        uint64_t start = now;
        if (rate > 0) {
            if (nextIntended > now) {
                std::this_thread::sleep_for(
                    std::chrono::nanoseconds(std::min<uint64_t>(nextIntended - now, 10000000ULL)));
                continue;
            }
            start = nextIntended;
            nextIntended += uint64_t(1e9 / rate);
        }
        l.dn.render(m_buf, m_rng);
        t.bindDn = QString::fromUtf8(m_buf);
        LdapSession s;
        const ProbeError e = s.open(t, nullptr, &tls);
        s.close();
        now = nowNs();
        int code = 0;
        if (e.isError()) {
            code = e.nativeCode == -1 ? kServerDown : e.nativeCode;
            std::lock_guard lock(m_mutex);
            m_lastError = e.message();
        }
        record(int(LdapOpKind::Bind), code, now - start, 0, now);
        if (now - lastFlush >= 20000000ULL) {
            lastFlush = now;
            flush();
        }
    }
}
