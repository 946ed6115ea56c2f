#pragma once

#include "core/common/proberror.h"
#include "core/sandbox/sandboxinfo.h"

class RunContext;

// Replication between two 389-ds sandboxes, configured the way lib389's ReplicationManager does it but without
// lib389: the entries go into each server's dse.ldif while it is stopped (after its import). The consumer gets a
// replication manager (cn=replication manager,cn=config) and a read-only replica (id 65535, type 2); the supplier
// a read-write replica (id 1, type 3, changelog on) and an agreement to 127.0.0.1:consumerPort. Once both run,
// initialise() starts a total init of the consumer (nsds5BeginReplicaRefresh: start) and waits until
// nsds5ReplicaLastInitStatus says it is done.
namespace Ds389Replication {

constexpr int kSupplierId = 1;
constexpr int kConsumerId = 65535;

// LDIF to append to a stopped server's dse.ldif. passwordHash: {SSHA} of the sandbox password (the manager's);
// password: the same in clear, the agreement's credentials (dse.ldif is 0600 inside the sandbox directory).
QByteArray consumerEntries(const QString& suffix, const QByteArray& passwordHash);
QByteArray supplierEntries(const QString& suffix, int consumerPort, const QByteArray& password);
ProbeError appendTo(const QString& dseFile, const QByteArray& entries);

// The total init; *initSeconds from its start until it finished. Error kinds: Ldap, Io (the init's status when
// it failed), Timeout, Cancelled.
ProbeError initialise(const SandboxInfo& supplier, const QByteArray& password, double* initSeconds, RunContext* ctx);

} // namespace Ds389Replication
