#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

// Small scanners over log lines (string views, no allocation, no locale), shared by the parsers.
namespace LogScan {

using sv = std::string_view;

inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

inline bool startsWith(sv s, sv p)
{
    return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

inline bool consume(sv& s, sv p)
{
    if (!startsWith(s, p))
        return false;
    s.remove_prefix(p.size());
    return true;
}

inline void skipSpaces(sv& s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
}

// Leading decimal digits as a number (nothing when there are none or it overflows 18 digits).
inline std::optional<uint64_t> parseUInt(sv& s)
{
    uint64_t v = 0;
    size_t i = 0;
    while (i < s.size() && isDigit(s[i]) && i < 19)
        v = v * 10 + uint64_t(s[i++] - '0');
    if (i == 0 || (i < s.size() && isDigit(s[i])))
        return std::nullopt;
    s.remove_prefix(i);
    return v;
}

inline std::optional<int64_t> parseInt(sv& s)
{
    const bool neg = consume(s, "-");
    const auto v = parseUInt(s);
    if (!v)
        return std::nullopt;
    return neg ? -int64_t(*v) : int64_t(*v);
}

// "0.000123" (seconds) as milliseconds; -1 when it is not a number.
inline double secondsToMs(sv s)
{
    uint64_t whole = 0;
    size_t i = 0;
    while (i < s.size() && isDigit(s[i]) && i < 10)
        whole = whole * 10 + uint64_t(s[i++] - '0');
    // Ten digits or more (over 31 years) is a corrupt line, and its nanoseconds would not fit a uint64_t: unknown.
    if (i == 0 || i == 10)
        return -1;
    double frac = 0, scale = 0.1;
    if (i < s.size() && s[i] == '.')
        for (++i; i < s.size() && isDigit(s[i]); ++i, scale /= 10)
            frac += double(s[i] - '0') * scale;
    return (double(whole) + frac) * 1000.0;
}

// The token (up to a space) after `key` ("err="), searched from the start; empty when absent.
inline sv tokenAfter(sv s, sv key)
{
    const size_t at = s.find(key);
    if (at == sv::npos)
        return {};
    s.remove_prefix(at + key.size());
    const size_t sp = s.find(' ');
    return sp == sv::npos ? s : s.substr(0, sp);
}

inline sv token(sv s)
{
    const size_t sp = s.find(' ');
    return sp == sv::npos ? s : s.substr(0, sp);
}

// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm).
inline int64_t daysFromCivil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + int64_t(doe) - 719468;
}

// "Jan".."Dec" as 1..12, 0 when it is none.
inline unsigned monthOf(sv s)
{
    if (s.size() < 3)
        return 0;
    static constexpr sv names = "JanFebMarAprMayJunJulAugSepOctNovDec";
    for (unsigned i = 0; i < 12; ++i)
        if (names.substr(size_t(i) * 3, 3) == s.substr(0, 3))
            return i + 1;
    return 0;
}

// Exactly n digits at s[pos..].
inline std::optional<unsigned> digitsAt(sv s, size_t pos, size_t n)
{
    if (pos + n > s.size())
        return std::nullopt;
    unsigned v = 0;
    for (size_t i = pos; i < pos + n; ++i) {
        if (!isDigit(s[i]))
            return std::nullopt;
        v = v * 10 + unsigned(s[i] - '0');
    }
    return v;
}

inline int hexDigit(char c)
{
    if (isDigit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace LogScan
