#include "core/ldap/loadworker.h"

#include <QCoreApplication>

#include <algorithm>
#include <ctime>
#include <sys/epoll.h>
#include <thread>
#include <unistd.h>

namespace {

constexpr int kServerDown = 81; // LDAP_SERVER_DOWN as a result code (libldap reports it as -1)
constexpr int kTimeout = 85; // LDAP_TIMEOUT

bool success(int op, int code)
{
    if (op == int(LdapOpKind::Compare))
        return code == 5 || code == 6; // compareFalse, compareTrue
    return code == 0;
}

void onCompletion(void* user, const LdapSession::Completion& c)
{
    static_cast<std::vector<LdapSession::Completion>*>(user)->push_back(c);
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
        m_shared.lastSuccessNs.store(now, std::memory_order_relaxed);
    } else {
        ++m_local.errors;
    }
}

bool LoadWorker::connect(Conn& c, uint64_t now)
{
    const ProbeError e = c.session.open(m_shared.load.spec.target);
    if (e.isError()) {
        ++m_local.connectFailures;
        {
            std::lock_guard lock(m_mutex);
            m_lastError = e.message();
        }
        c.retryAtNs = now + c.backoffMs * 1000000ULL;
        c.backoffMs = std::min<uint64_t>(c.backoffMs * 2, 2000);
        return false;
    }
    c.session.enableReadAhead();
    c.fd = c.session.fd();
    epoll_event ev {};
    ev.events = EPOLLIN;
    ev.data.u64 = uint64_t(&c - m_conns.data());
    epoll_ctl(m_epoll, EPOLL_CTL_ADD, c.fd, &ev);
    if (c.everUp)
        ++m_local.reconnects;
    c.up = c.everUp = true;
    c.backoffMs = 50;
    return true;
}

void LoadWorker::lost(Conn& c, uint64_t now)
{
    for (Slot& s : c.slotTable) {
        if (!s.busy)
            continue;
        record(s.op == OpDelete ? int(LdapOpKind::AddDelete) : s.op, kServerDown, now - s.startNs, 0, now);
        s = Slot();
    }
    c.inflight = 0;
    if (c.fd >= 0)
        epoll_ctl(m_epoll, EPOLL_CTL_DEL, c.fd, nullptr);
    c.session.close();
    c.fd = -1;
    c.up = false;
    c.retryAtNs = now + c.backoffMs * 1000000ULL;
    c.backoffMs = std::min<uint64_t>(c.backoffMs * 2, 2000);
    std::lock_guard lock(m_mutex);
    m_lastError = QStringLiteral("connection lost: ") + LdapSession::resultText(-1);
}

bool LoadWorker::send(Conn& c, uint64_t startNs)
{
    const CompiledLoad& l = m_shared.load;
    Slot* slot = nullptr;
    for (Slot& s : c.slotTable)
        if (!s.busy) {
            slot = &s;
            break;
        }
    if (!slot)
        return false;
    const int op = l.mixTable[size_t(m_rng.below(100))];
    int msgid = 0, rc = 0;
    switch (LdapOpKind(op)) {
    case LdapOpKind::Search:
        l.filter.render(m_buf, m_rng);
        rc = c.session.sendSearch(l.base.constData(), int(l.spec.scope), m_buf.constData(),
            l.attrs.isEmpty() ? nullptr : m_attrs.data(), l.spec.sizeLimit, &msgid);
        break;
    case LdapOpKind::Compare:
        l.dn.render(m_buf, m_rng);
        l.value.render(m_buf2, m_rng);
        rc = c.session.sendCompare(
            m_buf.constData(), l.attr.constData(), m_buf2.constData(), int(m_buf2.size()), &msgid);
        break;
    case LdapOpKind::Modify:
        l.dn.render(m_buf, m_rng);
        l.value.render(m_buf2, m_rng);
        rc = c.session.sendModifyReplace(
            m_buf.constData(), l.attr.constData(), m_buf2.constData(), int(m_buf2.size()), &msgid);
        break;
    case LdapOpKind::Bind:
        l.dn.render(m_buf, m_rng);
        rc = c.session.sendSimpleBind(m_buf.constData(), l.spec.target.password, &msgid);
        break;
    case LdapOpKind::AddDelete: {
        const QByteArray uid = "dirbench-" + QByteArray::number(qint64(::getpid())) + '-' + QByteArray::number(m_index)
            + '-' + QByteArray::number(quint64(++m_addCounter));
        slot->dn = "uid=" + uid + ',' + l.parent;
        rc = c.session.sendAddPerson(slot->dn.constData(), uid.constData(), &msgid);
        break;
    }
    }
    if (rc != 0) {
        slot->dn.clear();
        if (rc == -1 /* LDAP_SERVER_DOWN */) {
            lost(c, nowNs());
            return false;
        }
        record(op, rc < 0 ? 80 : rc, 0, 0, nowNs());
        return false;
    }
    slot->busy = true;
    slot->msgid = msgid;
    slot->startNs = startNs;
    slot->op = op;
    ++c.inflight;
    return true;
}

bool LoadWorker::sendDelete(Conn& c, Slot& slot, uint64_t now)
{
    int msgid = 0;
    if (c.session.sendDelete(slot.dn.constData(), &msgid) != 0)
        return false;
    slot.msgid = msgid;
    slot.startNs = now;
    slot.op = OpDelete;
    return true;
}

void LoadWorker::drain(Conn& c, uint64_t now)
{
    m_done.clear();
    const int n = c.session.collect(&onCompletion, &m_done);
    for (const auto& done : m_done) {
        auto it = std::find_if(
            c.slotTable.begin(), c.slotTable.end(), [&](const Slot& s) { return s.busy && s.msgid == done.msgid; });
        if (it == c.slotTable.end())
            continue; // abandoned after a timeout
        Slot& s = *it;
        const int op = s.op == OpDelete ? int(LdapOpKind::AddDelete) : s.op;
        record(op, done.resultCode, now - s.startNs, done.entries, now);
        if (s.op == int(LdapOpKind::AddDelete) && done.resultCode == 0) {
            if (sendDelete(c, s, now))
                continue; // the slot stays busy with the delete; what is left is removed at the end of the run
        }
        s = Slot();
        --c.inflight;
    }
    if (n < 0)
        lost(c, now);
}

void LoadWorker::expire(uint64_t now)
{
    const uint64_t limit = uint64_t(m_shared.load.spec.target.opTimeoutMs) * 1000000ULL;
    for (Conn& c : m_conns) {
        if (!c.up)
            continue;
        for (Slot& s : c.slotTable) {
            if (!s.busy || now - s.startNs < limit)
                continue;
            // libldap does not time out asynchronous requests: abandon them ourselves.
            c.session.abandon(s.msgid);
            ++m_local.timeouts;
            record(s.op == OpDelete ? int(LdapOpKind::AddDelete) : s.op, kTimeout, now - s.startNs, 0, now);
            s = Slot();
            --c.inflight;
        }
    }
}

void LoadWorker::abandonAll()
{
    for (Conn& c : m_conns) {
        for (Slot& s : c.slotTable) {
            if (s.busy && c.up)
                c.session.abandon(s.msgid);
            s = Slot();
        }
        c.inflight = 0;
        c.session.close();
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
        int waitMs = 10;
        if (rate > 0) {
            const auto period = uint64_t(1e9 / rate);
            // An outage must not turn into a burst afterwards: the schedule never lags more than the op timeout.
            const uint64_t lagLimit = uint64_t(l.spec.target.opTimeoutMs) * 1000000ULL;
            if (now > nextIntended + lagLimit)
                nextIntended = now - lagLimit;
            size_t tried = 0;
            while (nextIntended <= now && tried < m_conns.size()) {
                Conn& c = m_conns[m_nextConn % m_conns.size()];
                if (c.up && c.inflight < window && send(c, nextIntended)) {
                    nextIntended += period;
                    tried = 0;
                } else {
                    ++m_nextConn;
                    ++tried;
                }
            }
            if (nextIntended > now)
                waitMs = int(std::min<uint64_t>(10, (nextIntended - now) / 1000000ULL));
            else
                waitMs = 1;
        } else {
            for (Conn& c : m_conns)
                while (c.up && c.inflight < window && send(c, now)) { }
            nextIntended = now;
        }
        const int n = epoll_wait(m_epoll, events, 64, waitMs);
        now = nowNs();
        for (int i = 0; i < n; ++i) {
            Conn& c = m_conns[size_t(events[i].data.u64)];
            if (c.up)
                drain(c, now);
        }
        if (now - lastHousekeeping >= 20000000ULL) {
            lastHousekeeping = now;
            expire(now);
            for (Conn& c : m_conns)
                if (!c.up && now >= c.retryAtNs && !m_shared.stop.load())
                    connect(c, now);
            flush();
        }
    }
    abandonAll();
}

void LoadWorker::runBindNewConnection()
{
    const CompiledLoad& l = m_shared.load;
    LdapTarget t = l.spec.target;
    t.auth = LdapTarget::Auth::Simple;
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
        const ProbeError e = s.open(t);
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
