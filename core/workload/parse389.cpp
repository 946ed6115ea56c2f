#include "core/workload/parse389.h"

#include "core/workload/logscan.h"

using namespace LogScan;

namespace {

// The value of key="..." up to `terminator` (a quote and what the format writes next), or to the line's last
// quote when the terminator is absent. `cut` is set when the value runs to the end of a line with no quote.
sv quoted(sv rest, sv key, sv terminator, bool* cut)
{
    const size_t at = rest.find(key);
    if (at == sv::npos)
        return {};
    rest.remove_prefix(at + key.size());
    size_t end = terminator.empty() ? sv::npos : rest.find(terminator);
    if (end == sv::npos)
        end = rest.rfind('"');
    if (end == sv::npos) {
        *cut = true;
        return rest;
    }
    return rest.substr(0, end);
}

std::optional<WorkloadOpKind> kindOfTag(uint64_t tag)
{
    switch (tag) {
    case 97:
        return WorkloadOpKind::Bind;
    case 100:
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

// Lines of 389-ds's access log (1.3 to 3.x, ldap/servers/slapd) that belong to an operation or a connection but
// are not a request or result of their own: understood, not counted. AUTOBIND (LDAPI autobind) is a bind that
// has no request of its own; its RESULT is joined as a bind from its tag.
bool isKnownNonOperation(sv cmd)
{
    static constexpr sv known[] = { "SORT", "VLV", "EXT_INFO", "STAT", "ENTRY", "REFERRAL", "AUTOBIND", "TLS", "SSL",
        "TLSCLIENT", "SASL", "ABANDON_INFO", "PROXY", "STARTTLS", "UNPROCESSED" };
    for (sv k : known)
        if (cmd == k)
            return true;
    return false;
}

} // namespace

std::optional<uint64_t> Parse389::parseStamp(sv s, bool* subSecond)
{
    // [DD/Mon/YYYY:HH:MM:SS(.fraction) +ZZZZ]
    if (s.size() < 28 || s[0] != '[' || s[3] != '/' || s[7] != '/' || s[12] != ':')
        return std::nullopt;
    const auto day = digitsAt(s, 1, 2), year = digitsAt(s, 8, 4), hh = digitsAt(s, 13, 2), mm = digitsAt(s, 16, 2),
               ss = digitsAt(s, 19, 2);
    const unsigned mon = monthOf(s.substr(4, 3));
    if (!day || !year || !hh || !mm || !ss || !mon)
        return std::nullopt;
    size_t i = 21;
    uint64_t frac = 0;
    if (i < s.size() && s[i] == '.') {
        int digits = 0;
        for (++i; i < s.size() && isDigit(s[i]); ++i)
            if (digits < 9) {
                frac = frac * 10 + uint64_t(s[i] - '0');
                ++digits;
            }
        for (; digits < 9; ++digits)
            frac *= 10;
        if (subSecond)
            *subSecond = true;
    }
    if (i + 6 > s.size() || s[i] != ' ' || (s[i + 1] != '+' && s[i + 1] != '-'))
        return std::nullopt;
    const auto tzh = digitsAt(s, i + 2, 2), tzm = digitsAt(s, i + 4, 2);
    if (!tzh || !tzm)
        return std::nullopt;
    const int64_t tz = (int64_t(*tzh) * 3600 + int64_t(*tzm) * 60) * (s[i + 1] == '-' ? -1 : 1);
    const int64_t secs
        = daysFromCivil(*year, mon, *day) * 86400 + int64_t(*hh) * 3600 + int64_t(*mm) * 60 + int64_t(*ss) - tz;
    if (secs <= 0)
        return std::nullopt;
    return uint64_t(secs) * 1000000000ull + frac;
}

std::optional<uint64_t> Parse389::timeOf(sv line) const
{
    return parseStamp(line);
}

std::optional<uint64_t> Parse389::stamp(sv s)
{
    // Same second and zone as the line before: only the fraction is new.
    if (s.size() >= 28 && s[21] == '.' && !m_stampSecond.empty() && s.substr(0, 21) == m_stampSecond
        && s.substr(s.size() - 7) == m_stampZone) {
        uint64_t frac = 0;
        int digits = 0;
        size_t i = 22;
        for (; i < s.size() && isDigit(s[i]); ++i)
            if (digits < 9) {
                frac = frac * 10 + uint64_t(s[i] - '0');
                ++digits;
            }
        if (i == s.size() - 7 && digits > 0) {
            for (; digits < 9; ++digits)
                frac *= 10;
            return m_stampSecs + frac;
        }
    }
    const auto t = parseStamp(s, &m_stats.subSecond);
    if (t && s.size() >= 28 && s[21] == '.') {
        m_stampSecond.assign(s.substr(0, 21));
        m_stampZone.assign(s.substr(s.size() - 7));
        m_stampSecs = *t - *t % 1000000000ull;
    } else {
        m_stampSecond.clear();
    }
    return t;
}

void Parse389::line(sv line)
{
    ++m_stats.lines;
    uint64_t ns = 0;
    sv rest = line;
    if (!rest.empty() && rest.front() == '[') {
        const size_t close = rest.find(']');
        if (close == sv::npos) {
            ++m_stats.ignoredLines;
            return;
        }
        ns = stamp(rest.substr(0, close + 1)).value_or(0);
        rest.remove_prefix(close + 1);
        skipSpaces(rest);
    }
    if (!consume(rest, "conn=")) {
        ++m_stats.ignoredLines;
        return;
    }
    ++m_stats.eventLines;
    m_line = line;
    if (startsWith(rest, "Internal")) { // internal operations (1.3 "conn=Internal op=-1", 1.4+ "conn=Internal(0)")
        ++m_stats.ignoredLines;
        return;
    }
    const auto conn = parseUInt(rest);
    if (!conn || !consume(rest, " ")) {
        notUnderstood(line);
        return;
    }
    if (startsWith(rest, "(Internal) ")) { // 1.4+: an internal operation on behalf of a connection
        ++m_stats.ignoredLines;
        return;
    }
    noteTime(ns);
    operationLine(*conn, ns, rest);
}

void Parse389::operationLine(uint64_t conn, uint64_t ns, sv rest)
{
    if (startsWith(rest, "fd=")) {
        const size_t from = rest.find("connection from ");
        if (from != sv::npos) {
            m_join.opened(conn, ns, token(rest.substr(from + 16)));
            return;
        }
        if (rest.find(" closed") != sv::npos) {
            m_join.closed(conn, ns);
            return;
        }
        notUnderstood(m_line);
        return;
    }
    if (!consume(rest, "op=")) { // "conn=1 TLS1.2 256-bit AES-GCM", "conn=1 SSL client bound as ...": the connection's
        ++m_stats.ignoredLines;
        return;
    }
    const auto op = parseInt(rest);
    if (!op || !consume(rest, " ")) {
        notUnderstood(m_line);
        return;
    }
    // "conn=1 op=-1 fd=64 closed - B1" (to 2.0), "conn=1 op=2 fd=64 Disconnect - U1" (2.1 on)
    if (startsWith(rest, "fd=")) {
        if (rest.find(" closed") != sv::npos || rest.find(" Disconnect") != sv::npos)
            m_join.closed(conn, ns);
        else
            notUnderstood(m_line);
        return;
    }
    const sv cmd = token(rest);
    rest.remove_prefix(cmd.size());
    if (cmd == "RESULT")
        result(conn, *op, ns, rest);
    else
        request(conn, *op, ns, cmd, rest);
}

void Parse389::request(uint64_t conn, int64_t op, uint64_t ns, sv cmd, sv rest)
{
    m_req.clear();
    m_req.conn = conn;
    m_req.op = op;
    m_req.startNs = ns;
    bool cut = false;
    if (cmd == "SRCH") {
        m_req.kind = WorkloadOpKind::Search;
        m_req.dn = quoted(rest, " base=\"", "\" scope=", &cut);
        const sv scope = tokenAfter(rest, " scope=");
        m_req.scope = scope.size() == 1 && isDigit(scope[0]) ? scope[0] - '0' : -1;
        sv filter = quoted(rest, " filter=\"", "\" attrs=", &cut);
        if (filter.size() >= 515 && filter.substr(filter.size() - 3) == "...") {
            filter.remove_suffix(3);
            m_req.filterCut = true;
            ++m_stats.filtersCut;
        }
        m_req.filter = filter;
        const size_t at = rest.find("\" attrs=");
        if (at != sv::npos) {
            sv attrs = rest.substr(at + 8);
            if (consume(attrs, "\"")) {
                const size_t q = attrs.find('"');
                attrs = attrs.substr(0, q);
            } else {
                attrs = token(attrs);
            }
            m_req.attrs = attrs == "ALL" ? sv() : attrs;
        } else if (scope.empty()) {
            cut = true;
        }
    } else if (cmd == "BIND") {
        m_req.kind = WorkloadOpKind::Bind;
        m_req.dn = quoted(rest, " dn=\"", "\" method=", &cut);
    } else if (cmd == "MOD" || cmd == "ADD" || cmd == "DEL") {
        m_req.kind = cmd == "MOD" ? WorkloadOpKind::Modify
            : cmd == "ADD"        ? WorkloadOpKind::Add
                                  : WorkloadOpKind::Delete;
        m_req.dn = quoted(rest, " dn=\"", "\" authzid=", &cut);
    } else if (cmd == "CMP") {
        m_req.kind = WorkloadOpKind::Compare;
        m_req.dn = quoted(rest, " dn=\"", "\" attr=\"", &cut);
        m_req.attrs = quoted(rest, "\" attr=\"", "\"", &cut);
    } else if (cmd == "MODRDN") {
        m_req.kind = WorkloadOpKind::ModRdn;
        m_req.dn = quoted(rest, " dn=\"", "\" newrdn=\"", &cut);
        m_req.newRdn = quoted(rest, "\" newrdn=\"", "\" newsuperior=\"", &cut);
        m_req.newSuperior = quoted(rest, "\" newsuperior=\"", "\"", &cut);
    } else if (cmd == "EXT") {
        m_req.kind = WorkloadOpKind::Extended;
        m_req.oid = quoted(rest, " oid=\"", "\"", &cut);
    } else if (cmd == "ABANDON") {
        m_req.kind = WorkloadOpKind::Abandon;
        sv t = tokenAfter(rest, " targetop=");
        m_req.abandonTarget = parseInt(t).value_or(-1);
    } else if (cmd == "UNBIND") {
        m_req.kind = WorkloadOpKind::Unbind;
    } else {
        if (isKnownNonOperation(cmd)) // SORT, VLV, EXT_INFO, STAT, ENTRY, REFERRAL, ...: part of an operation
            ++m_stats.ignoredLines;
        else
            notUnderstood(m_line);
        return;
    }
    if (cut)
        ++m_stats.cutLines;
    m_join.request(m_req);
}

void Parse389::result(uint64_t conn, int64_t op, uint64_t ns, sv rest)
{
    // One pass over " err=0 tag=101 nentries=1 wtime=... optime=... etime=... notes=U details=... dn=..."
    int64_t err = -1, nentries = -1;
    std::optional<uint64_t> tag;
    sv wtime, optime, etime, notes;
    while (!rest.empty()) {
        skipSpaces(rest);
        const size_t sp = rest.find(' ');
        sv tok = rest.substr(0, sp);
        rest.remove_prefix(sp == sv::npos ? rest.size() : sp);
        if (tok.size() < 5)
            continue;
        switch (tok[0]) {
        case 'e':
            if (consume(tok, "err="))
                err = parseInt(tok).value_or(-1);
            else if (consume(tok, "etime="))
                etime = tok;
            break;
        case 't':
            if (consume(tok, "tag="))
                tag = parseUInt(tok);
            break;
        case 'n':
            if (consume(tok, "nentries="))
                nentries = parseInt(tok).value_or(-1);
            else if (consume(tok, "notes="))
                notes = tok;
            break;
        case 'w':
            if (consume(tok, "wtime="))
                wtime = tok;
            break;
        case 'o':
            if (consume(tok, "optime="))
                optime = tok;
            break;
        case 'd': // details="..." and dn="...": free text, the end of what is parsed
            if (startsWith(tok, "details=") || startsWith(tok, "dn="))
                rest = {};
            break;
        default:
            break;
        }
    }
    m_join.result(conn, op, tag ? kindOfTag(*tag) : std::nullopt, [&](JoinedOp& j) {
        j.endNs = ns;
        j.err = int(err);
        j.nentries = nentries;
        if (!wtime.empty())
            j.wtimeMs = secondsToMs(wtime);
        if (!optime.empty())
            j.optimeMs = secondsToMs(optime);
        if (!etime.empty())
            j.etimeMs = secondsToMs(etime);
        j.unindexed = notes.find('U') != sv::npos || notes.find('A') != sv::npos;
        if (!j.haveRequest && j.etimeMs >= 0 && ns)
            j.startNs = ns - std::min(ns, uint64_t(j.etimeMs * 1e6));
    });
}

QStringList Parse389::gaps() const
{
    QStringList g;
    if (m_stats.filtersCut)
        g << QStringLiteral("filters cut at 512 characters (%1)").arg(m_stats.filtersCut);
    g << QStringLiteral("no write values (the log has the DN of a write, not its changes)")
      << QStringLiteral("no controls (beyond notes=P for paged searches)") << QStringLiteral("no passwords");
    if (m_stats.lines && !m_stats.subSecond)
        g << QStringLiteral("timestamps to the second only");
    return g;
}
