#include "core/sandbox/demosandbox.h"

#include "core/sandbox/ds389sandbox.h"
#include "core/sandbox/slapdsandbox.h"

namespace DemoSandbox {

QString unavailableReason(Server server)
{
    if (server == Server::Ds389)
        return Ds389Sandbox::unavailableReason();
    return SlapdSandbox::slapdProgram().isEmpty()
        ? QStringLiteral("OpenLDAP's slapd is not installed (Debian: apt-get install slapd ldap-utils)")
        : QString();
}

ProbeError refusal(const SandboxOptions& o, Server server)
{
    if (server == Server::OpenLdap)
        return {};
    const QString with389 = QStringLiteral(" is not offered by the 389-ds sandbox");
    if (o.tls)
        return ProbeError::invalid(QStringLiteral("tls"), QStringLiteral("TLS") + with389);
    if (o.ppolicyLockout)
        return ProbeError::invalid(QStringLiteral("ppolicyLockout"), QStringLiteral("a lockout policy") + with389);
    if (o.topology.kind == SandboxTopology::Kind::Mirror)
        return ProbeError::invalid(QStringLiteral("topology"), QStringLiteral("a mirror pair") + with389);
    if (o.topology.kind == SandboxTopology::Kind::Replicas && o.topology.replicas > 1)
        return ProbeError::invalid(QStringLiteral("topology"), QStringLiteral("more than one replica") + with389);
    if (!o.extraListenUris.isEmpty())
        return ProbeError::invalid(QStringLiteral("extraListenUris"), QStringLiteral("other addresses") + with389);
    return {};
}

std::optional<SandboxInfo> start(const SandboxOptions& o, Server server, ProbeError* error, RunContext* ctx)
{
    if (server == Server::OpenLdap)
        return SlapdSandbox::start(o, error, ctx);
    if (const ProbeError e = refusal(o, server); e.isError()) {
        *error = e;
        return std::nullopt;
    }
    Ds389Options d;
    d.entries = o.entries;
    d.port = o.port;
    d.parentDir = o.parentDir;
    d.replicas = o.topology.kind == SandboxTopology::Kind::Replicas ? o.topology.replicas : 0;
    d.accessLog = o.accessLog;
    d.ownerPid = o.ownerPid;
    return Ds389Sandbox::start(d, error, ctx);
}

bool stop(const SandboxInfo& info, ProbeError* error)
{
    return info.is389ds() ? Ds389Sandbox::stop(info, error) : SlapdSandbox::stop(info, error);
}

QStringList stopOrphans(const QString& parent)
{
    return SlapdSandbox::stopOrphans(parent) + Ds389Sandbox::stopOrphans(parent);
}

QString accessLogPath(const SandboxInfo& info)
{
    return info.is389ds() ? Ds389Sandbox::accessLogPath(info.dir) : SlapdSandbox::accessLogPath(info.dir);
}

} // namespace DemoSandbox
