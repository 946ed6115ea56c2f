#pragma once

#include "core/common/proberror.h"
#include "core/sandbox/sandboxinfo.h"

#include <QString>

#include <optional>

class RunContext;

// The demo directory: the system's slapd (back-mdb) in a private directory DIR = PARENT/dirbench-sandbox-XXXXXX
// (mode 0700) on free 127.0.0.1 ports, with generated inetOrgPerson entries (LdifGenerator), cn=monitor readable
// by the admin, and optionally LDAPS + StartTLS with a self-signed RSA-2048 certificate (DIR/tls.crt) and the
// ppolicy overlay with a lockout policy (SandboxOptions::ppolicyLockout). The admin can read cn=config.
//
// DIR holds slapd.conf (rootpw as {SSHA} only), db/ (back-mdb), password (0600, the one generated password of the
// admin and of every uid=userN; never printed or logged), sandbox.json (SandboxInfo, no password), slapd.pid and
// the ldapi socket (and slapd-stats.log with SandboxOptions::accessLog). The slapd process is a daemon (with
// accessLog a detached foreground slapd -d stats): it outlives the caller until stop().
//
// start() also writes the path of DIR to currentFile() (unless options.makeCurrent is false) so that
// findRunning("") finds the most recent sandbox. Every function is synchronous and may block: start() for
// seconds to a minute (about 1 s per 10,000 entries here), stop() up to 15 s.
class SlapdSandbox
{
public:
    // Creates, loads and starts a sandbox; returns nullopt with *error set if anything fails (then nothing is
    // left behind: no directory, no process). Error kinds: InvalidSpec (field "entries", "port", "parentDir"),
    // Io (a program is missing, or failed: detail has its output), NoSpace, Permission, Timeout, Cancelled.
    // ctx (optional): phase and progress, and cancel (polled at least every 100 ms).
    static std::optional<SandboxInfo> start(
        const SandboxOptions& options, ProbeError* error, RunContext* ctx = nullptr);

    // SIGTERM to the sandbox's slapd (only if /proc/PID/cmdline is slapd with DIR/slapd.conf), up to 10 s, then
    // SIGKILL; then removes DIR (only if it looks like a sandbox directory) and clears currentFile() if it
    // pointed there. A sandbox whose slapd is already gone is just removed. False with *error if the process
    // would not die or the directory could not be removed.
    static bool stop(const SandboxInfo& info, ProbeError* error);
    // Stops the sandboxes directly under parent (empty: QDir::tempPath()) whose owner process (ownerPid) is gone —
    // a GUI that was killed cannot stop its demo directory, so the next one does. Returns the directories stopped.
    static QStringList stopOrphans(const QString& parent = {});

    // The running sandbox in dirOrEmpty: DIR itself (has sandbox.json), or the newest running sandbox directly
    // under it (a PARENT given to start), or, for an empty argument, the one currentFile() names. nullopt if
    // there is none or its slapd is not running.
    static std::optional<SandboxInfo> findRunning(const QString& dirOrEmpty);
    // DIR/sandbox.json as written, running or not (nullopt if absent or unreadable).
    static std::optional<SandboxInfo> load(const QString& dir);
    // The pid is alive and is slapd with DIR/slapd.conf.
    static bool isRunning(const SandboxInfo& info);

    // $XDG_RUNTIME_DIR/dirbench/sandbox-current, else /tmp/dirbench-UID/sandbox-current.
    static QString currentFile();
    // The sandbox directory currentFile() names (running or not), or empty.
    static QString currentDir();
    // DIR/slapd-stats.log: slapd's `stats` lines (written when SandboxOptions::accessLog was set).
    static QString accessLogPath(const QString& dir);
    // Path of the slapd program, or empty when it is not installed (tests skip then).
    static QString slapdProgram();
};
