#include "core/workload/logparser.h"

#include "core/workload/logscan.h"
#include "core/workload/parse389.h"
#include "core/workload/parseaccesslogldif.h"
#include "core/workload/parseopenldap.h"

#include <algorithm>
#include <cctype>

bool JoinedOp::isMonitorRead() const
{
    if (kind != WorkloadOpKind::Search)
        return false;
    static constexpr std::string_view kMonitor = "cn=monitor";
    const auto sameAs = [](std::string_view a, std::string_view b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
            return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
        });
    };
    const std::string_view d(dn);
    const size_t firstComma = d.find(',');
    const size_t lastComma = d.rfind(',');
    return sameAs(d.substr(0, firstComma), kMonitor)
        || (lastComma != std::string_view::npos && sameAs(d.substr(lastComma + 1), kMonitor));
}

void JoinedOp::clear()
{
    conn = 0;
    op = -1;
    kind = WorkloadOpKind::Search;
    haveRequest = haveResult = filterCut = unindexed = false;
    startNs = endNs = 0;
    dn.clear();
    filter.clear();
    scope = -1;
    attrs.clear();
    newRdn.clear();
    newSuperior.clear();
    oid.clear();
    abandonTarget = -1;
    writeValues.clear();
    err = -1;
    nentries = -1;
    etimeMs = wtimeMs = optimeMs = qtimeMs = -1;
}

uint32_t OpJoiner::takeSlot()
{
    if (!m_free.empty()) {
        const uint32_t slot = m_free.back();
        m_free.pop_back();
        return slot;
    }
    m_pool.emplace_back();
    return uint32_t(m_pool.size() - 1);
}

void OpJoiner::request(const JoinedOp& op)
{
    ++m_stats->operationsRecognised;
    if (op.kind == WorkloadOpKind::Unbind || op.kind == WorkloadOpKind::Abandon) {
        m_orphan = op;
        m_orphan.haveRequest = true;
        m_sink->operation(m_orphan);
        return;
    }
    auto& p = m_pending[op.conn];
    for (uint32_t slot : p.waiting)
        if (m_pool[slot].op == op.op) { // the same op number again: the first never got its result
            ++m_stats->requestsWithoutResult;
            m_sink->operation(m_pool[slot]);
            m_pool[slot] = op;
            m_pool[slot].haveRequest = true;
            return;
        }
    if (p.waiting.size() >= MaxPendingPerConnection) {
        ++m_stats->requestsWithoutResult;
        m_sink->operation(m_pool[p.waiting.front()]);
        m_free.push_back(p.waiting.front());
        p.waiting.erase(p.waiting.begin());
    }
    const uint32_t slot = takeSlot();
    m_pool[slot] = op;
    m_pool[slot].haveRequest = true;
    p.waiting.push_back(slot);
}

JoinedOp* OpJoiner::findPending(uint64_t conn, int64_t op)
{
    const auto it = m_pending.find(conn);
    if (it == m_pending.end())
        return nullptr;
    for (uint32_t slot : it->second.waiting)
        if (m_pool[slot].op == op)
            return &m_pool[slot];
    return nullptr;
}

void OpJoiner::dropPending(uint64_t conn, JoinedOp* j)
{
    auto& p = m_pending[conn];
    const auto slot = uint32_t(j - m_pool.data());
    p.waiting.erase(std::find(p.waiting.begin(), p.waiting.end(), slot));
    m_free.push_back(slot);
    if (p.closed && p.waiting.empty()) {
        m_sink->connectionClosed(conn, p.closeNs);
        m_pending.erase(conn);
    }
}

void OpJoiner::closeAfterFlush(uint64_t conn, Pending& p)
{
    flushConnection(p);
    if (p.closed)
        m_sink->connectionClosed(conn, p.closeNs);
    p.closed = false;
}

void OpJoiner::flushConnection(Pending& p)
{
    for (uint32_t slot : p.waiting) {
        ++m_stats->requestsWithoutResult;
        m_sink->operation(m_pool[slot]);
        m_free.push_back(slot);
    }
    p.waiting.clear();
}

void OpJoiner::opened(uint64_t conn, uint64_t ns, std::string_view client)
{
    const auto it = m_pending.find(conn);
    if (it != m_pending.end()) // a connection number reused (a restarted server): the old one is over
        closeAfterFlush(conn, it->second);
    m_sink->connectionOpened(conn, ns, client);
}

void OpJoiner::closed(uint64_t conn, uint64_t ns)
{
    const auto it = m_pending.find(conn);
    if (it != m_pending.end() && !it->second.waiting.empty()) {
        it->second.closed = true;
        it->second.closeNs = ns;
        m_closedWaiting.push_back(conn);
    } else {
        if (it != m_pending.end())
            m_pending.erase(it);
        m_sink->connectionClosed(conn, ns);
    }
    if (m_closedWaiting.size() > ClosedConnectionsKept) {
        const uint64_t oldest = m_closedWaiting.front();
        m_closedWaiting.pop_front();
        const auto old = m_pending.find(oldest);
        if (old != m_pending.end() && old->second.closed) {
            closeAfterFlush(oldest, old->second);
            m_pending.erase(old);
        }
    }
}

void OpJoiner::finish()
{
    // In request order across connections (pool slots are not): by request time.
    std::vector<uint32_t> all;
    for (auto& [conn, p] : m_pending)
        all.insert(all.end(), p.waiting.begin(), p.waiting.end());
    std::sort(all.begin(), all.end(), [this](uint32_t a, uint32_t b) { return m_pool[a].startNs < m_pool[b].startNs; });
    for (uint32_t slot : all) {
        ++m_stats->requestsWithoutResult;
        m_sink->operation(m_pool[slot]);
    }
    for (auto& [conn, p] : m_pending)
        if (p.closed)
            m_sink->connectionClosed(conn, p.closeNs);
    m_pending.clear();
    m_closedWaiting.clear();
    m_free.clear();
    m_pool.clear();
}

std::optional<LogFormat> logFormatFromOption(const QString& name)
{
    if (name == u"auto")
        return LogFormat::Auto;
    if (name == u"389")
        return LogFormat::Ds389;
    if (name == u"openldap")
        return LogFormat::OpenLdap;
    if (name == u"accesslog-ldif")
        return LogFormat::AccesslogLdif;
    return std::nullopt;
}

QString logFormatName(LogFormat f)
{
    switch (f) {
    case LogFormat::Ds389:
        return QStringLiteral("389-access");
    case LogFormat::OpenLdap:
        return QStringLiteral("openldap-stats");
    case LogFormat::AccesslogLdif:
        return QStringLiteral("accesslog-ldif");
    case LogFormat::Auto:
        break;
    }
    return QStringLiteral("auto");
}

std::unique_ptr<LogParser> LogParser::create(LogFormat format, WorkloadSink* sink)
{
    switch (format) {
    case LogFormat::Ds389:
        return std::make_unique<Parse389>(sink);
    case LogFormat::OpenLdap:
        return std::make_unique<ParseOpenLdap>(sink);
    case LogFormat::AccesslogLdif:
        return std::make_unique<ParseAccesslogLdif>(sink);
    case LogFormat::Auto:
        break;
    }
    return nullptr;
}

LogFormat LogParser::detect(const std::vector<std::string>& firstLines)
{
    using namespace LogScan;
    for (const std::string& l : firstLines) {
        const sv s(l);
        if (startsWith(s, "[") && s.find("] conn=") != sv::npos)
            return LogFormat::Ds389;
        if (s.find(" conn=") != sv::npos || startsWith(s, "conn="))
            return LogFormat::OpenLdap;
        if (startsWith(s, "reqStart:") || startsWith(s, "reqType:") || startsWith(s, "objectClass: audit")
            || (startsWith(s, "dn: reqStart=")))
            return LogFormat::AccesslogLdif;
    }
    return LogFormat::Auto;
}
