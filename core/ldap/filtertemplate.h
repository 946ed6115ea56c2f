#pragma once

#include "core/common/proberror.h"
#include "core/ldap/valuepattern.h"

#include <QString>

#include <optional>

// A search filter template: a ValuePattern whose rendering is an RFC 4515 filter. Checked before any connection,
// by a small recursive-descent parser (libldap stays in LdapSession):
//   - outer parentheses are optional (`uid=user[1-9]` becomes `(uid=user[1-9])`); surrounding whitespace is trimmed;
//   - parentheses balance; each item has an attribute description (a name or numeric OID, options after `;`; `_`
//     is tolerated in names) and a filter type: `=`, `~=`, `>=`, `<=`, presence `=*`, substrings with `*` (not two in
//     a row; `*` only after a plain `=`), or an extensible match `attr[:dn][:rule]:=value` / `[:dn]:rule:=value`;
//   - `&` and `|` are followed by one or more filters, `!` by exactly one; whitespace is allowed between filters.
//     `(&)` and `(|)` (RFC 4526 absolute true/false) are refused: not every server supports them;
//   - in values, `(` and `)` must be escaped (`\28`, `\29`) and a backslash must be followed by two hex digits.
// The check reads the template as it renders: a range `[...]` stands for a value and its brackets are not
// parentheses, and the template escapes `\[` and `\\` count as the `[` and `\` they produce. Lines of a [file:...]
// source are inserted as they are and are not checked.
// Errors name the field "filter" and a 1-based column of the text as the user wrote it.
class FilterTemplate
{
public:
    // The structural check alone; returns the normalised text (trimmed, outer parentheses added when missing).
    // Range contents are not checked here (ValuePattern::parse does that).
    static std::optional<QString> normalise(const QString& text, ProbeError* error = nullptr);

    // ValuePattern::parse (ranges, files) then the structural check; the pattern renders the normalised filter.
    static std::optional<ValuePattern> parse(const QString& text, ProbeError* error = nullptr);
};
