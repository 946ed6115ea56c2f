#include "core/workload/logparser.h"

#include "core/workload/logscan.h"
#include "core/workload/parse389.h"
#include "core/workload/parseaccesslogldif.h"
#include "core/workload/parseopenldap.h"

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

void OpJoiner::request(JoinedOp&& op)
{
    op.haveRequest = true;
    if (op.kind == WorkloadOpKind::Unbind || op.kind == WorkloadOpKind::Abandon) {
        m_sink->operation(op);
        return;
    }
    auto& p = m_pending[op.conn];
    for (auto& waiting : p.ops)
        if (waiting.op == op.op) { // the same op number again: the first never got its result
            ++m_stats->requestsWithoutResult;
            m_sink->operation(waiting);
            waiting = std::move(op);
            return;
        }
    if (p.ops.size() >= MaxPendingPerConnection) {
        ++m_stats->requestsWithoutResult;
        m_sink->operation(p.ops.front());
        p.ops.erase(p.ops.begin());
    }
    p.ops.push_back(std::move(op));
}

JoinedOp* OpJoiner::findPending(uint64_t conn, int64_t op)
{
    const auto it = m_pending.find(conn);
    if (it == m_pending.end())
        return nullptr;
    for (auto& j : it->second.ops)
        if (j.op == op)
            return &j;
    return nullptr;
}

void OpJoiner::dropPending(uint64_t conn, JoinedOp* j)
{
    auto& ops = m_pending[conn].ops;
    ops.erase(ops.begin() + (j - ops.data()));
}

void OpJoiner::flushConnection(Pending& p)
{
    for (const auto& j : p.ops) {
        ++m_stats->requestsWithoutResult;
        m_sink->operation(j);
    }
    p.ops.clear();
}

void OpJoiner::opened(uint64_t conn, uint64_t ns, std::string_view client)
{
    const auto it = m_pending.find(conn);
    if (it != m_pending.end()) // a connection number reused (a restarted server): the old one is over
        flushConnection(it->second);
    m_sink->connectionOpened(conn, ns, client);
}

void OpJoiner::closed(uint64_t conn, uint64_t ns)
{
    const auto it = m_pending.find(conn);
    if (it != m_pending.end()) {
        flushConnection(it->second);
        m_pending.erase(it);
    }
    m_sink->connectionClosed(conn, ns);
}

void OpJoiner::finish()
{
    for (auto& [conn, p] : m_pending)
        flushConnection(p);
    m_pending.clear();
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
