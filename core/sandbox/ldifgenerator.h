#pragma once

#include "core/common/proberror.h"

#include <QByteArray>
#include <QString>

class RunContext;

// Streams the sandbox's demo data to an LDIF file: dc=example,dc=com, ou=people, then uid=user0 ..
// uid=user{N-1} inetOrgPerson entries of about 1 KB each (25 attributes, a ~400-byte description), all with
// the same userPassword value. The content is deterministic: entry i is the same on every run.
class LdifGenerator
{
public:
    static const char* const kBase; // dc=example,dc=com
    static const char* const kPeopleBase; // ou=people,dc=example,dc=com
    static const char* const kLockoutPolicyDn; // cn=default,ou=policies,dc=example,dc=com

    // Writes the file (created 0600, replaced if present). passwordHash is the userPassword value as written
    // ("{SSHA}..."). ctx (optional) is polled for cancel every 1000 entries (then Kind::Cancelled) and gets
    // progress from progressFrom to progressTo. On error the partial file is removed.
    static bool write(const QString& path, int entries, const QByteArray& passwordHash, ProbeError* error,
        RunContext* ctx = nullptr, double progressFrom = 0.0, double progressTo = 1.0);

    // The base and ou=people entries, then person i: for tests and for write().
    static QByteArray header();
    static void appendPerson(QByteArray& out, int index, const QByteArray& passwordHash);
    // ou=policies and kLockoutPolicyDn, a pwdPolicy (OpenLDAP's ppolicy overlay) that locks an account after 3
    // failed binds for 300 s; the entries start with an empty line, to be appended to what write() wrote.
    static QByteArray lockoutPolicy();
};
