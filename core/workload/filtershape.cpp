#include "core/workload/filtershape.h"

#include <algorithm>

namespace {

using sv = std::string_view;
constexpr char kSlot = '\x01'; // where a slot goes, numbered once the whole filter is in order
constexpr int kMaxDepth = 64;

struct Part
{
    std::string text;
    std::vector<std::string> values;
};

void appendLower(std::string& to, sv s)
{
    for (char c : s)
        to += (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

bool isAttrChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == ';'
        || c == '.' || c == '_' || c == ':';
}

class Parser
{
public:
    explicit Parser(sv s)
        : m_s(s)
    { }

    bool root(Part& out)
    {
        skipSpaces();
        if (!filter(out, 0))
            return false;
        skipSpaces();
        return m_i == m_s.size();
    }

private:
    void skipSpaces()
    {
        while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t'))
            ++m_i;
    }

    bool filter(Part& out, int depth)
    {
        if (depth > kMaxDepth || m_i >= m_s.size() || m_s[m_i] != '(')
            return false;
        ++m_i;
        skipSpaces();
        if (m_i >= m_s.size())
            return false;
        const char c = m_s[m_i];
        if (c == '&' || c == '|')
            return set(out, c, depth);
        if (c == '!') {
            ++m_i;
            skipSpaces();
            Part inner;
            if (!filter(inner, depth + 1))
                return false;
            skipSpaces();
            if (m_i >= m_s.size() || m_s[m_i] != ')')
                return false;
            ++m_i;
            out.text.assign("(!");
            out.text.append(inner.text);
            out.text.push_back(')');
            out.values = std::move(inner.values);
            return true;
        }
        return item(out);
    }

    bool set(Part& out, char op, int depth)
    {
        ++m_i;
        std::vector<Part> parts;
        for (;;) {
            skipSpaces();
            if (m_i >= m_s.size())
                return false;
            if (m_s[m_i] == ')')
                break;
            Part p;
            if (!filter(p, depth + 1))
                return false;
            parts.push_back(std::move(p));
        }
        ++m_i;
        std::sort(parts.begin(), parts.end(),
            [](const Part& a, const Part& b) { return a.text != b.text ? a.text < b.text : a.values < b.values; });
        out.text.assign(1, '(');
        out.text += op;
        for (auto& p : parts) {
            out.text += p.text;
            for (auto& v : p.values)
                out.values.push_back(std::move(v));
        }
        out.text += ')';
        return true;
    }

    bool item(Part& out)
    {
        const size_t start = m_i;
        while (m_i < m_s.size() && m_s[m_i] != ')' && m_s[m_i] != '(')
            ++m_i;
        if (m_i >= m_s.size() || m_s[m_i] != ')')
            return false;
        const sv it = m_s.substr(start, m_i - start);
        ++m_i;
        const size_t eq = it.find('=');
        if (eq == sv::npos || eq == 0)
            return false;
        size_t attrEnd = eq;
        sv op = "=";
        const char before = it[eq - 1];
        if (before == '~' || before == '>' || before == '<' || before == ':') {
            attrEnd = eq - 1;
            op = it.substr(eq - 1, 2);
        }
        const sv attr = it.substr(0, attrEnd);
        if (attr.empty() && op != ":=")
            return false;
        if (!std::all_of(attr.begin(), attr.end(), isAttrChar))
            return false;
        const sv value = it.substr(eq + 1);
        out.text.assign(1, '(');
        appendLower(out.text, attr);
        out.text += op;
        if (op == "=" && value == "*") {
            out.text += "*)";
            return true;
        }
        if (op == "=" && value.find('*') != sv::npos) { // substrings: the stars stay, the parts are slots
            size_t from = 0;
            for (;;) {
                const size_t star = value.find('*', from);
                const sv part = value.substr(from, star == sv::npos ? sv::npos : star - from);
                if (!part.empty()) {
                    out.text += kSlot;
                    out.values.emplace_back(part);
                }
                if (star == sv::npos)
                    break;
                if (star + 1 < value.size() && value[star + 1] == '*')
                    return false; // "**" is not a substring filter
                out.text += '*';
                from = star + 1;
            }
            out.text += ')';
            return true;
        }
        out.text += kSlot;
        out.values.emplace_back(value);
        out.text += ')';
        return true;
    }

    sv m_s;
    size_t m_i = 0;
};

std::string numberSlots(const std::string& marked)
{
    std::string out;
    out.reserve(marked.size() + 8);
    int n = 0;
    for (char c : marked) {
        if (c == kSlot) {
            out += '?';
            out += std::to_string(++n);
        } else {
            out += c;
        }
    }
    return out;
}

Shape unparsed(sv s)
{
    Shape sh;
    sh.text = "?1";
    sh.values.emplace_back(s);
    sh.ok = false;
    return sh;
}

// The next unescaped `sep` at or after `from` (npos when none).
size_t findUnescaped(sv s, size_t from, char sep)
{
    for (size_t i = from; i < s.size(); ++i) {
        if (s[i] == '\\')
            ++i;
        else if (s[i] == sep)
            return i;
    }
    return sv::npos;
}

sv trimmed(sv s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ' && !(s.size() >= 2 && s[s.size() - 2] == '\\'))
        s.remove_suffix(1);
    return s;
}

// One RDN: its AVAs with lower-cased types; values become slots (`asSlots`) or are kept.
bool rdn(sv r, bool asSlots, std::string& text, std::vector<std::string>& values)
{
    size_t from = 0;
    bool first = true;
    for (;;) {
        const size_t plus = findUnescaped(r, from, '+');
        const sv ava = r.substr(from, plus == sv::npos ? sv::npos : plus - from);
        const size_t eq = ava.find('=');
        if (eq == sv::npos)
            return false;
        const sv type = trimmed(ava.substr(0, eq));
        if (type.empty() || !std::all_of(type.begin(), type.end(), isAttrChar))
            return false;
        if (!first)
            text += '+';
        first = false;
        appendLower(text, type);
        text += '=';
        const sv value = trimmed(ava.substr(eq + 1));
        if (asSlots) {
            text += kSlot;
            values.emplace_back(value);
        } else {
            text.append(value);
        }
        if (plus == sv::npos)
            return true;
        from = plus + 1;
    }
}

} // namespace

namespace FilterShape {

Shape ofFilter(sv filter)
{
    size_t i = 0;
    while (i < filter.size() && filter[i] == ' ')
        ++i;
    std::string wrapped;
    sv s = filter;
    if (i < filter.size() && filter[i] != '(') {
        wrapped.reserve(filter.size() + 2);
        wrapped.push_back('(');
        wrapped.append(filter.substr(i));
        wrapped.push_back(')');
        s = wrapped;
    }
    Part p;
    Parser parser(s);
    if (filter.empty() || !parser.root(p))
        return unparsed(filter);
    Shape sh;
    sh.text = numberSlots(p.text);
    sh.values = std::move(p.values);
    return sh;
}

Shape ofDn(sv dn)
{
    dn = trimmed(dn);
    Shape sh;
    if (dn.empty())
        return sh;
    std::string text;
    size_t from = 0;
    bool first = true;
    for (;;) {
        const size_t comma = findUnescaped(dn, from, ',');
        const sv r = trimmed(dn.substr(from, comma == sv::npos ? sv::npos : comma - from));
        if (!first)
            text += ',';
        if (!rdn(r, first, text, sh.values))
            return unparsed(dn);
        first = false;
        if (comma == sv::npos)
            break;
        from = comma + 1;
    }
    sh.text = numberSlots(text);
    return sh;
}

std::string fill(sv text, const std::vector<std::string>& values)
{
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '?' && i + 1 < text.size() && text[i + 1] >= '1' && text[i + 1] <= '9') {
            size_t j = i + 1;
            size_t n = 0;
            while (j < text.size() && text[j] >= '0' && text[j] <= '9')
                n = n * 10 + size_t(text[j++] - '0');
            if (n >= 1 && n <= values.size()) {
                out += values[n - 1];
                i = j - 1;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

} // namespace FilterShape
