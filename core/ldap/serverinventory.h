#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldaptarget.h"
#include "core/ldap/serveridentity.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

// What a live server says about its size and its caches, read for sizing (the keys of
// SizingInput::applyMonitor). Read only: nothing on the server is changed.
//   OpenLDAP back-mdb: olmMDBEntries and olmMDBPagesUsed / olmMDBPagesMax of the database holding the base
//     (cn=Databases,cn=Monitor), worker threads from cn=Threads,cn=Monitor.
//   389-ds: the backend monitor (currententrycachesize/count, maxentrycachesize), nsslapd-threadnumber,
//     nsslapd-dbcachesize, the entries under the backend's suffix (counted: a subtree search returning no
//     attributes), and the sizes of its db files when the database directory is readable from here (same host).
// A value the server does not expose is absent, never 0; `notes` say what was missing and why.
struct ServerInventory
{
    ServerIdentity identity;
    QString base; // the suffix the numbers are for
    QMap<QString, double> values; // entries, entry_cache_size, entry_cache_count, db_files_bytes, ...
    QMap<QString, QString> evidence; // key -> where it was read ("olmMDBEntries of cn=Database 2,...")
    QStringList notes;

    QJsonObject toJson() const;
};

namespace Ldap {

// Connects as the target says, reads, disconnects. base empty: the server's first naming context.
// Fails (nullopt, *error set) only when the server cannot be reached or bound; missing counters are notes.
std::optional<ServerInventory> readInventory(const LdapTarget& target, const QString& base, ProbeError* error);

} // namespace Ldap
