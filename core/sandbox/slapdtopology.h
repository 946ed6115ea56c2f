#pragma once

#include "core/common/proberror.h"
#include "core/sandbox/sandboxinfo.h"
#include "core/sandbox/slapdnode.h"

#include <QList>

class RunContext;

// The servers of a replicated slapd sandbox beside its first one (the provider, in DIR): each consumer (or the
// second provider of a mirror) in DIR/replicaK with its own slapd.conf, back-mdb database, ldapi socket and
// 127.0.0.1 port. The provider's database is loaded by slapadd and copied to the others before any starts, so
// they begin in sync (same entryUUIDs and contextCSN) and replicate from then on; provider URIs in syncrepl are
// exactly the other server's -h URI.
namespace SlapdTopology {

// Directories: one node per other server, DIR/replica1.. with db/.
ProbeError makeNodes(const SandboxTopology& topology, const QString& dir, QList<SlapdNode>* nodes);
// Ports: a free one for every node without one (the provider keeps a --port).
ProbeError pickPorts(SlapdNode& provider, QList<SlapdNode>& nodes);
// Configuration: serverID, syncprov and syncrepl on every node, as the topology says; password = the admin's.
void configure(
    const SandboxTopology& topology, SlapdNode& provider, QList<SlapdNode>& nodes, const QByteArray& password);
// slapadd arguments for the provider's data: -w (contextCSN), and -S 1 in a mirror.
QStringList slapaddArgs(const SandboxTopology& topology);
// Data: the provider's back-mdb file copied to every node (both stopped).
ProbeError copyData(const SlapdNode& provider, const QList<SlapdNode>& nodes);
// Process: each node's slapd started and accepting connections; servers filled in.
ProbeError start(QList<SlapdNode>& nodes, const SandboxTopology& topology, const QString& slapd, RunContext* ctx,
    QList<SandboxServer>* servers);

} // namespace SlapdTopology
