#pragma once

class LdapSession;
class ValuePattern;
struct RunRecord;
struct ServerIdentity;

namespace Ldap {

// Bind loads can lock accounts out or rewrite entries: say so before anyone is surprised. Reads the password
// policy that applies to the entries the run binds as (`bindDns`, the load's DN pattern: its first DN is the
// sample) over the setup connection `s`, and adds warnings ("lockout", "upgrade-hash") to `rec`.
//
// OpenLDAP (and any server but 389-ds): only when the root DSE lists the password policy control (slapd does
// whenever the ppolicy module is loaded). The policy is the sample entry's pwdPolicySubentry, else the
// olcPPolicyDefault of the ppolicy overlay on its database (when cn=config is readable); when neither can be
// read, a search for pwdPolicy entries under each naming context. Its pwdLockout, pwdMaxFailure and
// pwdLockoutDuration are in the message; a policy that cannot be read gets a softer warning.
// 389-ds: passwordLockout, passwordMaxFailure, passwordLockoutDuration and passwordUnlock of cn=config, overridden
// by the sample's fine-grained policy (its pwdpolicysubentry, with nsslapd-pwpolicy-local on); and
// nsslapd-enable-upgrade-hash.
void addBindSafetyWarnings(LdapSession& s, const ServerIdentity& id, const ValuePattern& bindDns, RunRecord& rec);

} // namespace Ldap
