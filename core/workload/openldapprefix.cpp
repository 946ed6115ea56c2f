#include "core/workload/openldapprefix.h"

#include "core/workload/logscan.h"

using namespace LogScan;

namespace OpenLdapPrefix {

namespace {

// "%lx.%08x %p " (nanoseconds), "%lx.%05x %p " (microseconds) or 2.4's "%08x " (seconds).
bool hexStamp(sv line, Stamp* st)
{
    size_t i = 0;
    uint64_t secs = 0;
    while (i < line.size() && i < 16 && hexDigit(line[i]) >= 0)
        secs = secs * 16 + uint64_t(hexDigit(line[i++]));
    if (i == 0 || i >= line.size())
        return false;
    if (line[i] == ' ' && i >= 8) {
        st->ns = secs * 1000000000ull;
        st->messageAt = i + 1;
        return st->known = true;
    }
    if (line[i] != '.')
        return false;
    size_t j = i + 1;
    uint64_t frac = 0;
    while (j < line.size() && j - i <= 8 && hexDigit(line[j]) >= 0)
        frac = frac * 16 + uint64_t(hexDigit(line[j++]));
    const size_t digits = j - i - 1;
    if (j >= line.size() || line[j] != ' ' || (digits != 8 && digits != 5))
        return false;
    const uint64_t ns = digits == 8 ? frac : frac * 1000;
    if (ns >= 1000000000ull)
        return false;
    const size_t sp = line.find(' ', j + 1); // the thread
    st->ns = secs * 1000000000ull + ns;
    st->messageAt = sp == sv::npos ? line.size() : sp + 1;
    st->subSecond = true;
    return st->known = true;
}

// "2026-12-01T10:00:00(.ffffff)(+00:00|Z)" at `pos`: the time, and where it ends.
std::optional<uint64_t> isoTime(sv line, size_t pos, size_t* end, bool* subSecond)
{
    const auto y = digitsAt(line, pos, 4), mo = digitsAt(line, pos + 5, 2), d = digitsAt(line, pos + 8, 2),
               hh = digitsAt(line, pos + 11, 2), mi = digitsAt(line, pos + 14, 2), ss = digitsAt(line, pos + 17, 2);
    if (!y || !mo || !d || !hh || !mi || !ss || line.size() <= pos + 19 || line[pos + 4] != '-'
        || line[pos + 10] != 'T')
        return std::nullopt;
    size_t k = pos + 19;
    uint64_t frac = 0;
    if (line[k] == '.') {
        int digits = 0;
        for (++k; k < line.size() && isDigit(line[k]); ++k)
            if (digits < 9) {
                frac = frac * 10 + uint64_t(line[k] - '0');
                ++digits;
            }
        *subSecond = digits > 0;
        for (; digits < 9; ++digits)
            frac *= 10;
    }
    int64_t tz = 0;
    if (k < line.size() && line[k] == 'Z') {
        ++k;
    } else if (k + 6 <= line.size() && (line[k] == '+' || line[k] == '-') && line[k + 3] == ':') {
        const auto th = digitsAt(line, k + 1, 2), tm = digitsAt(line, k + 4, 2);
        if (th && tm)
            tz = (int64_t(*th) * 3600 + int64_t(*tm) * 60) * (line[k] == '-' ? -1 : 1);
        k += 6;
    }
    *end = k;
    const int64_t s = daysFromCivil(*y, *mo, *d) * 86400 + *hh * 3600 + *mi * 60 + *ss - tz;
    return s > 0 ? std::optional<uint64_t>(uint64_t(s) * 1000000000ull + frac) : std::nullopt;
}

// "Dec  1 10:00:00 host slapd[123]: " at `pos`.
bool bsdStamp(sv line, size_t pos, int year, uint64_t nowS, Stamp* st)
{
    const sv s = line.substr(pos);
    const unsigned mon = monthOf(s);
    if (!mon || s.size() <= 16 || s[3] != ' ' || s[9] != ':' || s[12] != ':')
        return false;
    const unsigned day = s[4] == ' ' ? digitsAt(s, 5, 1).value_or(0) : digitsAt(s, 4, 2).value_or(0);
    const auto hh = digitsAt(s, 7, 2), mi = digitsAt(s, 10, 2), ss = digitsAt(s, 13, 2);
    if (!day || !hh || !mi || !ss)
        return false;
    const int64_t inDay = *hh * 3600 + *mi * 60 + *ss;
    int64_t t = daysFromCivil(year, mon, day) * 86400 + inDay;
    if (uint64_t(t) > nowS + 86400)
        t = daysFromCivil(year - 1, mon, day) * 86400 + inDay;
    const size_t colon = s.find(": ", 16);
    st->ns = uint64_t(t) * 1000000000ull;
    st->messageAt = colon == sv::npos ? line.size() : pos + colon + 2;
    return st->known = true;
}

// After an RFC 5424 stamp: HOSTNAME APP-NAME PROCID MSGID STRUCTURED-DATA ("-" or "[id k=\"v\"]..."), then MSG.
size_t rfc5424Message(sv line, size_t k)
{
    for (int field = 0; field < 4; ++field) {
        const size_t sp = line.find(' ', k + 1);
        if (sp == sv::npos)
            return line.size();
        k = sp;
    }
    ++k; // STRUCTURED-DATA
    if (k < line.size() && line[k] == '-') {
        ++k;
    } else {
        while (k < line.size() && line[k] == '[') {
            for (++k; k < line.size() && line[k] != ']'; ++k)
                if (line[k] == '\\')
                    ++k;
            ++k;
        }
    }
    if (k < line.size() && line[k] == ' ')
        ++k;
    if (line.substr(std::min(k, line.size()), 3) == "\xEF\xBB\xBF") // a BOM before a UTF-8 message
        k += 3;
    return std::min(k, line.size());
}

bool rfc5424(sv line, size_t pos, Stamp* st)
{
    size_t end = pos + 1;
    if (line.substr(pos, 2) != "- ") {
        st->ns = isoTime(line, pos, &end, &st->subSecond);
        if (!st->ns)
            return false;
    }
    st->messageAt = rfc5424Message(line, end);
    return st->known = true;
}

// "<PRI>" as a syslog daemon receives it (and some write it): where what follows starts, 0 when none.
size_t afterPri(sv line)
{
    if (line.empty() || line[0] != '<')
        return 0;
    size_t i = 1;
    while (i < line.size() && i <= 4 && isDigit(line[i]))
        ++i;
    return i > 1 && i < line.size() && line[i] == '>' ? i + 1 : 0;
}

} // namespace

Stamp parse(sv line, int year, uint64_t nowS)
{
    Stamp st;
    if (line.empty())
        return st;
    if (startsWith(line, "conn=")) {
        st.known = true;
        return st;
    }
    const size_t pos = afterPri(line);
    if (pos && line.substr(pos, 2) == "1 ") {
        rfc5424(line, pos + 2, &st);
        return st;
    }
    if (!pos && hexStamp(line, &st))
        return st;
    size_t end = 0;
    if (const auto t = isoTime(line, pos, &end, &st.subSecond)) {
        const size_t colon = line.find(": ", end);
        st.ns = t;
        st.messageAt = colon == sv::npos ? line.size() : colon + 2;
        st.known = true;
        return st;
    }
    bsdStamp(line, pos, year, nowS, &st);
    return st;
}

} // namespace OpenLdapPrefix
