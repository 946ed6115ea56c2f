#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/serveridentity.h"

#include <QJsonObject>

struct RunRecord;

// The first steps of every run that talks to a server on a setup connection of its own (a load, a replay, a sweep,
// the coordinator of many hosts): open it, read the root DSE, and say which server it is. Made once here.
struct IdentifiedServer
{
    ServerIdentity identity;
    QJsonObject json; // the record's `server`: identity.toJson(), with OpenLDAP's version from cn=Monitor when read
};

namespace ServerConnect {

// Opens `session` to `target` and identifies the server (*out); the open's error, else none. A root DSE that
// cannot be read leaves the identity "other", as an unknown server.
ProbeError connectAndIdentify(LdapSession& session, const LdapTarget& target, IdentifiedServer* out);
// A load's or a replay's record when its setup connection could not be opened: failed, with the open's result code
// in the summary (81, server down, when the library gave none) and the reason.
void recordSetupFailure(RunRecord* rec, const ProbeError& openError);

} // namespace ServerConnect
