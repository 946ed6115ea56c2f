#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldaptarget.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

class LdapSession;

// Reading what a server says about replication, read only (issue 13). OpenLDAP: contextCSN of the suffix (one
// value per server ID) and, on a consumer, the olmSyncReplInstance entries under its database in cn=Monitor
// (2.5+; their olmSR* attributes are operational, so they are asked for by name). 389-ds: the replica's RUV
// (nsds50ruv of cn=replica, which the server fills from memory when asked for it by name; else the RUV tombstone
// nsuniqueid=ffffffff-ffffffff-ffffffff-ffffffff under the suffix), nsds5AgmtMaxCSN, the agreements under
// cn=mapping tree,cn=config with their status, and on a consumer the count of conflict entries (nsds5ReplConflict).
namespace ReplicationVendor {

constexpr int kReadTimeoutMs = 1000; // every read of the servers' state: connect, bind and each search

enum class Role
{
    Supplier,
    Consumer
};

// A 389-ds replication agreement, as the supplier reports it.
struct Agreement
{
    QString dn;
    QString host;
    int port = 0;
    QString uri; // where it points (nsDS5ReplicaTransportInfo decides ldap://, ldaps:// or StartTLS)
    bool startTls = false;
    QJsonObject status; // nsds5replicaLastUpdateStatusJSON: state (green|amber|red), message, ldap_rc, repl_rc, ...
    QString statusText; // nsds5replicaLastUpdateStatus
    QJsonObject changesSent; // nsds5replicaChangesSentSinceStartup per replica id: {sent, skipped}
    qint64 changesSentTotal = -1; // -1: not exposed
    QString maxCsn; // nsds5AgmtMaxCSN: the newest change the supplier sent through it
    QString updateInProgress; // nsds5replicaUpdateInProgress

    QJsonObject toJson() const;
};

struct Identity
{
    QString kind; // "openldap", "389ds"; anything else is not read
    QString suffix; // the naming context that holds the marker entry
    QString markerDn;
};

// One reading of a server.
struct ServerState
{
    Identity id;
    qint64 csnReadNs = 0; // ReplicationWatch::nowNs() when the CSNs were read
    QMap<QString, QString> csn; // per server ID (OpenLDAP SID, 389 replica id): the newest CSN this server holds
    QString ownId; // 389-ds: this server's nsDS5ReplicaId
    QJsonArray ruv; // 389-ds: [{rid, url, min_csn, max_csn}]
    QList<Agreement> agreements; // 389-ds supplier
    QJsonValue monitor; // OpenLDAP consumer: {"cn=Consumer 001": {provider_uris, phase, ...}}; null when unreadable
    QString monitorError;
    qint64 conflicts = -1; // 389-ds consumer: entries with nsds5ReplConflict; -1 unknown
    // Consumer: the highest marker number its copy of the marker entry held, read in the same session right before
    // and right after the CSNs (what a client reading the consumer then got), so that the state the CSNs describe
    // lies between the two; 0 while the entry is not there, -1 when unread.
    qint64 markerHeldBefore = -1;
    qint64 markerHeld = -1;
};

// The target with its timeouts cut to kReadTimeoutMs.
LdapTarget shortTimeouts(LdapTarget t);
// The server's kind and the naming context (root DSE) that holds `dn` (else the first one), and `dn` itself.
ProbeError identify(LdapSession& s, const QString& dn, Identity* out);
ProbeError read(LdapSession& s, const Identity& id, Role role, ServerState* out);
// The 389-ds agreements of the suffix (none from other servers).
QList<Agreement> readAgreements(LdapSession& s, const QString& suffix, ProbeError* error);

// Consumers the supplier's agreements point at (389-ds) that are not among `named`: each a copy of `like` with the
// agreement's URI (and StartTLS when the agreement uses it). Empty for servers that have no agreements to read.
ProbeError discover(const LdapTarget& supplier, const QString& markerDn, const QList<LdapTarget>& named,
    const LdapTarget& like, QList<LdapTarget>* found);

} // namespace ReplicationVendor
