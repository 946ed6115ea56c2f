#pragma once

#include <string>
#include <string_view>
#include <vector>

// The shape of a search filter or a DN: its values taken out into numbered slots, so that filters that differ
// only in their values share a template (Ping's GenericFilter, with numbered slots).
//
// Filters (RFC 4515): every assertion value becomes a slot ?N: (uid=?1), (cn>=?1), (cn~=?1), substrings keep
// their stars and each non-empty part is a slot: (cn=?1*?2*); presence (cn=*) has none; extensible matches keep
// their attribute, :dn and rule: (cn:dn:2.5.13.5:=?1). Attribute descriptions are lower-cased (they are
// case-insensitive). The parts of an AND or OR are put in a canonical order, sorted by their template text (then
// by their values, so that (|(uid=b)(uid=a)) and (|(uid=a)(uid=b)) give the same template and values), and the
// slots are numbered in that order, left to right. Values are kept as the filter writes them (RFC 4515 escapes
// such as \2a stay escaped), so putting them back into the template gives a filter equal to the logged one up to
// the order of AND/OR parts. Whitespace between parts is dropped; a filter without outer parentheses is read as
// if it had them. A filter that does not parse (cut by the log, garbage) has the template "?1" with the whole
// filter as its one value, and `ok` false.
//
// DNs (binds and writes): the value(s) of the first RDN become slots and the rest of the DN is the structure:
// "uid=user42,ou=People,dc=example,dc=com" -> "uid=?1,ou=People,dc=example,dc=com" with ["user42"]; a
// multi-valued RDN "cn=a+sn=b,dc=x" -> "cn=?1+sn=?2,dc=x". Attribute types are lower-cased, the parent's values
// kept (the parent is where the entry lives, not which entry it is). The empty DN (anonymous) has no slot.
struct Shape
{
    std::string text;
    std::vector<std::string> values; // in slot order
    bool ok = true;
};

namespace FilterShape {

Shape ofFilter(std::string_view filter);
Shape ofDn(std::string_view dn);
// The template with its slots filled from `values` (?N -> values[N-1]); for tests and the replay.
std::string fill(std::string_view text, const std::vector<std::string>& values);

} // namespace FilterShape
