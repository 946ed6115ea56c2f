// The LDIF statistics' report: the index-candidate heuristic and the JSON form.
#include "core/sizing/ldifstats.h"

#include <QJsonArray>

namespace {

struct TypicalAttribute
{
    const char* name;
    const char* types;
    const char* why;
};

// Attributes that search filters typically name, with the index types their usual filters need.
const TypicalAttribute kTypical[] = {
    { "objectclass", "eq", "nearly every filter names an object class; servers index it by default" },
    { "uid", "eq", "logins and DN lookups filter on (uid=X)" },
    { "cn", "eq,sub", "name lookups, often by prefix (cn=X*)" },
    { "sn", "eq,sub", "surname lookups, often by prefix" },
    { "givenname", "eq,sub", "given-name lookups, often by prefix" },
    { "mail", "eq,sub", "mail routing and address books filter on (mail=X)" },
    { "displayname", "eq,sub", "address-book lookups" },
    { "telephonenumber", "eq", "phone-book lookups" },
    { "employeenumber", "eq", "HR feeds look people up by number" },
    { "uidnumber", "eq", "POSIX (NSS) lookups by uid number" },
    { "gidnumber", "eq", "POSIX (NSS) lookups by gid number" },
    { "ou", "eq", "organisational-unit lookups" },
    { "samaccountname", "eq", "Windows logins" },
    { "userprincipalname", "eq", "Windows/Kerberos logins" },
    { "krbprincipalname", "eq", "Kerberos logins" },
    { "memberof", "eq", "membership filters (memberOf=DN)" },
    { "member", "eq", "group membership checks (member=DN)" },
    { "uniquemember", "eq", "group membership checks (uniqueMember=DN)" },
    { "memberuid", "eq", "POSIX group membership (memberUid=X)" },
};

bool isMembership(const QString& n)
{
    return n == u"member" || n == u"uniquemember" || n == u"memberuid";
}

} // namespace

QStringList LdifScanner::typicalFilterAttributes()
{
    QStringList out;
    for (const auto& t : kTypical)
        out << QLatin1String(t.name);
    return out;
}

QList<LdifIndexCandidate> LdifScanner::indexCandidates(
    const QList<LdifAttributeStat>& attributes, qint64 entries, double minPresence)
{
    QList<LdifIndexCandidate> out;
    if (entries <= 0)
        return out;
    for (const auto& t : kTypical) {
        const QString name = QLatin1String(t.name);
        for (const auto& a : attributes) {
            if (a.name != name)
                continue;
            const bool member = isMembership(name) && a.entries > 0;
            if (a.presence < minPresence && !member)
                break;
            LdifIndexCandidate c;
            c.attribute = name;
            c.presence = a.presence;
            c.indexTypes = QLatin1String(t.types);
            c.reason = QLatin1String(t.why)
                + (member && a.presence < minPresence
                        ? QStringLiteral("; held by %1 entries (groups)").arg(a.entries)
                        : QStringLiteral("; in %1 % of the entries").arg(a.presence * 100.0, 0, 'f', 1));
            out.append(c);
            break;
        }
    }
    return out;
}

const LdifAttributeStat* LdifStats::attribute(const QString& lowerName) const
{
    for (const auto& a : attributes)
        if (a.name == lowerName)
            return &a;
    return nullptr;
}

QJsonObject LdifStats::toJson(int maxAttributes) const
{
    QJsonArray attrs;
    for (int i = 0; i < attributes.size() && i < maxAttributes; ++i) {
        const auto& a = attributes.at(i);
        attrs.append(QJsonObject { { QStringLiteral("name"), a.name }, { QStringLiteral("entries"), double(a.entries) },
            { QStringLiteral("values"), double(a.values) }, { QStringLiteral("presence"), a.presence } });
    }
    QJsonArray cands;
    for (const auto& c : indexCandidates)
        cands.append(
            QJsonObject { { QStringLiteral("attribute"), c.attribute }, { QStringLiteral("presence"), c.presence },
                { QStringLiteral("index"), c.indexTypes }, { QStringLiteral("reason"), c.reason } });
    return QJsonObject { { QStringLiteral("path"), path.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(path) },
        { QStringLiteral("entries"), double(entries) }, { QStringLiteral("change_records"), double(changeRecords) },
        { QStringLiteral("malformed_lines"), double(malformedLines) }, { QStringLiteral("bytes"), double(bytes) },
        { QStringLiteral("mean_entry_bytes"), meanEntryBytes },
        { QStringLiteral("p95_entry_bytes"), double(p95EntryBytes) },
        { QStringLiteral("max_entry_bytes"), double(maxEntryBytes) },
        { QStringLiteral("total_entry_bytes"), double(totalEntryBytes) },
        { QStringLiteral("base64_values"), double(base64Values) }, { QStringLiteral("url_values"), double(urlValues) },
        { QStringLiteral("folded_lines"), double(foldedLines) }, { QStringLiteral("comments"), double(comments) },
        { QStringLiteral("seconds"), seconds }, { QStringLiteral("mb_per_s"), mbPerSecond() },
        { QStringLiteral("attributes_distinct"), double(attributes.size()) }, { QStringLiteral("attributes"), attrs },
        { QStringLiteral("index_candidates"), cands },
        { QStringLiteral("entry_size_definition"),
            QStringLiteral("plain LDIF text of the entry: one 'name: value\\n' per value, unfolded, base64 decoded, "
                           "dn line included") } };
}

std::optional<LdifStats> LdifStats::fromJson(const QJsonObject& o)
{
    if (!o.value(QLatin1String("entries")).isDouble())
        return std::nullopt;
    const auto n = [&o](const char* k) { return qint64(o.value(QLatin1String(k)).toDouble()); };
    LdifStats s;
    s.path = o.value(QLatin1String("path")).toString();
    s.entries = n("entries");
    s.changeRecords = n("change_records");
    s.malformedLines = n("malformed_lines");
    s.bytes = n("bytes");
    s.meanEntryBytes = o.value(QLatin1String("mean_entry_bytes")).toDouble();
    s.p95EntryBytes = n("p95_entry_bytes");
    s.maxEntryBytes = n("max_entry_bytes");
    s.totalEntryBytes = n("total_entry_bytes");
    s.base64Values = n("base64_values");
    s.urlValues = n("url_values");
    s.foldedLines = n("folded_lines");
    s.comments = n("comments");
    s.seconds = o.value(QLatin1String("seconds")).toDouble();
    const QJsonArray attrs = o.value(QLatin1String("attributes")).toArray();
    for (const auto& v : attrs) {
        const QJsonObject a = v.toObject();
        s.attributes.append(
            { a.value(QLatin1String("name")).toString(), qint64(a.value(QLatin1String("entries")).toDouble()),
                qint64(a.value(QLatin1String("values")).toDouble()), a.value(QLatin1String("presence")).toDouble() });
    }
    const QJsonArray cands = o.value(QLatin1String("index_candidates")).toArray();
    for (const auto& v : cands) {
        const QJsonObject c = v.toObject();
        s.indexCandidates.append(
            { c.value(QLatin1String("attribute")).toString(), c.value(QLatin1String("presence")).toDouble(),
                c.value(QLatin1String("index")).toString(), c.value(QLatin1String("reason")).toString() });
    }
    return s;
}
