#include "core/sandbox/slapdtopology.h"

#include "core/sandbox/sandboxdir.h"
#include "core/sandbox/slapdtools.h"

#include <QFile>

ProbeError SlapdTopology::makeNodes(const SandboxTopology& topology, const QString& dir, QList<SlapdNode>* nodes)
{
    const int count = topology.kind == SandboxTopology::Kind::Mirror ? 1 : topology.replicas;
    for (int k = 1; k <= count; ++k) {
        SlapdNode node;
        node.dir = dir + QStringLiteral("/replica%1").arg(k);
        if (ProbeError e = SandboxDir::checkSocketPath(node.socketPath(), dir); e.isError())
            return e;
        if (ProbeError e = SandboxDir::makeSubdirs(node.dir, { QStringLiteral("db") }); e.isError())
            return e;
        nodes->append(node);
    }
    return {};
}

ProbeError SlapdTopology::pickPorts(SlapdNode& provider, QList<SlapdNode>& nodes)
{
    ProbeError err;
    const QList<int> ports = SlapdTools::freePorts(int(nodes.size()) + 1, &err);
    if (ports.isEmpty())
        return err;
    int next = 0;
    if (provider.port == 0)
        provider.port = ports[next];
    ++next;
    for (SlapdNode& n : nodes) {
        n.port = ports[next++];
        if (n.port == provider.port) // the given --port was one just picked
            return SandboxDir::ioError(QStringLiteral("port %1 is wanted twice; try again").arg(n.port));
    }
    return {};
}

void SlapdTopology::configure(
    const SandboxTopology& topology, SlapdNode& provider, QList<SlapdNode>& nodes, const QByteArray& password)
{
    const bool mirror = topology.kind == SandboxTopology::Kind::Mirror;
    provider.params.syncprov = true;
    if (mirror) {
        provider.params.serverId = 1;
        provider.params.multiProvider = true;
        provider.params.syncreplProviders = { nodes.constFirst().uri() };
        provider.params.replicationPassword = password;
    }
    for (int k = 0; k < nodes.size(); ++k) {
        SlapdConfig::Params& p = nodes[k].params;
        p = provider.params;
        p.dir = nodes[k].dir;
        p.dbDir = nodes[k].dir + QStringLiteral("/db");
        p.syncprov = true; // consumers too: DirBench can watch them with RFC 4533 sync
        p.syncreplProviders = { provider.uri() };
        p.replicationPassword = password;
        p.serverId = mirror ? k + 2 : 0;
        p.multiProvider = mirror;
    }
}

QStringList SlapdTopology::slapaddArgs(const SandboxTopology& topology)
{
    if (topology.kind == SandboxTopology::Kind::Mirror)
        return { QStringLiteral("-w"), QStringLiteral("-S"), QStringLiteral("1") };
    return { QStringLiteral("-w") };
}

ProbeError SlapdTopology::copyData(const SlapdNode& provider, const QList<SlapdNode>& nodes)
{
    const QString from = provider.params.dbDir + QStringLiteral("/data.mdb");
    for (const SlapdNode& n : nodes) {
        const QString to = n.params.dbDir + QStringLiteral("/data.mdb");
        if (!QFile::copy(from, to))
            return SandboxDir::ioError(QStringLiteral("cannot copy %1 to %2").arg(from, to));
    }
    return {};
}

ProbeError SlapdTopology::start(QList<SlapdNode>& nodes, const SandboxTopology& topology, const QString& slapd,
    RunContext* ctx, QList<SandboxServer>* servers)
{
    const bool mirror = topology.kind == SandboxTopology::Kind::Mirror;
    for (SlapdNode& n : nodes) {
        bool portTaken = false;
        ProbeError e = SlapdSteps::launch(n, slapd, ctx, &portTaken);
        if (!e.isError())
            e = SlapdSteps::waitReady(n, ctx);
        if (e.isError())
            return e;
        SandboxServer s;
        s.role = mirror ? QStringLiteral("provider") : QStringLiteral("consumer");
        s.uri = n.uri();
        s.ldapiUri = SlapdConfig::ldapiUri(n.socketPath());
        s.dir = n.dir;
        s.pid = n.pid;
        s.serverId = n.params.serverId;
        servers->append(s);
    }
    return {};
}
