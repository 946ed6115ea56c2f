#include "core/replay/replayworker.h"

#include <algorithm>
#include <ctime>
#include <poll.h>
#include <sys/prctl.h>

namespace {

bool isSuccess(WorkloadOpKind kind, int code)
{
    if (kind == WorkloadOpKind::Compare)
        return code == 5 || code == 6;
    return code == 0;
}

void count(LoadCounts& c, WorkloadOpKind kind, int code, int entries, const uint64_t* latencyNs, int timeoutCode)
{
    if (latencyNs)
        c.latency.record(*latencyNs);
    ++c.resultCodes[code];
    if (code == timeoutCode)
        ++c.timeouts;
    if (!isSuccess(kind, code)) {
        ++c.errors;
        return;
    }
    ++c.ok;
    if (kind == WorkloadOpKind::Search) {
        c.entries += uint64_t(entries);
        if (entries == 0)
            ++c.noEntry;
    }
}

void onCompletion(void* user, const LdapSession::Completion& c)
{
    static_cast<std::vector<LdapSession::Completion>*>(user)->push_back(c);
}

} // namespace

void ReplayStats::merge(const ReplayStats& o)
{
    all.merge(o.all);
    for (size_t i = 0; i < byKind.size(); ++i)
        if (!o.byKind[i].empty())
            byKind[i].merge(o.byKind[i]);
    missed += o.missed;
    connects += o.connects;
    connectFailures += o.connectFailures;
    unbinds += o.unbinds;
    if (o.sendLag.count() > 0)
        sendLag.merge(o.sendLag);
}

uint64_t ReplayWorker::nowNs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000000ULL + uint64_t(ts.tv_nsec);
}

ReplayWorker::ReplayWorker(ReplayShared& shared, std::vector<size_t> connections)
    : m_shared(shared)
{
    m_conns.resize(connections.size());
    for (size_t i = 0; i < connections.size(); ++i)
        m_conns[i].plan = &shared.plan.connections[connections[i]];
    std::stable_sort(m_conns.begin(), m_conns.end(),
        [](const Conn& a, const Conn& b) { return a.plan->openAtNs < b.plan->openAtNs; });
    m_byTemplate.resize(shared.plan.templates.size());
    m_done.reserve(64);
}

ReplayWorker::~ReplayWorker() = default;

void ReplayWorker::take(int64_t lastIndex, ReplayStats& into)
{
    std::lock_guard lock(m_mutex);
    for (auto it = m_pending.begin(); it != m_pending.end() && it->first <= lastIndex;) {
        into.merge(it->second);
        it = m_pending.erase(it);
    }
}

QString ReplayWorker::lastError() const
{
    std::lock_guard lock(m_mutex);
    return m_lastError;
}

void ReplayWorker::setLastError(const QString& e)
{
    std::lock_guard lock(m_mutex);
    m_lastError = e;
}

void ReplayWorker::record(const ReplayOp& op, int code, int entries, uint64_t now, const uint64_t* latencyNs)
{
    if (isSuccess(op.kind, code))
        m_shared.lastSuccessNs.store(now, std::memory_order_relaxed);
    m_shared.completed.fetch_add(1, std::memory_order_relaxed);
    if (now > m_shared.endNs.load(std::memory_order_relaxed))
        return;
    if (op.templateId >= 0 && size_t(op.templateId) < m_byTemplate.size())
        count(m_byTemplate[size_t(op.templateId)], op.kind, code, entries, latencyNs, kTimeout);
    const int64_t idx = std::max<int64_t>(0, m_shared.clock.index(now));
    std::lock_guard lock(m_mutex);
    ReplayStats& st = m_pending[idx];
    count(st.all, op.kind, code, entries, latencyNs, kTimeout);
    count(st.byKind[size_t(op.kind)], op.kind, code, entries, latencyNs, kTimeout);
}

// Until the replay's time 0 the thread only waits: no connect, no send lands before the measured span.
bool ReplayWorker::waitForStart()
{
    for (;;) {
        if (m_shared.stop.load(std::memory_order_relaxed))
            return false;
        const uint64_t now = nowNs(), t0 = m_shared.clock.t0();
        if (now >= t0)
            return true;
        const uint64_t waitNs = std::min(t0 - now, kMaxWaitNs);
        const timespec ts { time_t(waitNs / 1000000000ULL), long(waitNs % 1000000000ULL) };
        nanosleep(&ts, nullptr);
    }
}

// Connections are sorted by their open time: start the connects that are due, at most kMaxConnecting at once and
// kStartsPerRound per round.
uint64_t ReplayWorker::openDue(uint64_t now)
{
    uint64_t wake = now + kMaxWaitNs;
    for (size_t started = 0; m_nextPending < m_conns.size() && m_connecting.size() < kMaxConnecting; ++m_nextPending) {
        if (started++ == kStartsPerRound)
            return std::min(wake, now); // the next round, once the open connections had their turn
        Conn& c = m_conns[m_nextPending];
        const uint64_t due = m_shared.clock.t0() + c.plan->openAtNs;
        if (!m_shared.plan.closedLoop && now < due)
            return std::min(wake, due);
        c.connecting = std::make_unique<LdapConnector>(m_shared.target, &m_tls);
        c.state = Conn::State::Connecting;
        m_connecting.push_back(&c);
    }
    return m_connecting.empty() ? wake : std::min(wake, now + kConnectPollNs);
}

void ReplayWorker::connected(uint64_t now)
{
    for (auto it = m_connecting.begin(); it != m_connecting.end();) {
        Conn& c = **it;
        if (!c.connecting->done()) {
            ++it;
            continue;
        }
        it = m_connecting.erase(it);
        c.session = std::make_unique<LdapSession>();
        const ProbeError e = c.connecting->take(*c.session);
        c.connecting.reset();
        {
            std::lock_guard lock(m_mutex);
            ReplayStats& st = m_pending[std::max<int64_t>(0, m_shared.clock.index(now))];
            ++(e.isError() ? st.connectFailures : st.connects);
        }
        if (e.isError()) { // everything it had to send fails
            c.session.reset();
            lost(c, now, e.nativeCode > 0 ? e.nativeCode : kServerDown);
            setLastError(QStringLiteral("connect: ") + e.message());
            continue;
        }
        c.fd = c.session->fd();
        c.state = Conn::State::Open;
        m_open.push_back(&c);
    }
}

void ReplayWorker::run()
{
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    std::vector<pollfd> fds;
    std::vector<Conn*> polled;
    const bool started = waitForStart();
    uint64_t lastExpire = nowNs();
    while (started && !m_shared.stop.load(std::memory_order_relaxed)) {
        uint64_t now = nowNs();
        connected(now);
        uint64_t wake = openDue(now);
        now = nowNs();
        fds.clear();
        polled.clear();
        for (Conn* c : m_open) {
            wake = std::min(wake, step(*c, now));
            if (c->state == Conn::State::Open) {
                fds.push_back(pollfd { c->fd, POLLIN, 0 });
                polled.push_back(c);
            }
        }
        m_open.swap(polled);
        m_watermark.store(now, std::memory_order_release);
        if (m_open.empty() && m_connecting.empty() && m_nextPending >= m_conns.size())
            break;
        now = nowNs();
        // A timed wait ends some 50 µs late, and that lateness would be in the latency (it counts from the
        // schedule): wake kSpinNs early and poll the last stretch, as the load generator does.
        const uint64_t waitNs = wake > now + kSpinNs ? wake - now - kSpinNs : 0;
        const timespec ts { time_t(waitNs / 1000000000ULL), long(waitNs % 1000000000ULL) };
        const int n = ppoll(fds.data(), nfds_t(fds.size()), &ts, nullptr);
        now = nowNs();
        if (n > 0)
            for (size_t i = 0; i < fds.size(); ++i)
                if (fds[i].revents != 0 && m_open[i]->state == Conn::State::Open)
                    drain(*m_open[i], now);
        if (now - lastExpire >= 20000000ULL) {
            lastExpire = now;
            expire(now);
        }
    }
    // Stopped: what is in flight is abandoned, every connection closed (one being made: once it is).
    for (Conn& c : m_conns) {
        if (c.state == Conn::State::Open)
            close(c);
        c.connecting.reset();
    }
    timespec cpu {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    m_cpuSeconds.store(double(cpu.tv_sec) + double(cpu.tv_nsec) / 1e9, std::memory_order_release);
    m_watermark.store(UINT64_MAX, std::memory_order_release);
    m_finished.store(true, std::memory_order_release);
}

// An open connection's turn: send what is due, close it when its log says and everything is answered.
uint64_t ReplayWorker::step(Conn& c, uint64_t now)
{
    const uint64_t t0 = m_shared.clock.t0();
    uint64_t wake = now + kMaxWaitNs;
    sendDue(c, now, wake);
    if (c.state != Conn::State::Open)
        return wake;
    if (c.next >= c.plan->ops.size() && c.inflight.empty()) {
        const uint64_t closeAt = t0 + c.plan->closeAtNs;
        if (m_shared.plan.closedLoop || now >= closeAt)
            close(c);
        else
            wake = std::min(wake, closeAt);
    }
    return wake;
}

// Sends every operation that is due and that the log's order allows: one the log shows sent before the previous
// result (mayOverlap) goes at once, any other waits until nothing is in flight on its connection.
void ReplayWorker::sendDue(Conn& c, uint64_t now, uint64_t& wake)
{
    const uint64_t t0 = m_shared.clock.t0();
    const bool closedLoop = m_shared.plan.closedLoop;
    const uint64_t lagLimit = uint64_t(m_shared.target.opTimeoutMs) * 1000000ULL;
    while (c.next < c.plan->ops.size() && c.state == Conn::State::Open) {
        const ReplayOp& op = c.plan->ops[c.next];
        if (op.action != ReplayOp::Action::Send) {
            if (op.action == ReplayOp::Action::Unbind && !c.inflight.empty())
                return; // the unbind comes after the answers
            if (op.action == ReplayOp::Action::Unbind) {
                std::lock_guard lock(m_mutex);
                ++m_pending[std::max<int64_t>(0, m_shared.clock.index(now))].unbinds;
            }
            ++c.next;
            continue;
        }
        const uint64_t due = t0 + op.atNs;
        if (!closedLoop && now < due) {
            wake = std::min(wake, due);
            return;
        }
        if (!op.mayOverlap && !c.inflight.empty())
            return; // woken by the answer
        if (!closedLoop && now > due + lagLimit) {
            std::lock_guard lock(m_mutex);
            ++m_pending[std::max<int64_t>(0, m_shared.clock.index(now))].missed;
            ++c.next;
            continue;
        }
        const size_t index = c.next++;
        if (!send(c, index, closedLoop ? now : due))
            continue;
        countSend(now, closedLoop ? 0 : now - due, !closedLoop);
        now = nowNs();
    }
}

// One more in the second of `now` after time 0, when `now` is inside the measured span.
bool ReplayWorker::countInSecond(std::vector<uint64_t>& perSecond, uint64_t now) const
{
    const uint64_t t0 = m_shared.clock.t0();
    if (now > m_shared.endNs.load(std::memory_order_relaxed) || now < t0)
        return false;
    const auto second = size_t((now - t0) / 1000000000ULL);
    if (perSecond.size() <= second)
        perSecond.resize(second + 1, 0);
    ++perSecond[second];
    return true;
}

// A send inside the measured span: its second (the offered rate) and, open loop, how late it left.
void ReplayWorker::countSend(uint64_t now, uint64_t lagNs, bool openLoop)
{
    if (!countInSecond(m_sentPerSecond, now))
        return;
    if (!openLoop)
        return;
    std::lock_guard lock(m_mutex);
    m_pending[std::max<int64_t>(0, m_shared.clock.index(now))].sendLag.record(lagNs);
}

bool ReplayWorker::send(Conn& c, size_t index, uint64_t startNs)
{
    const ReplayOp& op = c.plan->ops[index];
    LdapSession& s = *c.session;
    int msgid = 0, rc = 0;
    switch (op.kind) {
    case WorkloadOpKind::Search:
        m_attrs.clear();
        for (const QByteArray& a : op.attrs)
            m_attrs.push_back(const_cast<char*>(a.constData()));
        m_attrs.push_back(nullptr);
        rc = s.sendSearch(op.dn.constData(), op.scope, op.filter.isEmpty() ? "(objectClass=*)" : op.filter.constData(),
            op.attrs.empty() ? nullptr : m_attrs.data(), 0, &msgid);
        break;
    case WorkloadOpKind::Bind:
        rc = s.sendSimpleBind(op.dn.constData(), op.password, &msgid);
        break;
    case WorkloadOpKind::Compare:
        rc = s.sendCompare(op.dn.constData(), op.attr.constData(), op.value.constData(), int(op.value.size()), &msgid);
        break;
    case WorkloadOpKind::Modify:
        rc = s.sendModifyReplace(
            op.dn.constData(), op.attr.constData(), op.value.constData(), int(op.value.size()), &msgid);
        break;
    case WorkloadOpKind::Add:
        rc = s.sendAddPerson(op.dn.constData(), op.uid.constData(), &msgid);
        break;
    case WorkloadOpKind::Delete:
        rc = s.sendDelete(op.dn.constData(), &msgid);
        break;
    default:
        return false;
    }
    if (rc != 0) {
        const uint64_t now = nowNs();
        if (rc == -1) { // LDAP_SERVER_DOWN
            --c.next; // counted with what is left
            lost(c, now, kServerDown);
        } else {
            record(op, rc < 0 ? kLocalError : rc, 0, now, nullptr);
        }
        return false;
    }
    c.inflight.push_back(Slot { msgid, startNs, index });
    return true;
}

void ReplayWorker::drain(Conn& c, uint64_t now)
{
    m_done.clear();
    const int n = c.session->collect(&onCompletion, &m_done);
    for (const auto& done : m_done) {
        const auto it
            = std::find_if(c.inflight.begin(), c.inflight.end(), [&](const Slot& s) { return s.msgid == done.msgid; });
        if (it == c.inflight.end())
            continue; // abandoned after a timeout
        const uint64_t latency = now > it->startNs ? now - it->startNs : 0;
        record(c.plan->ops[it->op], done.resultCode, done.entries, now, &latency);
        countInSecond(m_answeredPerSecond, now); // the achieved rate: what the server answered, when
        c.inflight.erase(it);
    }
    if (n < 0)
        lost(c, now, kServerDown);
}

// The connection is gone (or never came): what was in flight failed, and so does everything it had left to send.
void ReplayWorker::lost(Conn& c, uint64_t now, int code)
{
    for (const Slot& s : c.inflight)
        record(c.plan->ops[s.op], code, 0, now, nullptr);
    c.inflight.clear();
    for (; c.next < c.plan->ops.size(); ++c.next)
        if (c.plan->ops[c.next].action == ReplayOp::Action::Send)
            record(c.plan->ops[c.next], code, 0, now, nullptr);
    if (c.session)
        c.session->close();
    c.session.reset();
    c.fd = -1;
    c.state = Conn::State::Done;
    setLastError(QStringLiteral("connection lost: ") + LdapSession::resultText(-1));
}

void ReplayWorker::close(Conn& c)
{
    for (const Slot& s : c.inflight)
        c.session->abandon(s.msgid);
    c.inflight.clear();
    c.session->close(); // the unbind
    c.session.reset();
    c.fd = -1;
    c.state = Conn::State::Done;
}

void ReplayWorker::expire(uint64_t now)
{
    const uint64_t limit = uint64_t(m_shared.target.opTimeoutMs) * 1000000ULL;
    for (Conn& c : m_conns) {
        if (c.state != Conn::State::Open)
            continue;
        for (auto it = c.inflight.begin(); it != c.inflight.end();) {
            if (now < it->startNs || now - it->startNs < limit) {
                ++it;
                continue;
            }
            c.session->abandon(it->msgid);
            const uint64_t latency = now - it->startNs;
            record(c.plan->ops[it->op], kTimeout, 0, now, &latency);
            it = c.inflight.erase(it);
            setLastError(QStringLiteral("no answer within the operation timeout"));
        }
    }
}
