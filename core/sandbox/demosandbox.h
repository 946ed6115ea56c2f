#pragma once

#include "core/common/proberror.h"
#include "core/sandbox/sandboxinfo.h"

#include <QString>
#include <QStringList>

#include <optional>

class RunContext;

// The demo directory of either server, for what starts and stops one without caring which: OpenLDAP's slapd
// (SlapdSandbox: TLS, up to 8 replicas or a mirror pair) or the 389 Directory Server (Ds389Sandbox: one server, or
// a supplier with one consumer; no TLS). A sandbox says which it is (SandboxInfo::server).
namespace DemoSandbox {

enum class Server
{
    OpenLdap,
    Ds389
};

// Why this server's sandbox cannot be made here (its programs are not installed), or empty.
QString unavailableReason(Server server);
// What the 389 sandbox cannot do of these options, as a refusal naming the field (tls, ppolicyLockout,
// topology, extraListenUris), or no error; nothing to refuse for OpenLDAP.
ProbeError refusal(const SandboxOptions& options, Server server);
// Starts the sandbox (Ds389Sandbox takes entries, port, parentDir, one replica, accessLog, ownerPid); nullopt with
// *error set when it cannot (refusal() first).
std::optional<SandboxInfo> start(const SandboxOptions& options, Server server, ProbeError* error, RunContext* ctx);
// Stops it with its own server's stop().
bool stop(const SandboxInfo& info, ProbeError* error);
// Both servers' orphans under parent (empty: QDir::tempPath()): the demo directories of GUIs that are gone.
QStringList stopOrphans(const QString& parent = {});
// The sandbox's access log (slapd's stats log, or 389's access log): there only when it was started with one.
QString accessLogPath(const SandboxInfo& info);

} // namespace DemoSandbox
