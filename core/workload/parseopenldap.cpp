#include "core/workload/parseopenldap.h"

#include "core/workload/logscan.h"
#include "core/workload/openldapprefix.h"

#include <QDateTime>

using namespace LogScan;

namespace {

// A quoted value key="...": up to `terminator`, else to the last quote; the rest of the line when unquoted.
sv quoted(sv rest, sv key, sv terminator)
{
    const size_t at = rest.find(key);
    if (at == sv::npos)
        return {};
    rest.remove_prefix(at + key.size());
    size_t end = terminator.empty() ? sv::npos : rest.find(terminator);
    if (end == sv::npos)
        end = rest.rfind('"');
    return end == sv::npos ? rest : rest.substr(0, end);
}

std::optional<WorkloadOpKind> kindOfTag(uint64_t tag)
{
    switch (tag) {
    case 97:
        return WorkloadOpKind::Bind;
    case 101:
        return WorkloadOpKind::Search;
    case 103:
        return WorkloadOpKind::Modify;
    case 105:
        return WorkloadOpKind::Add;
    case 107:
        return WorkloadOpKind::Delete;
    case 109:
        return WorkloadOpKind::ModRdn;
    case 111:
        return WorkloadOpKind::Compare;
    case 120:
        return WorkloadOpKind::Extended;
    default:
        return std::nullopt;
    }
}

// Messages of slapd's `stats` level that are not an operation's request or result (servers/slapd and overlays,
// 2.4 to 2.6): understood, not counted.
bool isKnownNonOperation(sv cmd)
{
    static constexpr sv known[]
        = { "ENTRY", "REF", "REFERRAL", "STARTTLS", "PASSMOD", "WHOAMI", "TXN", "TOTP", "HOTP", "QUERY", "PROXYAUTHZ",
              "INTERMEDIATE", "DNSSRV", "DN", "DISCONNECT", "CHAINED", "CANCEL", "AUTHZ", "ACL", "REFRESH", "SASL" };
    for (sv k : known)
        if (cmd == k)
            return true;
    return false;
}

void appendWords(std::string& to, sv words)
{
    if (!to.empty() && !words.empty())
        to += ' ';
    to.append(words.data(), words.size());
}

// "IP=127.0.0.1:40512" -> "127.0.0.1"; "IP=[::1]:40512" -> "::1"; "PATH=/run/ldapi" -> "/run/ldapi".
sv clientOf(sv from)
{
    from = token(from);
    if (consume(from, "IP=")) {
        if (consume(from, "[")) {
            const size_t close = from.find(']');
            return from.substr(0, close);
        }
        const size_t colon = from.rfind(':');
        return colon == sv::npos ? from : from.substr(0, colon);
    }
    consume(from, "PATH=");
    return from;
}

} // namespace

ParseOpenLdap::ParseOpenLdap(WorkloadSink* sink)
    : m_join(sink, &m_stats)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    m_year = now.date().year();
    m_nowS = uint64_t(now.toSecsSinceEpoch());
}

std::optional<uint64_t> ParseOpenLdap::timeOf(sv line) const
{
    return OpenLdapPrefix::parse(line, m_year, m_nowS).ns;
}

void ParseOpenLdap::line(sv line)
{
    ++m_stats.lines;
    const OpenLdapPrefix::Stamp st = OpenLdapPrefix::parse(line, m_year, m_nowS);
    m_stats.subSecond = m_stats.subSecond || st.subSecond;
    m_sawTime = m_sawTime || st.ns;
    sv rest = line.substr(std::min(st.messageAt, line.size()));
    if (!st.known || !consume(rest, "conn=")) {
        if (!st.known && line.find("conn=") != sv::npos) { // a prefix DirBench does not know
            ++m_stats.eventLines;
            notUnderstood(line);
        } else {
            ++m_stats.ignoredLines;
        }
        return;
    }
    ++m_stats.eventLines;
    m_line = line;
    const auto conn = parseUInt(rest);
    if (!conn || !consume(rest, " ")) {
        notUnderstood(line);
        return;
    }
    noteTime(st.ns.value_or(0));
    message(*conn, st.ns.value_or(0), rest);
}

void ParseOpenLdap::message(uint64_t conn, uint64_t ns, sv rest)
{
    if (startsWith(rest, "fd=")) {
        const size_t from = rest.find(" ACCEPT from ");
        if (from != sv::npos)
            m_join.opened(conn, ns, clientOf(rest.substr(from + 13)));
        else if (rest.find(" closed") != sv::npos)
            m_join.closed(conn, ns);
        else // "TLS established", ...
            ++m_stats.ignoredLines;
        return;
    }
    if (!consume(rest, "op=")) {
        notUnderstood(m_line);
        return;
    }
    const auto op = parseInt(rest);
    if (!op || !consume(rest, " ")) {
        notUnderstood(m_line);
        return;
    }
    if (consume(rest, "SEARCH RESULT ") || consume(rest, "RESULT ")) {
        result(conn, *op, ns, rest);
        return;
    }
    const sv cmd = token(rest);
    rest.remove_prefix(cmd.size());
    request(conn, *op, ns, cmd, rest);
}

void ParseOpenLdap::request(uint64_t conn, int64_t op, uint64_t ns, sv cmd, sv rest)
{
    if ((cmd == "SRCH" || cmd == "MOD") && startsWith(rest, " attr=")) { // the attributes of the line before
        if (JoinedOp* j = m_join.pending(conn, op))
            appendWords(j->attrs, rest.substr(6));
        return;
    }
    m_req.clear();
    m_req.conn = conn;
    m_req.op = op;
    m_req.startNs = ns;
    if (cmd == "SRCH") {
        m_req.kind = WorkloadOpKind::Search;
        m_req.dn = quoted(rest, " base=\"", "\" scope=");
        const sv scope = tokenAfter(rest, " scope=");
        m_req.scope = scope.size() == 1 && isDigit(scope[0]) ? scope[0] - '0' : -1;
        m_req.filter = quoted(rest, " filter=\"", {});
        if (scope.empty())
            ++m_stats.cutLines;
    } else if (cmd == "BIND") {
        if (rest.find(" mech=") != sv::npos) // the bind's outcome line ("mech=SIMPLE bind_ssf=0 ssf=0")
            return;
        m_req.kind = WorkloadOpKind::Bind;
        m_req.dn = quoted(rest, " dn=\"", "\" method=");
    } else if (cmd == "MOD" || cmd == "ADD" || cmd == "DEL" || cmd == "MODRDN") {
        m_req.kind = cmd == "MOD" ? WorkloadOpKind::Modify
            : cmd == "ADD"        ? WorkloadOpKind::Add
            : cmd == "DEL"        ? WorkloadOpKind::Delete
                                  : WorkloadOpKind::ModRdn;
        m_req.dn = quoted(rest, " dn=\"", {});
    } else if (cmd == "CMP") {
        m_req.kind = WorkloadOpKind::Compare;
        m_req.dn = quoted(rest, " dn=\"", "\" attr=\"");
        m_req.attrs = quoted(rest, "\" attr=\"", "\"");
    } else if (cmd == "EXT") {
        m_req.kind = WorkloadOpKind::Extended;
        m_req.oid = tokenAfter(rest, " oid=");
    } else if (cmd == "ABANDON") {
        m_req.kind = WorkloadOpKind::Abandon;
        sv t = tokenAfter(rest, " msg=");
        m_req.abandonTarget = parseInt(t).value_or(-1);
    } else if (cmd == "UNBIND") {
        m_req.kind = WorkloadOpKind::Unbind;
    } else {
        if (isKnownNonOperation(cmd)) // ENTRY, REF, STARTTLS, PASSMOD, ...: part of an operation logged apart
            ++m_stats.ignoredLines;
        else
            notUnderstood(m_line);
        return;
    }
    m_join.request(m_req);
}

void ParseOpenLdap::result(uint64_t conn, int64_t op, uint64_t ns, sv rest)
{
    sv tagText = tokenAfter(rest, "tag=");
    const auto tag = parseUInt(tagText);
    m_join.result(conn, op, tag ? kindOfTag(*tag) : std::nullopt, [&](JoinedOp& j) {
        j.endNs = ns;
        sv t = tokenAfter(rest, "err=");
        j.err = int(parseInt(t).value_or(-1));
        t = tokenAfter(rest, " nentries=");
        j.nentries = parseInt(t).value_or(-1);
        const sv qtime = tokenAfter(rest, " qtime="), etime = tokenAfter(rest, " etime=");
        if (!qtime.empty())
            j.qtimeMs = secondsToMs(qtime);
        if (!etime.empty())
            j.etimeMs = secondsToMs(etime);
        if (!j.haveRequest && j.etimeMs >= 0 && ns)
            j.startNs = ns - std::min(ns, uint64_t(j.etimeMs * 1e6));
    });
}

QStringList ParseOpenLdap::gaps() const
{
    QStringList g { QStringLiteral("no write values (the log has the DN and attribute names of a write)"),
        QStringLiteral("no controls"), QStringLiteral("no passwords") };
    if (m_stats.lines && !m_sawTime)
        g << QStringLiteral("no timestamps (lines without a prefix): no timing");
    else if (m_stats.lines && !m_stats.subSecond)
        g << QStringLiteral("timestamps to the second only (syslog)");
    return g;
}
