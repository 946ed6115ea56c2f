#include "core/ldap/filtertemplate.h"

#include <QStringList>

#include <vector>

namespace {

// One character of the filter as it will render, or a whole range `[...]` (opaque), with its column in the text.
struct Unit
{
    char16_t ch = 0;
    qsizetype column = 0;
    bool opaque = false;
};

bool isAlpha(char16_t c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
}
bool isDigit(char16_t c)
{
    return c >= u'0' && c <= u'9';
}
bool isHex(char16_t c)
{
    return isDigit(c) || (c >= u'a' && c <= u'f') || (c >= u'A' && c <= u'F');
}
bool isKeyChar(char16_t c)
{
    return isAlpha(c) || isDigit(c) || c == u'-' || c == u'_';
}
bool isSpace(char16_t c)
{
    return c == u' ' || c == u'\t' || c == u'\r' || c == u'\n';
}

// A descr (ALPHA *keychar) or a numericoid (number 1*("." number)).
bool isOid(const QString& s)
{
    if (s.isEmpty())
        return false;
    if (isAlpha(s.at(0).unicode())) {
        for (const QChar c : s) {
            if (!isKeyChar(c.unicode()))
                return false;
        }
        return true;
    }
    const QStringList parts = s.split(u'.');
    if (parts.size() < 2)
        return false;
    for (const QString& p : parts) {
        if (p.isEmpty() || (p.size() > 1 && p.at(0) == u'0'))
            return false;
        for (const QChar c : p) {
            if (!isDigit(c.unicode()))
                return false;
        }
    }
    return true;
}

// attributetype *(";" option); a range stands for a letter.
bool isAttributeDescription(const QString& s)
{
    const QStringList parts = s.split(u';');
    if (!isOid(parts.at(0)))
        return false;
    for (qsizetype i = 1; i < parts.size(); ++i) {
        if (parts.at(i).isEmpty())
            return false;
        for (const QChar c : parts.at(i)) {
            if (!isKeyChar(c.unicode()))
                return false;
        }
    }
    return true;
}

class Checker
{
public:
    Checker(const std::vector<Unit>& units, qsizetype endColumn)
        : m_u(units)
        , m_endColumn(endColumn)
    { }

    // A whole filter text: `(...)` or, when wrapped, the filtercomp without its parentheses.
    bool check(bool wrapped)
    {
        if (wrapped ? !filterComp() : !filter())
            return false;
        if (atEnd())
            return true;
        if (isLit(u')'))
            return fail(QStringLiteral("unbalanced ')' at column ") + col());
        return fail(QStringLiteral("unexpected text after the filter at column ") + col()
            + QStringLiteral("; combine filters with (&...) or (|...)"));
    }
    QString error() const { return m_error; }

private:
    bool atEnd() const { return m_pos >= m_u.size(); }
    bool isLit(char16_t c) const { return !atEnd() && !m_u[m_pos].opaque && m_u[m_pos].ch == c; }
    QString col() const { return QString::number(atEnd() ? m_endColumn : m_u[m_pos].column); }
    QString here() const
    {
        if (atEnd())
            return QStringLiteral("at the end");
        return (m_u[m_pos].opaque ? QStringLiteral("range") : u'\'' + QString(QChar(m_u[m_pos].ch)) + u'\'')
            + QStringLiteral(" at column ") + col();
    }
    bool fail(const QString& e)
    {
        m_error = e;
        return false;
    }
    void skipSpaces()
    {
        while (!atEnd() && !m_u[m_pos].opaque && isSpace(m_u[m_pos].ch))
            ++m_pos;
    }

    bool filter()
    {
        if (!isLit(u'('))
            return fail(QStringLiteral("expected '(' but found ") + here());
        const QString open = col();
        if (++m_depth > 200)
            return fail(QStringLiteral("filters nested more than 200 deep at column ") + open);
        ++m_pos;
        if (!filterComp())
            return false;
        if (atEnd())
            return fail(QStringLiteral("missing ')' at the end, to close the '(' at column ") + open);
        if (!isLit(u')'))
            return fail(QStringLiteral("expected ')' to close the '(' at column ") + open
                + QStringLiteral(" but found ") + here());
        ++m_pos;
        --m_depth;
        return true;
    }

    bool filterComp()
    {
        if (isLit(u'&') || isLit(u'|')) {
            const QString op = QString(QChar(m_u[m_pos].ch)), at = col();
            ++m_pos;
            skipSpaces();
            if (!isLit(u'('))
                return fail(u'\'' + op + QStringLiteral("' at column ") + at
                    + QStringLiteral(" must be followed by one or more filters in parentheses, e.g. (") + op
                    + QStringLiteral("(a=1)(b=2)); found ") + here());
            while (isLit(u'(')) {
                if (!filter())
                    return false;
                skipSpaces();
            }
            return true;
        }
        if (isLit(u'!')) {
            const QString at = col();
            ++m_pos;
            skipSpaces();
            if (!isLit(u'('))
                return fail(QStringLiteral("'!' at column ") + at
                    + QStringLiteral(" must be followed by a filter in parentheses, e.g. (!(a=1)); found ") + here());
            if (!filter())
                return false;
            skipSpaces();
            if (isLit(u'('))
                return fail(QStringLiteral("'!' at column ") + at
                    + QStringLiteral(" takes exactly one filter; another begins at column ") + col());
            return true;
        }
        return item();
    }

    bool item()
    {
        if (atEnd() || isLit(u')'))
            return fail(QStringLiteral("empty filter item ") + here() + QStringLiteral("; expected e.g. (uid=value)"));
        const QString attrColumn = col();
        QString attr;
        while (!atEnd()
            && (m_u[m_pos].opaque || isKeyChar(m_u[m_pos].ch) || m_u[m_pos].ch == u'.' || m_u[m_pos].ch == u';')) {
            attr += m_u[m_pos].opaque ? QChar(u'x') : QChar(m_u[m_pos].ch);
            ++m_pos;
        }
        if (attr.isEmpty() && !isLit(u':')) {
            if (isLit(u'=') || isLit(u'~') || isLit(u'<') || isLit(u'>'))
                return fail(QStringLiteral("missing attribute description before ") + here());
            return fail(QStringLiteral("invalid character ") + here() + QStringLiteral(" in an attribute description"));
        }
        if (!attr.isEmpty() && !isAttributeDescription(attr))
            return fail(
                QStringLiteral("invalid attribute description '") + attr + QStringLiteral("' at column ") + attrColumn);
        if (isLit(u'=')) {
            ++m_pos;
            return value(true);
        }
        if (isLit(u'~') || isLit(u'<') || isLit(u'>')) {
            const QString op = QString(QChar(m_u[m_pos].ch));
            ++m_pos;
            if (!isLit(u'='))
                return fail(QStringLiteral("expected '=' after '") + op + QStringLiteral("' (") + op
                    + QStringLiteral("=), found ") + here());
            ++m_pos;
            return value(false);
        }
        if (isLit(u':'))
            return extensible(!attr.isEmpty());
        if (atEnd() || isLit(u')'))
            return fail(QStringLiteral("missing filter type (=, ~=, >=, <=) after '") + attr
                + QStringLiteral("' at column ") + attrColumn);
        return fail(QStringLiteral("invalid character ") + here() + QStringLiteral(" in the attribute description '")
            + attr + u'\'');
    }

    // [":dn"] [":" rule] ":=" value, after the attribute (if any).
    bool extensible(bool hasAttr)
    {
        const QString start = col();
        bool dn = false;
        QString rule;
        while (isLit(u':')) {
            ++m_pos;
            if (isLit(u'=')) {
                ++m_pos;
                if (!hasAttr && rule.isEmpty())
                    return fail(QStringLiteral("extensible match at column ") + start
                        + QStringLiteral(" has neither an attribute nor a matching rule, e.g. (cn:caseExactMatch:=x)"));
                return value(false);
            }
            const QString tokenColumn = col();
            QString token;
            while (!atEnd() && !m_u[m_pos].opaque && (isKeyChar(m_u[m_pos].ch) || m_u[m_pos].ch == u'.'))
                token += QChar(m_u[m_pos++].ch);
            if (token.isEmpty())
                return fail(QStringLiteral("expected 'dn', a matching rule or '=' after ':', found ") + here());
            if (!dn && rule.isEmpty() && token.compare(u"dn", Qt::CaseInsensitive) == 0) {
                dn = true;
            } else if (rule.isEmpty()) {
                if (!isOid(token))
                    return fail(QStringLiteral("invalid matching rule '") + token + QStringLiteral("' at column ")
                        + tokenColumn);
                rule = token;
            } else {
                return fail(QStringLiteral("extensible match at column ") + start
                    + QStringLiteral(" has too many parts; expected attr[:dn][:rule]:=value"));
            }
        }
        return fail(QStringLiteral("expected ':=' in the extensible match at column ") + start
            + QStringLiteral(", found ") + here());
    }

    // Up to the closing ')' (or the end of a wrapped filter).
    bool value(bool wildcards)
    {
        bool previousStar = false;
        while (!atEnd() && !isLit(u')')) {
            const Unit& u = m_u[m_pos];
            if (u.opaque) {
                previousStar = false;
                ++m_pos;
                continue;
            }
            if (u.ch == u'(')
                return fail(
                    QStringLiteral("unescaped '(' in a value at column ") + col() + QStringLiteral(" (write \\28)"));
            if (u.ch == u'\\') {
                const bool ok = m_pos + 2 < m_u.size() && !m_u[m_pos + 1].opaque && isHex(m_u[m_pos + 1].ch)
                    && !m_u[m_pos + 2].opaque && isHex(m_u[m_pos + 2].ch);
                if (!ok)
                    return fail(QStringLiteral("'\\' at column ") + col()
                        + QStringLiteral(" must be followed by two hex digits (e.g. \\2a for '*', \\5c for '\\')"));
                m_pos += 3;
                previousStar = false;
                continue;
            }
            if (u.ch == u'*') {
                if (!wildcards)
                    return fail(QStringLiteral("'*' at column ") + col()
                        + QStringLiteral(
                            ": wildcards are only allowed after a plain '=' (write \\2a for a literal '*')"));
                if (previousStar)
                    return fail(QStringLiteral("two '*' in a row at column ") + col());
                previousStar = true;
            } else {
                previousStar = false;
            }
            ++m_pos;
        }
        return true;
    }

    const std::vector<Unit>& m_u;
    qsizetype m_endColumn;
    size_t m_pos = 0;
    int m_depth = 0;
    QString m_error;
};

ProbeError filterError(const QString& detail)
{
    return ProbeError::invalid(QStringLiteral("filter"), detail);
}

} // namespace

std::optional<QString> FilterTemplate::normalise(const QString& text, ProbeError* error)
{
    std::vector<Unit> units;
    units.reserve(size_t(text.size()));
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n;) {
        const char16_t c = text.at(i).unicode();
        if (c == u'\\' && i + 1 < n && (text.at(i + 1) == u'[' || text.at(i + 1) == u'\\')) {
            units.push_back(Unit { text.at(i + 1).unicode(), i + 1, false });
            i += 2;
        } else if (c == u'[') {
            const qsizetype close = text.indexOf(u']', i + 1);
            if (close < 0) {
                if (error)
                    *error = filterError(QStringLiteral("unclosed '[' at column ") + QString::number(i + 1)
                        + QStringLiteral(" (write \\[ for a literal '[')"));
                return std::nullopt;
            }
            units.push_back(Unit { 0, i + 1, true });
            i = close + 1;
        } else {
            units.push_back(Unit { c, i + 1, false });
            ++i;
        }
    }
    while (!units.empty() && !units.back().opaque && isSpace(units.back().ch))
        units.pop_back();
    size_t lead = 0;
    while (lead < units.size() && !units[lead].opaque && isSpace(units[lead].ch))
        ++lead;
    units.erase(units.begin(), units.begin() + qsizetype(lead));
    if (units.empty()) {
        if (error)
            *error = filterError(QStringLiteral("is empty; expected e.g. (uid=user[1-1000])"));
        return std::nullopt;
    }
    const bool wrapped = units.front().opaque || units.front().ch != u'(';
    Checker checker(units, n + 1);
    if (!checker.check(wrapped)) {
        if (error)
            *error = filterError(checker.error());
        return std::nullopt;
    }
    const QString trimmed = text.trimmed();
    return wrapped ? u'(' + trimmed + u')' : trimmed;
}

std::optional<ValuePattern> FilterTemplate::parse(const QString& text, ProbeError* error)
{
    auto pattern = ValuePattern::parse(text, QStringLiteral("filter"), error);
    if (!pattern)
        return std::nullopt;
    const auto normalised = normalise(text, error);
    if (!normalised)
        return std::nullopt;
    const QString trimmed = text.trimmed();
    if (trimmed.size() != text.size()) {
        pattern = ValuePattern::parse(trimmed, QStringLiteral("filter"), error);
        if (!pattern)
            return std::nullopt;
    }
    if (normalised->size() != trimmed.size())
        pattern->surround("(", ")");
    return pattern;
}
