#pragma once

class LdapSession;
struct RunRecord;
struct ServerIdentity;

namespace Ldap {

// Bind loads can lock accounts out or rewrite entries: say so before anyone is surprised. Reads the server's
// password policy over the setup connection `s` and adds warnings ("lockout", "upgrade-hash") to `rec`.
void addBindSafetyWarnings(LdapSession& s, const ServerIdentity& id, RunRecord& rec);

} // namespace Ldap
