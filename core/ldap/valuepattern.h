#pragma once

#include "core/common/proberror.h"
#include "core/ldap/accessdistribution.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

// A value template such as `uid=user[0-99999]`, `(&(objectClass=person)(uid=user[00000-99999]))` or
// `cn=[file:/path/names.txt],ou=people,dc=example,dc=com`, rendered to UTF-8 bytes for libldap.
//
// Grammar (DESIGN.md, "The contract with scripts"):
//   [A-B]        an inclusive range of whole numbers, 0 <= A <= B <= 2^53; when A is written with leading zeros the
//                values are zero-padded to A's width (`[00000-99999]` gives 00042); at most 32 digits each.
//   [file:PATH]  the lines of a file (whitespace trimmed, empty lines skipped), read once at parse time; the bytes
//                are inserted as they are (UTF-8 expected; escape filter or DN specials in the file yourself). PATH
//                runs to the first `]`, so it cannot contain one.
//   \[  \\       a literal `[` and a literal backslash. Any other backslash is kept as written, with the character
//                after it, so LDAP escapes such as `\2a` or `\,` pass through untouched. A `]` outside a range is a
//                literal.
// Every range (and file) in a template draws its own key: same distribution, independent draws (with
// `sequential`, each range has its own counter).
//
// A ValuePattern is immutable after setDistribution(): render() is const and may run on several threads at once,
// each with its own Rng.
class ValuePattern
{
public:
    ValuePattern() = default; // the empty constant

    // Errors name `field` ("filter", "dn", "value", "base", ...) and the column (1-based) of the `[` at fault.
    static std::optional<ValuePattern> parse(const QString& text, const QString& field, ProbeError* error = nullptr);

    QString text() const { return m_text; }
    bool isConstant() const { return m_ranges.empty(); }
    // Ranges and files, in the order they appear.
    int rangeCount() const { return int(m_ranges.size()); }
    // Number of keys of range i: B - A + 1, or the number of lines of the file.
    uint64_t keyCount(int range) const { return m_ranges[size_t(range)].count; }

    // Builds one sampler per range; the default is uniform.
    void setDistribution(const AccessDistribution& access);
    const AccessDistribution& distribution() const { return m_access; }

    // Replaces the content of out (its capacity is kept: reuse one buffer and this allocates nothing once it has
    // grown; out stays NUL-terminated for libldap). Keys are drawn by the distribution.
    void render(QByteArray& out, AccessDistribution::Rng& rng) const;
    // The same with explicit keys: keys[i] in [0, keyCount(i)) for range i (tests, replay).
    void renderKeys(QByteArray& out, std::span<const uint64_t> keys) const;
    QByteArray renderKeys(std::span<const uint64_t> keys) const;

    // Adds literal text around the template (FilterTemplate adds the outer parentheses this way).
    void surround(QByteArrayView prefix, QByteArrayView suffix);

private:
    struct Lines
    {
        QByteArray blob; // the lines, back to back
        std::vector<qsizetype> starts; // line i is blob[starts[i], starts[i + 1])
    };
    struct Range
    {
        uint64_t first = 0;
        uint64_t count = 1;
        int width = 0; // zero padding
        std::shared_ptr<const Lines> lines; // set for [file:...]
        AccessDistribution::Sampler sampler;
    };
    struct Part
    {
        QByteArray literal;
        int range = -1; // >= 0: a range, else the literal
    };

    static void appendKey(QByteArray& out, const Range& range, uint64_t key);

    QString m_text;
    std::vector<Part> m_parts;
    std::vector<Range> m_ranges;
    AccessDistribution m_access;
};
