#include "core/workload/pseudonym.h"

#include <QRandomGenerator>

#include <algorithm>
#include <cstring>

namespace {

inline uint64_t rotl(uint64_t x, int b)
{
    return (x << b) | (x >> (64 - b));
}

inline void round(uint64_t& v0, uint64_t& v1, uint64_t& v2, uint64_t& v3)
{
    v0 += v1;
    v1 = rotl(v1, 13);
    v1 ^= v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl(v1, 17);
    v1 ^= v2;
    v2 = rotl(v2, 32);
}

uint64_t siphash24(std::string_view in, uint64_t k0, uint64_t k1)
{
    uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1, v2 = 0x6c7967656e657261ull ^ k0,
             v3 = 0x7465646279746573ull ^ k1;
    const size_t n = in.size();
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t m = 0;
        std::memcpy(&m, in.data() + i, 8);
        v3 ^= m;
        round(v0, v1, v2, v3);
        round(v0, v1, v2, v3);
        v0 ^= m;
    }
    uint64_t b = uint64_t(n) << 56;
    for (size_t j = 0; i + j < n; ++j)
        b |= uint64_t(uint8_t(in[i + j])) << (8 * j);
    v3 ^= b;
    round(v0, v1, v2, v3);
    round(v0, v1, v2, v3);
    v0 ^= b;
    v2 ^= 0xff;
    for (int r = 0; r < 4; ++r)
        round(v0, v1, v2, v3);
    return v0 ^ v1 ^ v2 ^ v3;
}

size_t findUnescaped(std::string_view s, size_t from, const char* seps)
{
    for (size_t i = from; i < s.size(); ++i) {
        if (s[i] == '\\')
            ++i;
        else if (std::strchr(seps, s[i]))
            return i;
    }
    return std::string_view::npos;
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

} // namespace

Pseudonymizer::Pseudonymizer()
    : m_k0(QRandomGenerator::system()->generate64())
    , m_k1(QRandomGenerator::system()->generate64())
{ }

Pseudonymizer::Pseudonymizer(uint64_t k0, uint64_t k1)
    : m_k0(k0)
    , m_k1(k1)
{ }

uint64_t Pseudonymizer::hash(std::string_view value) const
{
    return siphash24(value, m_k0, m_k1);
}

std::string Pseudonymizer::token(std::string_view value, char prefix) const
{
    static constexpr char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
    uint64_t h = hash(value);
    std::string t(14, prefix);
    for (size_t i = 1; i < 14; ++i) {
        t[i] = alphabet[h & 31];
        h >>= 5;
    }
    return t;
}

std::string Pseudonymizer::sized(std::string_view value, size_t length) const
{
    std::string t = token(value);
    if (t.size() >= length)
        return t.substr(0, length);
    t.reserve(length);
    while (t.size() < length)
        t += t[t.size() % 14];
    return t;
}

namespace {

// The types that name the directory's structure (its suffix and containers), not a person: their values stay, as
// they do in the operations' templates ("uid=?1,ou=people,dc=example,dc=com").
bool structural(std::string_view type)
{
    for (const std::string_view t : { "dc", "o", "ou", "c", "l", "st" })
        if (type.size() == t.size()
            && std::equal(type.begin(), type.end(), t.begin(), [](char a, char b) { return (a | 0x20) == b; }))
            return true;
    return false;
}

} // namespace

std::string Pseudonymizer::dn(std::string_view dn) const
{
    std::string out;
    if (trimmed(dn).empty())
        return out;
    if (findUnescaped(dn, 0, ",") == std::string_view::npos)
        return std::string(trimmed(dn)); // one RDN: a root DN or cn=monitor, the server's own, not a user's
    size_t from = 0;
    for (;;) {
        const size_t sep = findUnescaped(dn, from, ",+");
        const std::string_view ava
            = trimmed(dn.substr(from, sep == std::string_view::npos ? std::string_view::npos : sep - from));
        const size_t eq = ava.find('=');
        if (eq == std::string_view::npos) {
            out += token(ava);
        } else {
            const std::string_view type = trimmed(ava.substr(0, eq)), value = trimmed(ava.substr(eq + 1));
            out.append(type);
            out += '=';
            if (structural(type))
                out.append(value);
            else
                out += token(value);
        }
        if (sep == std::string_view::npos)
            break;
        out += dn[sep];
        from = sep + 1;
    }
    return out;
}
