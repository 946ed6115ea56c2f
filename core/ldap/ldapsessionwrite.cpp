// LdapSession's synchronous add, for setup (sandbox replication entries, the replication probe's marker entry).
#include "core/ldap/ldapsession_p.h"

#include <vector>

using LdapSessionDetail::awaitWriteResult;
using LdapSessionDetail::ldapError;

ProbeError LdapSession::add(const QString& dn, const QList<Attribute>& attrs, int timeoutMs)
{
    if (!d->ld)
        return ldapError(LDAP_SERVER_DOWN, QStringLiteral("not connected"));
    const QByteArray dnBytes = dn.toUtf8();
    std::vector<QByteArray> names;
    std::vector<std::vector<berval>> vals(size_t(attrs.size()));
    std::vector<std::vector<berval*>> valPtrs(size_t(attrs.size()));
    std::vector<LDAPMod> mods(size_t(attrs.size()));
    std::vector<LDAPMod*> modPtrs;
    names.reserve(size_t(attrs.size()));
    for (size_t i = 0; i < size_t(attrs.size()); ++i) {
        const Attribute& a = attrs[qsizetype(i)];
        names.push_back(a.first.toUtf8());
        for (const QByteArray& v : a.second)
            vals[i].push_back(berval { ber_len_t(v.size()), const_cast<char*>(v.constData()) });
        for (berval& b : vals[i])
            valPtrs[i].push_back(&b);
        valPtrs[i].push_back(nullptr);
        mods[i].mod_op = LDAP_MOD_ADD | LDAP_MOD_BVALUES;
        mods[i].mod_type = names.back().data();
        mods[i].mod_bvalues = valPtrs[i].data();
        modPtrs.push_back(&mods[i]);
    }
    modPtrs.push_back(nullptr);
    const QString what = QStringLiteral("add of ") + dn;
    int msgid = 0;
    int rc = ldap_add_ext(d->ld, dnBytes.constData(), modPtrs.data(), nullptr, nullptr, &msgid);
    if (rc != LDAP_SUCCESS)
        return ldapError(rc, what, d->ld);
    return awaitWriteResult(d->ld, msgid, timeoutMs > 0 ? timeoutMs : d->opTimeoutMs, what);
}
