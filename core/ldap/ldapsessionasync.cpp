#include "core/ldap/ldapsession_p.h"

// LdapSession's hot path: asynchronous requests written through the batching layer, completions collected
// without waiting.

int LdapSession::fd() const
{
    int fd = -1;
    if (d->ld)
        ldap_get_option(d->ld, LDAP_OPT_DESC, &fd);
    return fd;
}

int LdapSession::sendSearch(const char* base, int scope, const char* filter, char** attrs, int sizeLimit, int* msgid)
{
    d->cork();
    return ldap_search_ext(d->ld, base, scope, filter, attrs, 0, nullptr, nullptr, nullptr, sizeLimit, msgid);
}

int LdapSession::sendCompare(const char* dn, const char* attr, const char* value, int valueLen, int* msgid)
{
    berval bv { ber_len_t(valueLen), const_cast<char*>(value) };
    d->cork();
    return ldap_compare_ext(d->ld, dn, attr, &bv, nullptr, nullptr, msgid);
}

int LdapSession::sendModifyReplace(const char* dn, const char* attr, const char* value, int valueLen, int* msgid)
{
    berval bv { ber_len_t(valueLen), const_cast<char*>(value) };
    berval* vals[] = { &bv, nullptr };
    LDAPMod mod {};
    mod.mod_op = LDAP_MOD_REPLACE | LDAP_MOD_BVALUES;
    mod.mod_type = const_cast<char*>(attr);
    mod.mod_bvalues = vals;
    LDAPMod* mods[] = { &mod, nullptr };
    d->cork();
    return ldap_modify_ext(d->ld, dn, mods, nullptr, nullptr, msgid);
}

int LdapSession::sendAddPerson(const char* dn, const char* uid, int* msgid)
{
    char oc0[] = "top", oc1[] = "person", oc2[] = "organizationalPerson", oc3[] = "inetOrgPerson";
    char* ocs[] = { oc0, oc1, oc2, oc3, nullptr };
    char* uids[] = { const_cast<char*>(uid), nullptr };
    char sn[] = "DirBench";
    char* sns[] = { sn, nullptr };
    char* cns[] = { const_cast<char*>(uid), nullptr };
    char tOc[] = "objectClass", tUid[] = "uid", tSn[] = "sn", tCn[] = "cn";
    LDAPMod m[4] {};
    m[0].mod_op = LDAP_MOD_ADD, m[0].mod_type = tOc, m[0].mod_values = ocs;
    m[1].mod_op = LDAP_MOD_ADD, m[1].mod_type = tUid, m[1].mod_values = uids;
    m[2].mod_op = LDAP_MOD_ADD, m[2].mod_type = tSn, m[2].mod_values = sns;
    m[3].mod_op = LDAP_MOD_ADD, m[3].mod_type = tCn, m[3].mod_values = cns;
    LDAPMod* mods[] = { &m[0], &m[1], &m[2], &m[3], nullptr };
    d->cork();
    return ldap_add_ext(d->ld, dn, mods, nullptr, nullptr, msgid);
}

int LdapSession::sendDelete(const char* dn, int* msgid)
{
    d->cork();
    return ldap_delete_ext(d->ld, dn, nullptr, nullptr, msgid);
}

int LdapSession::sendSimpleBind(const char* dn, const QByteArray& password, int* msgid)
{
    berval cred { ber_len_t(password.size()), const_cast<char*>(password.constData()) };
    d->cork();
    return ldap_sasl_bind(d->ld, dn, LDAP_SASL_SIMPLE, &cred, nullptr, nullptr, msgid);
}

void LdapSession::abandon(int msgid)
{
    if (d->ld)
        ldap_abandon_ext(d->ld, msgid, nullptr, nullptr);
}

int LdapSession::collect(CompletionFn fn, void* user)
{
    if (!d->ld)
        return -1;
    int done = 0;
    for (;;) {
        // With the batched layer, stop when nothing is buffered and the socket is drained: ldap_result() would
        // only poll() to find that out.
        if (d->batched && !ber_sockbuf_ctrl(d->sb, LBER_SB_OPT_DATA_READY, nullptr))
            return done;
        timeval zero { 0, 0 };
        LDAPMessage* res = nullptr;
        const int type = ldap_result(d->ld, LDAP_RES_ANY, LDAP_MSG_ALL, &zero, &res);
        if (type == 0)
            return done;
        if (type < 0) {
            if (res)
                ldap_msgfree(res);
            return -1;
        }
        Completion c;
        c.msgid = ldap_msgid(res);
        if (type == LDAP_RES_SEARCH_ENTRY || type == LDAP_RES_SEARCH_RESULT || type == LDAP_RES_SEARCH_REFERENCE)
            c.entries = ldap_count_entries(d->ld, res);
        int rc = LDAP_OTHER;
        if (ldap_parse_result(d->ld, res, &rc, nullptr, nullptr, nullptr, nullptr, 0) != LDAP_SUCCESS)
            rc = LDAP_OTHER;
        c.resultCode = rc;
        ldap_msgfree(res);
        if (c.msgid > 0) {
            fn(user, c);
            ++done;
        }
    }
}

SocketIo* LdapSession::enableBatchedIo()
{
    Sockbuf* sb = nullptr;
    if (!d->sb && (!d->ld || ldap_get_option(d->ld, LDAP_OPT_SOCKBUF, &sb) != LDAP_OPT_SUCCESS || !sb))
        return nullptr;
    if (!d->sb && !d->addLayer(sb, 0))
        return nullptr;
    d->io.setWaitMs(0); // the event loop never blocks
    d->batched = true;
    return &d->io;
}
