#include "core/ldap/loadworker.h"

#include <QCoreApplication>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <thread>
#include <unistd.h>

namespace {

bool defaultSuccess(int op, int code)
{
    if (op == int(LdapOpKind::Compare))
        return code == 5 || code == 6; // compareFalse, compareTrue
    return code == 0;
}

void count(LoadCounts& c, int op, int code, bool ok, int entries, const uint64_t* latencyNs, int timeoutCode)
{
    if (latencyNs)
        c.latency.record(*latencyNs);
    ++c.resultCodes[code];
    if (code == timeoutCode)
        ++c.timeouts;
    if (!ok) {
        ++c.errors;
        return;
    }
    ++c.ok;
    if (op == int(LdapOpKind::Search)) {
        c.entries += uint64_t(entries);
        if (entries == 0)
            ++c.noEntry;
    }
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
    , m_mixed(shared.load.spec.mix.size() > 1)
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
    m_conns.clear(); // joins reconnects still under way
    if (m_epoll >= 0)
        ::close(m_epoll);
}

LoadStats LoadWorker::take(int64_t lastIndex)
{
    LoadStats out;
    std::lock_guard lock(m_mutex);
    for (auto it = m_pending.begin(); it != m_pending.end() && it->first <= lastIndex;) {
        out.merge(it->second);
        it = m_pending.erase(it);
    }
    return out;
}

QString LoadWorker::lastError() const
{
    std::lock_guard lock(m_mutex);
    return m_lastError;
}

void LoadWorker::setLastError(const QString& e)
{
    std::lock_guard lock(m_mutex);
    m_lastError = e;
}

int LoadWorker::connectionCount() const
{
    return int(m_conns.size());
}

void LoadWorker::flush()
{
    if (m_localIndex < 0 || m_localIndex == kAfterEnd)
        return;
    std::lock_guard lock(m_mutex);
    m_pending[m_localIndex].merge(m_local);
    m_local.reset();
}

LoadStats* LoadWorker::statsAt(uint64_t now)
{
    // After the measured span, or in the warm-up (index -1), nothing is counted.
    const bool after = now > m_shared.endNs.load(std::memory_order_relaxed);
    const int64_t idx = after ? kAfterEnd : m_shared.clock.index(now);
    if (idx != m_localIndex) {
        flush();
        m_localIndex = idx;
    }
    return idx < 0 || after ? nullptr : &m_local;
}

void LoadWorker::advance(uint64_t now)
{
    statsAt(now);
    m_watermark.store(now, std::memory_order_release);
}

bool LoadWorker::isSuccess(int op, int code) const
{
    const QList<int>& codes = m_shared.load.spec.okCodes;
    return codes.isEmpty() ? defaultSuccess(op, code) : codes.contains(code);
}

void LoadWorker::record(int op, int code, int entries, uint64_t now, const uint64_t* latencyNs)
{
    const bool ok = isSuccess(op, code);
    if (ok && now - m_lastSuccessStored >= 1000000ULL) { // a shared cache line: written at most once per ms
        m_lastSuccessStored = now;
        m_shared.lastSuccessNs.store(now, std::memory_order_relaxed);
    }
    LoadStats* st = statsAt(now);
    if (!st)
        return;
    count(st->all, op, code, ok, entries, latencyNs, kTimeout);
    if (m_mixed && op >= 0 && op < LoadStats::OpKinds)
        count(st->byOp[size_t(op)], op, code, ok, entries, latencyNs, kTimeout);
}

void LoadWorker::run()
{
    // The default timer slack (50 µs) would let every timed wait of the open loop's schedule end late, and that
    // lateness is in the latency (it counts from the scheduled time).
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    const CompiledLoad& l = m_shared.load;
    if (l.has(LdapOpKind::Bind) && l.spec.bindNewConnection)
        runBindNewConnection();
    else
        runAsync();
    flush();
    m_watermark.store(UINT64_MAX, std::memory_order_release);
}

void LoadWorker::setUpConnections()
{
    const CompiledLoad& l = m_shared.load;
    const bool bindOnly = l.spec.mix.size() == 1 && l.has(LdapOpKind::Bind);
    const bool bindConn = l.spec.mix.size() > 1 && l.has(LdapOpKind::Bind);
    m_conns.resize(size_t(l.spec.connections) + (bindConn ? 1 : 0));
    int maxWindow = bindOnly ? 1 : l.spec.outstanding;
    if (l.ramp.what == LoadRamp::What::Outstanding)
        for (double v : l.ramp.values)
            maxWindow = std::max(maxWindow, int(v));
    for (Conn& c : m_conns) {
        c.bindOnly = bindOnly || (bindConn && &c == &m_conns.back());
        c.slotTable.resize(size_t(c.bindOnly ? 1 : maxWindow));
        c.session = std::make_unique<LdapSession>();
        if (!m_shared.stop.load())
            connect(c, nowNs());
    }
}

void LoadWorker::runAsync()
{
    m_epoll = epoll_create1(EPOLL_CLOEXEC);
    setUpConnections();
    m_shared.ready.fetch_add(1);
    const bool coalesce = m_shared.load.spec.coalesceReads;
    uint64_t nextIntended = nowNs();
    uint64_t lastHousekeeping = nextIntended;
    epoll_event events[64];
    while (!m_shared.stop.load(std::memory_order_relaxed)) {
        uint64_t now = nowNs();
        const double rate = m_shared.ratePerThread.load(std::memory_order_relaxed);
        const int window = std::clamp(m_shared.window.load(std::memory_order_relaxed), 1, 1024);
        uint64_t waitNs = kMaxWaitNs;
        if (const uint64_t from = m_shared.sendFromNs.load(std::memory_order_relaxed); now < from) {
            waitNs = std::min<uint64_t>(kMaxWaitNs, from - now); // connected and bound: idle until the warm-up
            nextIntended = from;
        } else if (rate > 0) {
            waitNs = sendOpenLoop(now, window, rate, nextIntended);
        } else {
            sendClosedLoop(now, window);
            nextIntended = now;
        }
        flushSends();
        const bool batching = coalesce && tuneLowWater(rate <= 0);
        if (batching)
            waitNs = kBatchWaitNs;
        const int n = waitEvents(events, 64, waitNs);
        now = nowNs(); // the responses below arrived before this
        advance(now);
        ++m_round;
        for (int i = 0; i < n; ++i) {
            Conn& c = m_conns[size_t(events[i].data.u64)];
            if (c.up)
                drain(c, now, true);
        }
        // Batching: awake anyway (a connection reached its mark, or the bound passed), read every connection.
        if (batching && n >= 0)
            for (Conn& c : m_conns)
                if (c.up && c.inflight > 0 && c.drainedRound != m_round)
                    drain(c, now, true);
        if (now - lastHousekeeping >= 20000000ULL) {
            lastHousekeeping = now;
            expire(now);
            reconnectDue(now);
        }
    }
    finish();
}

LoadWorker::Conn* LoadWorker::connectionFor(LdapOpKind op, int window)
{
    const bool wantBind = op == LdapOpKind::Bind;
    for (size_t tried = 0; tried < m_conns.size(); ++tried) {
        Conn& c = m_conns[m_nextConn % m_conns.size()];
        const int w = c.bindOnly ? 1 : window;
        if (c.up && c.inflight < w && c.bindOnly == wantBind)
            return &c;
        ++m_nextConn;
    }
    return nullptr;
}

void LoadWorker::sendClosedLoop(uint64_t now, int window)
{
    for (int sends = 0; sends < kMaxSendsPerRound; ++sends) {
        if (m_nextOp < 0)
            m_nextOp = int(m_shared.source.next(m_rng));
        Conn* c = connectionFor(LdapOpKind(m_nextOp), window);
        if (!c)
            return; // the drawn operation waits for a free slot of its kind: the mix stays exact
        if (send(*c, LdapOpKind(m_nextOp), now, true) == SendResult::Full)
            return;
        m_nextOp = -1;
    }
}

// Returns how long the loop may sleep. An arrival that could not be sent within the operation timeout of its
// scheduled time is `missed`: never sent, counted, and the schedule moves on (an outage is no burst afterwards).
uint64_t LoadWorker::sendOpenLoop(uint64_t now, int window, double rate, uint64_t& nextIntended)
{
    const auto period = std::max<uint64_t>(1, uint64_t(1e9 / rate));
    const uint64_t lagLimit = uint64_t(m_shared.load.spec.target.opTimeoutMs) * 1000000ULL;
    if (now > nextIntended + lagLimit) {
        const uint64_t skipped = (now - lagLimit - nextIntended) / period + 1;
        nextIntended += skipped * period;
        if (LoadStats* st = statsAt(now))
            st->missed += skipped;
    }
    for (int sends = 0; nextIntended <= now && sends < kMaxSendsPerRound; ++sends) {
        if (m_nextOp < 0)
            m_nextOp = int(m_shared.source.next(m_rng));
        Conn* c = connectionFor(LdapOpKind(m_nextOp), window);
        if (!c || send(*c, LdapOpKind(m_nextOp), nextIntended, false) == SendResult::Full)
            return kBatchWaitNs; // every connection full or down: wait for a completion
        m_nextOp = -1;
        nextIntended += period;
    }
    if (nextIntended <= now)
        return kBatchWaitNs;
    // A timed wait ends some 40-60 µs late on a VM, and that lateness would be in the latency (it counts from the
    // schedule): wake kSpinNs early and poll the last stretch. Costs at most kSpinNs of CPU per scheduled send.
    const uint64_t due = nextIntended - now;
    return due > kSpinNs ? std::min(kMaxWaitNs, due - kSpinNs) : 0;
}

void LoadWorker::runBindNewConnection()
{
    const CompiledLoad& l = m_shared.load;
    LdapTarget t = l.spec.target;
    t.auth = LdapTarget::Auth::Simple;
    LdapTlsContext tls; // LDAPS/StartTLS: one context for all this thread's connections
    m_shared.ready.fetch_add(1);
    uint64_t nextIntended = nowNs();
    while (!m_shared.stop.load(std::memory_order_relaxed)) {
        uint64_t now = nowNs();
        advance(now);
        if (const uint64_t from = m_shared.sendFromNs.load(std::memory_order_relaxed); now < from) {
            std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<uint64_t>(from - now, 10000000ULL)));
            nextIntended = from;
            continue;
        }
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
            setLastError(e.message());
        }
        const uint64_t latency = now - start;
        record(int(LdapOpKind::Bind), code, 0, now, &latency);
    }
}
