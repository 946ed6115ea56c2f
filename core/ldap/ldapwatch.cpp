// LdapWatch: a persistent base-scope search (RFC 4533 sync refreshAndPersist, or the persistent search control)
// on an LdapSession's connection. One of LdapSession's files: it sees libldap.
#include "core/ldap/ldapwatch.h"

#include "core/ldap/ldapsession_p.h"

#include <vector>

using LdapSessionDetail::ldapError;

namespace {

// The control's value, BER-encoded. Sync: syncRequestValue ::= SEQUENCE { mode ENUMERATED (refreshAndPersist) }
// (no cookie: the whole content, reloadHint FALSE). Persistent search: PersistentSearch ::= SEQUENCE
// { changeTypes INTEGER (add | modify), changesOnly BOOLEAN (FALSE), returnECs BOOLEAN (FALSE) }.
LDAPControl* makeControl(LdapWatch::Mode mode)
{
    BerElement* ber = ber_alloc_t(LBER_USE_DER);
    if (!ber)
        return nullptr;
    int rc = 0;
    if (mode == LdapWatch::Mode::Sync)
        rc = ber_printf(ber, "{e}", ber_int_t(LDAP_SYNC_REFRESH_AND_PERSIST));
    else
        rc = ber_printf(ber, "{ibb}",
            ber_int_t(LDAP_CONTROL_PERSIST_ENTRY_CHANGE_ADD | LDAP_CONTROL_PERSIST_ENTRY_CHANGE_MODIFY), ber_int_t(0),
            ber_int_t(0));
    berval value { 0, nullptr };
    LDAPControl* ctrl = nullptr;
    if (rc >= 0 && ber_flatten2(ber, &value, 0) == 0) {
        const char* oid = mode == LdapWatch::Mode::Sync ? LdapWatch::kSyncOid : LdapWatch::kPersistentSearchOid;
        if (ldap_control_create(oid, 1, &value, 1, &ctrl) != LDAP_SUCCESS)
            ctrl = nullptr;
    }
    ber_free(ber, 1);
    return ctrl;
}

} // namespace

ProbeError LdapWatch::offered(LdapSession& s, std::optional<Mode>* out)
{
    QList<LdapSession::Entry> dse;
    if (ProbeError e = s.search(QString(), LdapSession::Base, QStringLiteral("(objectClass=*)"),
            { QStringLiteral("supportedControl") }, &dse);
        e.isError())
        return e;
    const QList<QByteArray> controls = dse.value(0).attributes.value(QStringLiteral("supportedcontrol"));
    if (controls.contains(QByteArray(kSyncOid)))
        *out = Mode::Sync;
    else if (controls.contains(QByteArray(kPersistentSearchOid)))
        *out = Mode::PersistentSearch;
    else
        out->reset();
    return {};
}

QString LdapWatch::modeName(Mode m)
{
    return m == Mode::Sync ? QStringLiteral("sync") : QStringLiteral("psearch");
}

LdapWatch::LdapWatch(LdapSession& s)
    : m_session(s)
{ }

LdapWatch::~LdapWatch()
{
    cancel();
}

void LdapWatch::cancel()
{
    if (m_msgid >= 0 && m_session.d->ld)
        ldap_abandon_ext(m_session.d->ld, m_msgid, nullptr, nullptr);
    m_msgid = -1;
    m_endCode = -1;
}

ProbeError LdapWatch::start(Mode mode, const QString& dn, const QStringList& attrs)
{
    cancel();
    LDAP* ld = m_session.d->ld;
    if (!ld)
        return ldapError(LDAP_SERVER_DOWN, QStringLiteral("not connected"));
    LDAPControl* ctrl = makeControl(mode);
    if (!ctrl)
        return ldapError(LDAP_ENCODING_ERROR, QStringLiteral("the ") + modeName(mode) + QStringLiteral(" control"));
    QList<QByteArray> attrBytes;
    std::vector<char*> attrPtrs;
    for (const QString& a : attrs) {
        attrBytes.append(a.toUtf8());
        attrPtrs.push_back(attrBytes.last().data());
    }
    attrPtrs.push_back(nullptr);
    LDAPControl* ctrls[] = { ctrl, nullptr };
    const int rc = ldap_search_ext(ld, dn.toUtf8().constData(), LDAP_SCOPE_BASE, "(objectClass=*)",
        attrs.isEmpty() ? nullptr : attrPtrs.data(), 0, ctrls, nullptr, nullptr, 0, &m_msgid);
    ldap_control_free(ctrl);
    if (rc != LDAP_SUCCESS) {
        m_msgid = -1;
        return ldapError(rc, modeName(mode) + QStringLiteral(" search of ") + dn, ld);
    }
    return {};
}

LdapWatch::Event LdapWatch::ended(ProbeError* error)
{
    const int rc = m_endCode;
    m_endCode = -1;
    if (rc == LDAP_NO_SUCH_OBJECT)
        return Event::Absent;
    *error = ldapError(rc, QStringLiteral("the persistent search ended"), m_session.d->ld);
    return Event::Ended;
}

LdapWatch::Event LdapWatch::next(int timeoutMs, QList<LdapSession::Entry>* out, ProbeError* error)
{
    LDAP* ld = m_session.d->ld;
    if (m_endCode >= 0)
        return ended(error); // the result came in with the last entries
    if (!ld || m_msgid < 0) {
        *error = ldapError(LDAP_SERVER_DOWN, QStringLiteral("no persistent search running"));
        return Event::Lost;
    }
    timeval tv { timeoutMs / 1000, (timeoutMs % 1000) * 1000 };
    LDAPMessage* res = nullptr;
    if (ldap_result(ld, m_msgid, LDAP_MSG_RECEIVED, &tv, &res) < 0) {
        int code = LDAP_SERVER_DOWN;
        ldap_get_option(ld, LDAP_OPT_RESULT_CODE, &code);
        *error = ldapError(code, QStringLiteral("persistent search"), ld);
        m_msgid = -1;
        return Event::Lost;
    }
    if (!res)
        return Event::Nothing; // the wait ran out
    bool entries = false;
    for (LDAPMessage* m = ldap_first_message(ld, res); m; m = ldap_next_message(ld, m)) {
        const int t = ldap_msgtype(m);
        if (t == LDAP_RES_SEARCH_ENTRY) {
            out->append(LdapSessionDetail::entryFrom(ld, m));
            entries = true;
        } else if (t == LDAP_RES_SEARCH_RESULT) {
            int rc = LDAP_OTHER;
            ldap_parse_result(ld, m, &rc, nullptr, nullptr, nullptr, nullptr, 0);
            m_endCode = rc;
            m_msgid = -1;
        }
        // Intermediate messages (sync info: refresh done, new cookies) and references carry nothing to watch.
    }
    ldap_msgfree(res);
    if (entries)
        return Event::Entries;
    return m_endCode >= 0 ? ended(error) : Event::Nothing;
}
