// LoadWorker's connections: connecting (the first time on the worker's thread, before the measured phase; after a
// loss on a helper thread), sending (held, then flushed as one write per connection), reading what arrived,
// timeouts, losses, and the end of a run. The event loop itself is in loadworker.cpp.
#include "core/common/units.h"
#include "core/ldap/loadworker.h"

#include <QString>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <sys/epoll.h>
#include <unistd.h>

namespace {

void onCompletion(void* user, const LdapSession::Completion& c)
{
    static_cast<std::vector<LdapSession::Completion>*>(user)->push_back(c);
}

} // namespace

bool LoadWorker::connect(Conn& c, uint64_t now)
{
    auto s = std::make_unique<LdapSession>();
    const ProbeError e = s->open(m_shared.load.spec.target);
    if (e.isError()) {
        connectFailed(c, e, now);
        return false;
    }
    return install(c, std::move(s), now);
}

void LoadWorker::connectFailed(Conn& c, const ProbeError& e, uint64_t now)
{
    if (LoadStats* st = statsAt(now))
        ++st->connectFailures;
    setLastError(e.message());
    c.retryAtNs = now + c.backoffMs * 1000000ULL;
    c.backoffMs = std::min<uint64_t>(c.backoffMs * 2, 2000);
}

bool LoadWorker::install(Conn& c, std::unique_ptr<LdapSession> session, uint64_t now)
{
    c.session = std::move(session);
    c.io = c.session->enableBatchedIo();
    c.fd = c.session->fd();
    c.bytesBase = c.io ? c.io->bytesReceived() : 0;
    c.completed = 0;
    epoll_event ev {};
    ev.events = EPOLLIN;
    ev.data.u64 = uint64_t(&c - m_conns.data());
    epoll_ctl(m_epoll, EPOLL_CTL_ADD, c.fd, &ev);
    if (c.everUp)
        if (LoadStats* st = statsAt(now))
            ++st->reconnects;
    c.up = c.everUp = true;
    c.backoffMs = 50;
    return true;
}

void LoadWorker::startReconnect(Conn& c, uint64_t now)
{
    (void)now;
    c.connecting = std::make_unique<LdapConnector>(m_shared.load.spec.target);
}

void LoadWorker::finishReconnect(Conn& c, uint64_t now)
{
    const std::unique_ptr<LdapConnector> done = std::move(c.connecting);
    auto session = std::make_unique<LdapSession>();
    if (const ProbeError e = done->take(*session); e.isError()) {
        connectFailed(c, e, now);
        return;
    }
    install(c, std::move(session), now);
}

void LoadWorker::reconnectDue(uint64_t now)
{
    for (Conn& c : m_conns) {
        if (c.up || m_shared.stop.load())
            continue;
        if (c.connecting) {
            if (c.connecting->done())
                finishReconnect(c, now);
        } else if (now >= c.retryAtNs) {
            startReconnect(c, now);
        }
    }
}

void LoadWorker::lost(Conn& c, uint64_t now)
{
    for (Slot& s : c.slotTable) {
        if (!s.busy)
            continue;
        // In flight when the connection went: failed, with no answer to time.
        record(s.op == OpDelete ? int(LdapOpKind::AddDelete) : s.op, kServerDown, 0, now, nullptr);
        s = Slot();
    }
    c.inflight = 0;
    c.unsent.clear();
    c.dirty = false;
    c.io = nullptr;
    if (c.fd >= 0)
        epoll_ctl(m_epoll, EPOLL_CTL_DEL, c.fd, nullptr);
    c.session->close();
    c.fd = -1;
    c.up = false;
    c.retryAtNs = now + c.backoffMs * 1000000ULL;
    c.backoffMs = std::min<uint64_t>(c.backoffMs * 2, 2000);
    setLastError(QStringLiteral("connection lost: ") + LdapSession::resultText(-1));
}

LoadWorker::SendResult LoadWorker::send(Conn& c, LdapOpKind op, uint64_t startNs, bool stampAtFlush)
{
    const CompiledLoad& l = m_shared.load;
    Slot* slot = nullptr;
    for (Slot& s : c.slotTable)
        if (!s.busy) {
            slot = &s;
            break;
        }
    if (!slot)
        return SendResult::Full;
    int msgid = 0, rc = 0;
    LdapSession& session = *c.session;
    switch (op) {
    case LdapOpKind::Search:
        l.filter.render(m_buf, m_rng);
        rc = session.sendSearch(l.base.constData(), int(l.spec.scope), m_buf.constData(),
            l.attrs.isEmpty() ? nullptr : m_attrs.data(), l.spec.sizeLimit, &msgid);
        break;
    case LdapOpKind::Compare:
        l.dn.render(m_buf, m_rng);
        l.value.render(m_buf2, m_rng);
        rc = session.sendCompare(m_buf.constData(), l.attr.constData(), m_buf2.constData(), int(m_buf2.size()), &msgid);
        break;
    case LdapOpKind::Modify:
        l.dn.render(m_buf, m_rng);
        l.value.render(m_buf2, m_rng);
        rc = session.sendModifyReplace(
            m_buf.constData(), l.attr.constData(), m_buf2.constData(), int(m_buf2.size()), &msgid);
        break;
    case LdapOpKind::Bind:
        l.dn.render(m_buf, m_rng);
        rc = session.sendSimpleBind(m_buf.constData(), l.spec.target.password, &msgid);
        break;
    case LdapOpKind::AddDelete: {
        const QByteArray uid = "dirbench-" + m_shared.runTag + '-' + QByteArray::number(m_index) + '-'
            + QByteArray::number(quint64(++m_addCounter));
        slot->dn = "uid=" + uid + ',' + l.parent;
        rc = session.sendAddPerson(slot->dn.constData(), uid.constData(), &msgid);
        break;
    }
    }
    if (rc != 0) {
        slot->dn.clear();
        const uint64_t now = nowNs();
        if (rc == -1 /* LDAP_SERVER_DOWN */) {
            lost(c, now);
            return SendResult::Full; // the operation was not sent: it goes to another connection
        }
        record(int(op), rc < 0 ? kLocalError : rc, 0, now, nullptr); // failed here: no answer to time
        return SendResult::Failed;
    }
    slot->busy = true;
    slot->msgid = msgid;
    slot->startNs = startNs;
    slot->op = int(op);
    slot->stampAtFlush = stampAtFlush;
    ++c.inflight;
    c.dirty = true;
    c.unsent.push_back(uint32_t(slot - c.slotTable.data()));
    return SendResult::Sent;
}

bool LoadWorker::sendDelete(Conn& c, Slot& slot, uint64_t now)
{
    int msgid = 0;
    if (c.session->sendDelete(slot.dn.constData(), &msgid) != 0)
        return false;
    slot.msgid = msgid;
    slot.startNs = now; // until the flush that writes it
    slot.op = OpDelete;
    slot.stampAtFlush = true;
    c.dirty = true;
    c.unsent.push_back(uint32_t(&slot - c.slotTable.data()));
    return true;
}

void LoadWorker::drain(Conn& c, uint64_t now, bool readable)
{
    c.drainedRound = m_round;
    if (readable && c.io)
        c.io->markReadable();
    m_done.clear();
    const int n = c.session->collect(&onCompletion, &m_done);
    for (const auto& done : m_done) {
        auto it = std::find_if(
            c.slotTable.begin(), c.slotTable.end(), [&](const Slot& s) { return s.busy && s.msgid == done.msgid; });
        if (it == c.slotTable.end())
            continue; // abandoned after a timeout
        Slot& s = *it;
        ++c.completed;
        const int op = s.op == OpDelete ? int(LdapOpKind::AddDelete) : s.op;
        const uint64_t latency = now > s.startNs ? now - s.startNs : 0;
        record(op, done.resultCode, done.entries, now, &latency);
        if (s.op == int(LdapOpKind::AddDelete) && done.resultCode == 0 && !m_stopping) {
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
    bool any = false;
    for (Conn& c : m_conns) {
        if (!c.up)
            continue;
        for (Slot& s : c.slotTable) {
            if (!s.busy || now - s.startNs < limit)
                continue;
            // libldap does not time out asynchronous requests: abandon them ourselves.
            c.session->abandon(s.msgid);
            const uint64_t latency = now - s.startNs;
            record(s.op == OpDelete ? int(LdapOpKind::AddDelete) : s.op, kTimeout, 0, now, &latency);
            s = Slot();
            --c.inflight;
            any = true;
        }
    }
    if (any) // the failure sentence names it: a hung server returns no error of its own
        setLastError(QStringLiteral("no answer within the operation timeout (")
            + Units::formatNumber(m_shared.load.spec.target.opTimeoutMs / 1000.0) + QStringLiteral(" s)"));
}

void LoadWorker::finish()
{
    // What is still held was never written: drop it. An add not sent creates nothing; a held delete belongs to
    // an add that is committed, which the coordinator's cleanup finds.
    for (Conn& c : m_conns) {
        if (!c.io || !c.dirty)
            continue;
        c.io->discardHeld();
        for (uint32_t i : c.unsent)
            c.slotTable[i] = Slot();
        c.inflight -= int(c.unsent.size());
        c.unsent.clear();
        c.dirty = false;
    }
    // Adds in flight may still commit: wait for them, as long as the operation timeout would (a loaded server
    // answers late, and an add abandoned now may commit after the cleanup looked), so that the cleanup sees
    // every entry made. At most kFinishWaitMaxNs: a stop never waits longer on a hung server (the cleanup's
    // warning then names what may still appear).
    m_stopping = true;
    const uint64_t opTimeoutNs = uint64_t(m_shared.load.spec.target.opTimeoutMs) * 1000000ULL;
    const uint64_t end = nowNs() + std::clamp(opTimeoutNs, kFinishWaitNs, kFinishWaitMaxNs);
    epoll_event events[64];
    auto inflight = [this] {
        return std::any_of(m_conns.begin(), m_conns.end(), [](const Conn& c) { return c.up && c.inflight > 0; });
    };
    while (m_shared.load.has(LdapOpKind::AddDelete) && inflight() && nowNs() < end) {
        const int n = waitEvents(events, 64, kBatchWaitNs);
        for (int i = 0; i < n; ++i)
            if (Conn& c = m_conns[size_t(events[i].data.u64)]; c.up)
                drain(c, nowNs(), true);
    }
    abandonAll();
}

void LoadWorker::abandonAll()
{
    int adds = 0;
    for (Conn& c : m_conns) {
        for (Slot& s : c.slotTable) {
            adds += s.busy && c.up && s.op == int(LdapOpKind::AddDelete) ? 1 : 0;
            if (s.busy && c.up)
                c.session->abandon(s.msgid);
            s = Slot();
        }
        c.inflight = 0;
        c.session->close();
    }
    if (adds > 0)
        m_shared.unansweredAdds.fetch_add(adds, std::memory_order_relaxed);
}

void LoadWorker::flushSends()
{
    for (Conn& c : m_conns) {
        if (!c.up || !c.dirty)
            continue;
        // The requests leave now: in closed loop, this is when their latency starts.
        const uint64_t t = nowNs();
        const int rc = c.io ? c.io->flush() : 0;
        if (rc < 0) {
            lost(c, t);
            continue;
        }
        LoadStats* st = statsAt(t);
        for (uint32_t i : c.unsent) {
            Slot& s = c.slotTable[i];
            if (s.stampAtFlush)
                s.startNs = t;
            else if (st) // open loop: how late the client was against the schedule (it is in the latency)
                st->sendLag.record(t > s.startNs ? t - s.startNs : 0);
        }
        c.unsent.clear();
        c.dirty = rc > 0; // part still buffered (the socket's buffer is full): sent on the next round
    }
}

bool LoadWorker::tuneLowWater(bool closedLoop)
{
    bool any = false;
    for (Conn& c : m_conns) {
        if (!c.up || !c.io)
            continue;
        int want = 1;
        if (closedLoop && c.inflight >= kBatchMinInflight && c.completed >= 32) {
            const double perOp = double(c.io->bytesReceived() - c.bytesBase) / double(c.completed);
            want = std::clamp(int(perOp * c.inflight * kBatchShare), 1, 32768);
        }
        const int cur = c.io->receiveLowWater();
        if (want != cur && (want == 1 || cur == 1 || std::abs(want - cur) * 4 > cur))
            c.io->setReceiveLowWater(want);
        any = any || c.io->receiveLowWater() > 1;
    }
    return any;
}

int LoadWorker::waitEvents(epoll_event* events, int max, uint64_t timeoutNs)
{
    if (m_pwait2) {
        const timespec ts { time_t(timeoutNs / 1000000000ULL), long(timeoutNs % 1000000000ULL) };
        const int n = epoll_pwait2(m_epoll, events, max, &ts, nullptr);
        if (n >= 0 || errno != ENOSYS)
            return n;
        m_pwait2 = false; // kernel older than 5.11
    }
    return epoll_wait(m_epoll, events, max, int((timeoutNs + 999999ULL) / 1000000ULL));
}
