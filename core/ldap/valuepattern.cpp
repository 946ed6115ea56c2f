#include "core/ldap/valuepattern.h"

#include <QFile>

#include <charconv>

namespace {

constexpr uint64_t kMaxValue = uint64_t(1) << 53;
constexpr qsizetype kMaxDigits = 32;

bool allDigits(const QString& s)
{
    for (const QChar c : s) {
        if (c < u'0' || c > u'9')
            return false;
    }
    return !s.isEmpty();
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

bool allLetters(const QString& s)
{
    for (const QChar c : s) {
        if (!((c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z')))
            return false;
    }
    return !s.isEmpty();
}

// Reads a bound of a range; returns an error detail, or an empty string.
QString parseBound(const QString& digits, const QString& which, uint64_t* value)
{
    if (digits.isEmpty())
        return which + QStringLiteral(" is missing (ranges are of whole numbers >= 0, written [A-B])");
    if (!allDigits(digits))
        return which + QStringLiteral(" '") + digits + QStringLiteral("' is not a whole number");
    if (digits.size() > kMaxDigits)
        return which + QStringLiteral(" has more than ") + QString::number(kMaxDigits) + QStringLiteral(" digits");
    uint64_t v = 0;
    for (const QChar c : digits) {
        v = v * 10 + uint64_t(c.unicode() - u'0');
        if (v > kMaxValue)
            return which + u' ' + digits + QStringLiteral(" is larger than 2^53 (9007199254740992)");
    }
    *value = v;
    return {};
}

} // namespace

std::optional<ValuePattern> ValuePattern::parse(const QString& text, const QString& field, ProbeError* error)
{
    QString detail;
    const auto fail = [&](const QString& what) -> std::optional<ValuePattern> {
        if (error)
            *error = ProbeError::invalid(field, what);
        return std::nullopt;
    };

    ValuePattern p;
    p.m_text = text;
    QString literal;
    const auto flush = [&]() {
        if (!literal.isEmpty())
            p.m_parts.push_back(Part { literal.toUtf8(), -1 });
        literal.clear();
    };

    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const QChar c = text.at(i);
        if (c == u'\\' && i + 1 < n && (text.at(i + 1) == u'[' || text.at(i + 1) == u'\\')) {
            literal += text.at(i + 1);
            i += 2;
            continue;
        }
        if (c != u'[') {
            literal += c;
            ++i;
            continue;
        }
        const QString column = QString::number(i + 1);
        const qsizetype close = text.indexOf(u']', i + 1);
        if (close < 0)
            return fail(
                QStringLiteral("unclosed '[' at column ") + column + QStringLiteral(" (write \\[ for a literal '[')"));
        const QString inner = text.mid(i + 1, close - i - 1);
        const QString where = QChar(u'[') + inner + QStringLiteral("] at column ") + column + QStringLiteral(": ");
        if (inner.isEmpty())
            return fail(QStringLiteral("empty range [] at column ") + column
                + QStringLiteral(" (expected [A-B] or [file:PATH])"));

        Range range;
        const qsizetype colon = inner.indexOf(u':');
        const QString source = colon > 0 ? inner.left(colon) : QString();
        if (allLetters(source)) {
            if (source != u"file")
                return fail(QStringLiteral("unknown source '") + source + QStringLiteral("' in ") + where.chopped(2)
                    + QStringLiteral(" (expected [A-B] or [file:PATH])"));
            const QString path = inner.mid(colon + 1);
            if (path.trimmed().isEmpty())
                return fail(where + QStringLiteral("the path is empty"));
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                return fail(where + QStringLiteral("cannot read ") + path + QStringLiteral(": ") + file.errorString());
            const QByteArray all = file.readAll();
            if (file.error() != QFileDevice::NoError)
                return fail(where + QStringLiteral("cannot read ") + path + QStringLiteral(": ") + file.errorString());
            auto lines = std::make_shared<Lines>();
            for (qsizetype from = 0; from < all.size();) {
                qsizetype end = all.indexOf('\n', from);
                if (end < 0)
                    end = all.size();
                qsizetype b = from, e = end;
                from = end + 1;
                while (b < e && isSpace(all.at(b)))
                    ++b;
                while (e > b && isSpace(all.at(e - 1)))
                    --e;
                if (b == e)
                    continue;
                lines->starts.push_back(lines->blob.size());
                lines->blob.append(all.constData() + b, e - b);
            }
            if (lines->starts.empty())
                return fail(where + QStringLiteral("the file has no lines"));
            lines->starts.push_back(lines->blob.size());
            range.count = uint64_t(lines->starts.size() - 1);
            range.lines = std::move(lines);
        } else {
            const qsizetype dash = inner.indexOf(u'-');
            if (dash < 0)
                return fail(QStringLiteral("range ") + where
                    + QStringLiteral("expected [A-B] with whole numbers A <= B, or [file:PATH]"));
            const QString a = inner.left(dash), b = inner.mid(dash + 1);
            uint64_t first = 0, last = 0;
            detail = parseBound(a, QStringLiteral("start"), &first);
            if (detail.isEmpty())
                detail = parseBound(b, QStringLiteral("end"), &last);
            if (!detail.isEmpty())
                return fail(QStringLiteral("range ") + where + detail);
            if (first > last)
                return fail(QStringLiteral("range ") + where + QStringLiteral("start is greater than end"));
            range.first = first;
            range.count = last - first + 1;
            range.width = a.size() > 1 && a.at(0) == u'0' ? int(a.size()) : 0;
        }
        flush();
        p.m_parts.push_back(Part { QByteArray(), int(p.m_ranges.size()) });
        p.m_ranges.push_back(std::move(range));
        i = close + 1;
    }
    flush();
    p.setDistribution(AccessDistribution());
    return p;
}

void ValuePattern::setDistribution(const AccessDistribution& access)
{
    m_access = access;
    for (Range& r : m_ranges)
        r.sampler = access.sampler(r.count);
}

void ValuePattern::appendKey(QByteArray& out, const Range& range, uint64_t key)
{
    if (range.lines) {
        const Lines& l = *range.lines;
        const size_t i = size_t(key < range.count ? key : range.count - 1);
        out.append(l.blob.constData() + l.starts[i], l.starts[i + 1] - l.starts[i]);
        return;
    }
    char digits[24];
    const auto res = std::to_chars(digits, digits + sizeof digits, range.first + key);
    const qsizetype len = res.ptr - digits;
    for (qsizetype pad = range.width - len; pad > 0; --pad)
        out.append('0');
    out.append(digits, len);
}

void ValuePattern::render(QByteArray& out, AccessDistribution::Rng& rng) const
{
    out.resize(0);
    for (const Part& part : m_parts) {
        if (part.range < 0) {
            out.append(part.literal.constData(), part.literal.size());
        } else {
            const Range& r = m_ranges[size_t(part.range)];
            appendKey(out, r, r.sampler.next(rng));
        }
    }
}

void ValuePattern::renderKeys(QByteArray& out, std::span<const uint64_t> keys) const
{
    Q_ASSERT(keys.size() == m_ranges.size());
    out.resize(0);
    for (const Part& part : m_parts) {
        if (part.range < 0)
            out.append(part.literal.constData(), part.literal.size());
        else
            appendKey(out, m_ranges[size_t(part.range)], keys[size_t(part.range)]);
    }
}

QByteArray ValuePattern::renderKeys(std::span<const uint64_t> keys) const
{
    QByteArray out;
    renderKeys(out, keys);
    return out;
}

void ValuePattern::surround(QByteArrayView prefix, QByteArrayView suffix)
{
    if (!prefix.isEmpty()) {
        if (!m_parts.empty() && m_parts.front().range < 0)
            m_parts.front().literal.prepend(prefix);
        else
            m_parts.insert(m_parts.begin(), Part { prefix.toByteArray(), -1 });
    }
    if (!suffix.isEmpty()) {
        if (!m_parts.empty() && m_parts.back().range < 0)
            m_parts.back().literal.append(suffix);
        else
            m_parts.push_back(Part { suffix.toByteArray(), -1 });
    }
    m_text = QString::fromUtf8(prefix) + m_text + QString::fromUtf8(suffix);
}
