#include "core/ldap/lockoutcheck.h"

#include "core/common/runrecord.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/serveridentity.h"

namespace Ldap {

void addBindSafetyWarnings(LdapSession& s, const ServerIdentity& id, RunRecord& rec)
{
    QList<LdapSession::Entry> out;
    if (id.kind == u"389ds") {
        if (!s.search(QStringLiteral("cn=config"), LdapSession::Base, QStringLiteral("(objectClass=*)"),
                  { QStringLiteral("passwordLockout"), QStringLiteral("nsslapd-enable-upgrade-hash") }, &out, 0, 2000)
                 .isError()
            && !out.isEmpty()) {
            if (out.first().first(QStringLiteral("passwordlockout")).toLower() == "on")
                rec.addWarning(QStringLiteral("lockout"),
                    QStringLiteral(
                        "the server locks accounts after failed binds (passwordLockout: on): a wrong password "
                        "in this run can lock the entries it binds as"));
            if (out.first().first(QStringLiteral("nsslapd-enable-upgrade-hash")).toLower() != "off")
                rec.addWarning(QStringLiteral("upgrade-hash"),
                    QStringLiteral("389-ds rewrites a stored password hash on bind when its scheme is outdated "
                                   "(nsslapd-enable-upgrade-hash): this bind load may modify the entries it binds as"));
        } else {
            rec.addWarning(QStringLiteral("upgrade-hash"),
                QStringLiteral(
                    "389-ds may rewrite stored password hashes on bind (nsslapd-enable-upgrade-hash) and may "
                    "lock accounts out; cn=config was not readable to check"));
        }
        return;
    }
    out.clear();
    const ProbeError e = s.search(QString(), LdapSession::Subtree,
        QStringLiteral("(&(objectClass=pwdPolicy)(pwdLockout=TRUE))"), { QStringLiteral("1.1") }, &out, 1, 2000);
    if (!e.isError() && !out.isEmpty())
        rec.addWarning(QStringLiteral("lockout"),
            QStringLiteral(
                "a password policy with pwdLockout: TRUE exists: failed binds in this run can lock entries out"));
}

} // namespace Ldap
