#include "core/workload/parseopenldap.h"

#include "core/workload/logscan.h"

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

std::optional<uint64_t> ParseOpenLdap::stamp(sv line, size_t* messageAt, bool* subSecond) const
{
    *messageAt = 0;
    if (line.empty())
        return std::nullopt;
    // slapd -d 256 / logfile: "%lx.%08x %p "
    if (hexDigit(line[0]) >= 0) {
        size_t i = 0;
        uint64_t secs = 0, nsec = 0;
        while (i < line.size() && i < 16 && hexDigit(line[i]) >= 0)
            secs = secs * 16 + uint64_t(hexDigit(line[i++]));
        if (i + 10 < line.size() && line[i] == '.') {
            size_t j = i + 1;
            while (j < line.size() && j - i <= 8 && hexDigit(line[j]) >= 0)
                nsec = nsec * 16 + uint64_t(hexDigit(line[j++]));
            if (j - i == 9 && j < line.size() && line[j] == ' ' && nsec < 1000000000ull) {
                const size_t thread = j + 1;
                const size_t sp = line.find(' ', thread);
                *messageAt = sp == sv::npos ? line.size() : sp + 1;
                *subSecond = true;
                return secs * 1000000000ull + nsec;
            }
        }
        // ISO 8601: "2026-12-01T10:00:00(.ffffff)(+00:00|Z) host prog: "
        const auto y = digitsAt(line, 0, 4), mo = digitsAt(line, 5, 2), d = digitsAt(line, 8, 2),
                   hh = digitsAt(line, 11, 2), mi = digitsAt(line, 14, 2), ss = digitsAt(line, 17, 2);
        if (y && mo && d && hh && mi && ss && line.size() > 19 && line[4] == '-' && line[10] == 'T') {
            size_t k = 19;
            uint64_t frac = 0;
            int digits = 0;
            if (line[k] == '.') {
                for (++k; k < line.size() && isDigit(line[k]); ++k)
                    if (digits < 9) {
                        frac = frac * 10 + uint64_t(line[k] - '0');
                        ++digits;
                    }
                for (int n = digits; n < 9; ++n)
                    frac *= 10;
                *subSecond = digits > 0;
            }
            int64_t tz = 0;
            if (k + 6 <= line.size() && (line[k] == '+' || line[k] == '-') && line[k + 3] == ':') {
                const auto th = digitsAt(line, k + 1, 2), tm = digitsAt(line, k + 4, 2);
                if (th && tm)
                    tz = (int64_t(*th) * 3600 + int64_t(*tm) * 60) * (line[k] == '-' ? -1 : 1);
            }
            const size_t colon = line.find(": ", k);
            *messageAt = colon == sv::npos ? line.size() : colon + 2;
            const int64_t s = daysFromCivil(*y, *mo, *d) * 86400 + *hh * 3600 + *mi * 60 + *ss - tz;
            return s > 0 ? std::optional<uint64_t>(uint64_t(s) * 1000000000ull + frac) : std::nullopt;
        }
    }
    // BSD syslog: "Dec  1 10:00:00 host slapd[123]: "
    const unsigned mon = monthOf(line);
    if (mon && line.size() > 16 && line[3] == ' ' && line[9] == ':' && line[12] == ':') {
        const unsigned day = line[4] == ' ' ? digitsAt(line, 5, 1).value_or(0) : digitsAt(line, 4, 2).value_or(0);
        const auto hh = digitsAt(line, 7, 2), mi = digitsAt(line, 10, 2), ss = digitsAt(line, 13, 2);
        if (!day || !hh || !mi || !ss)
            return std::nullopt;
        int64_t s = daysFromCivil(m_year, mon, day) * 86400 + *hh * 3600 + *mi * 60 + *ss;
        if (uint64_t(s) > m_nowS + 86400)
            s = daysFromCivil(m_year - 1, mon, day) * 86400 + *hh * 3600 + *mi * 60 + *ss;
        const size_t colon = line.find(": ", 16);
        *messageAt = colon == sv::npos ? line.size() : colon + 2;
        return uint64_t(s) * 1000000000ull;
    }
    return std::nullopt;
}

std::optional<uint64_t> ParseOpenLdap::timeOf(sv line) const
{
    size_t at = 0;
    bool sub = false;
    return stamp(line, &at, &sub);
}

void ParseOpenLdap::line(sv line)
{
    ++m_stats.lines;
    size_t at = 0;
    const auto ns = stamp(line, &at, &m_stats.subSecond);
    m_sawTime = m_sawTime || ns;
    sv rest = line.substr(std::min(at, line.size()));
    if (!consume(rest, "conn=") || rest.empty() || !isDigit(rest.front())) {
        ++m_stats.ignoredLines;
        return;
    }
    const auto conn = parseUInt(rest);
    if (!conn || !consume(rest, " ")) {
        ++m_stats.ignoredLines;
        return;
    }
    noteTime(ns.value_or(0));
    message(*conn, ns.value_or(0), rest);
}

void ParseOpenLdap::message(uint64_t conn, uint64_t ns, sv rest)
{
    if (startsWith(rest, "fd=")) {
        const size_t from = rest.find(" ACCEPT from ");
        if (from != sv::npos)
            m_join.opened(conn, ns, clientOf(rest.substr(from + 13)));
        else if (rest.find(" closed") != sv::npos)
            m_join.closed(conn, ns);
        else
            ++m_stats.ignoredLines;
        return;
    }
    if (!consume(rest, "op=")) {
        ++m_stats.ignoredLines;
        return;
    }
    const auto op = parseInt(rest);
    if (!op || !consume(rest, " ")) {
        ++m_stats.ignoredLines;
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
    } else { // ENTRY, REFERRAL, STARTTLS, PASSMOD, ...
        ++m_stats.ignoredLines;
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
