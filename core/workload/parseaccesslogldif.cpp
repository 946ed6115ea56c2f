#include "core/workload/parseaccesslogldif.h"

#include "core/workload/logscan.h"

#include <QByteArray>

using namespace LogScan;

namespace {

uint64_t toSecond(uint64_t ns)
{
    return ns - ns % 1000000000ull;
}

} // namespace

std::optional<uint64_t> ParseAccesslogLdif::parseGeneralizedTime(sv s)
{
    const auto y = digitsAt(s, 0, 4), mo = digitsAt(s, 4, 2), d = digitsAt(s, 6, 2), h = digitsAt(s, 8, 2),
               mi = digitsAt(s, 10, 2), sec = digitsAt(s, 12, 2);
    if (!y || !mo || !d || !h || !mi || !sec || *mo < 1 || *mo > 12 || *d < 1 || *d > 31)
        return std::nullopt;
    uint64_t frac = 0;
    int digits = 0;
    if (s.size() > 14 && s[14] == '.')
        for (size_t i = 15; i < s.size() && isDigit(s[i]); ++i)
            if (digits < 9) {
                frac = frac * 10 + uint64_t(s[i] - '0');
                ++digits;
            }
    for (; digits < 9; ++digits)
        frac *= 10;
    const int64_t secs = daysFromCivil(*y, *mo, *d) * 86400 + *h * 3600 + *mi * 60 + *sec;
    if (secs <= 0)
        return std::nullopt;
    return uint64_t(secs) * 1000000000ull + frac;
}

std::optional<uint64_t> ParseAccesslogLdif::timeOf(sv line) const
{
    sv s = line;
    if (consume(s, "dn: reqStart=") || consume(s, "reqStart: "))
        return parseGeneralizedTime(s);
    return std::nullopt;
}

void ParseAccesslogLdif::line(sv line)
{
    ++m_stats.lines;
    if (!line.empty() && line.front() == ' ') { // continuation of the attribute before
        m_value.append(line.substr(1));
        return;
    }
    flushPending();
    if (line.empty()) {
        endEntry();
        return;
    }
    if (line.front() == '#')
        return;
    const size_t colon = line.find(':');
    if (colon == sv::npos || colon == 0) {
        ++m_stats.ignoredLines;
        return;
    }
    m_inEntry = true;
    m_name = line.substr(0, colon);
    sv v = line.substr(colon + 1);
    m_base64 = consume(v, ":");
    skipSpaces(v);
    m_value = v;
}

void ParseAccesslogLdif::flushPending()
{
    if (m_name.empty())
        return;
    if (m_base64) {
        const QByteArray raw
            = QByteArray::fromBase64(QByteArray::fromRawData(m_value.data(), qsizetype(m_value.size())));
        m_value.assign(raw.constData(), size_t(raw.size()));
    }
    attribute(m_name, m_value);
    m_name.clear();
}

void ParseAccesslogLdif::finish()
{
    flushPending();
    endEntry();
    m_join.finish();
}

void ParseAccesslogLdif::attribute(sv name, sv value)
{
    if (name == "reqType") {
        m_isRequest = true;
        if (value == "search")
            m_op.kind = WorkloadOpKind::Search;
        else if (value == "bind")
            m_op.kind = WorkloadOpKind::Bind;
        else if (value == "modify")
            m_op.kind = WorkloadOpKind::Modify;
        else if (value == "add")
            m_op.kind = WorkloadOpKind::Add;
        else if (value == "delete")
            m_op.kind = WorkloadOpKind::Delete;
        else if (value == "modrdn")
            m_op.kind = WorkloadOpKind::ModRdn;
        else if (value == "compare")
            m_op.kind = WorkloadOpKind::Compare;
        else if (value == "abandon")
            m_op.kind = WorkloadOpKind::Abandon;
        else if (value == "unbind")
            m_op.kind = WorkloadOpKind::Unbind;
        else if (startsWith(value, "extended")) {
            m_op.kind = WorkloadOpKind::Extended;
            m_op.oid = value.substr(8);
        } else
            m_isRequest = false;
    } else if (name == "reqStart") { // to the second: the fraction is slapd's sequence number in that second
        m_op.startNs = toSecond(parseGeneralizedTime(value).value_or(0));
    } else if (name == "reqEnd") {
        m_op.endNs = toSecond(parseGeneralizedTime(value).value_or(0));
    } else if (name == "reqSession") {
        sv v = value;
        if (const auto s = parseUInt(v)) {
            m_op.conn = *s;
            m_haveSession = true;
        }
    } else if (name == "reqDN") {
        m_op.dn = value;
    } else if (name == "reqFilter") {
        m_op.filter = value;
    } else if (name == "reqScope") {
        m_op.scope = value == "base" ? 0 : value == "one" ? 1 : value == "sub" ? 2 : value == "subord" ? 3 : -1;
    } else if (name == "reqAttr") {
        if (!m_op.attrs.empty())
            m_op.attrs += ' ';
        m_op.attrs.append(value);
    } else if (name == "reqEntries") {
        sv v = value;
        m_op.nentries = parseInt(v).value_or(-1);
    } else if (name == "reqResult") {
        sv v = value;
        m_op.err = int(parseInt(v).value_or(-1));
        m_op.haveResult = m_op.err >= 0;
    } else if (name == "reqMod") { // "attr:+ value", "attr:=", "attr:-"
        const size_t colon = value.find(':');
        if (colon == sv::npos)
            return;
        const sv attr = value.substr(0, colon);
        sv rest = value.substr(colon + 1);
        if (!rest.empty())
            rest.remove_prefix(1); // the op character
        consume(rest, " ");
        if (m_op.writeValues.empty() || m_op.writeValues.back().first != attr)
            m_op.writeValues.emplace_back(std::string(attr), std::vector<std::string> {});
        if (!rest.empty())
            m_op.writeValues.back().second.emplace_back(rest);
    } else if (name == "reqNewRDN") {
        m_op.newRdn = value;
    } else if (name == "reqNewSuperior") {
        m_op.newSuperior = value;
    } else if (name == "reqId") {
        sv v = value;
        m_op.abandonTarget = parseInt(v).value_or(-1);
    }
}

void ParseAccesslogLdif::endEntry()
{
    if (!m_inEntry)
        return;
    if (m_isRequest && m_haveSession) {
        ++m_stats.eventLines;
        noteTime(m_op.startNs);
        noteTime(m_op.endNs);
        m_op.haveRequest = true;
        if (m_sessions.insert(m_op.conn).second)
            m_join.opened(m_op.conn, m_op.startNs, {});
        m_op.op = m_nextOp[m_op.conn]++;
        const bool write = m_op.kind == WorkloadOpKind::Modify || m_op.kind == WorkloadOpKind::Add;
        m_writes += write;
        m_writesWithValues += write && !m_op.writeValues.empty();
        m_join.complete(m_op);
        if (m_op.kind == WorkloadOpKind::Unbind) {
            m_sessions.erase(m_op.conn);
            m_nextOp.erase(m_op.conn);
            m_join.closed(m_op.conn, m_op.startNs);
        }
    } else if (m_inEntry) {
        ++m_stats.ignoredLines;
    }
    m_op.clear();
    m_inEntry = m_isRequest = m_haveSession = false;
}

QStringList ParseAccesslogLdif::gaps() const
{
    QStringList g { QStringLiteral("no client addresses"),
        QStringLiteral("no connection opens (a session starts at its first operation)"), QStringLiteral("no passwords"),
        QStringLiteral("timestamps to the second (reqStart/reqEnd fractions are slapd's sequence numbers within the "
                       "second, not microseconds): no server times") };
    if (m_writes && m_writesWithValues < m_writes)
        g << QStringLiteral("write values missing for %1 of %2 writes (logold/logops settings)")
                 .arg(m_writes - m_writesWithValues)
                 .arg(m_writes);
    return g;
}
