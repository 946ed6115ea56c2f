#pragma once

#include "core/common/proberror.h"
#include "core/sandbox/sandboxinfo.h"

#include <QString>

#include <optional>

class RunContext;

// What to start: Ds389Sandbox::start() takes this by value.
struct Ds389Options
{
    int entries = 10000; // uid=user0 .. uid=user{entries-1},ou=people,dc=example,dc=com (LdifGenerator's data)
    int port = 0; // ldap:// port on 127.0.0.1; 0 = a free one
    QString parentDir; // where the sandbox directory is created; empty = QDir::tempPath()
    // > 0: entry cache autosize off and nsslapd-cachememsize fixed to this many bytes from the first start;
    // 0: 389-ds autosizes its caches (about 25 % of RAM).
    qint64 cacheMemBytes = 0;
    // 1: a consumer too (a second instance inside the sandbox directory, on its own port), with a replication
    // manager, the supplier's agreement, and a total init from the supplier (SandboxInfo::initSeconds).
    int replicas = 0;
    // Internal, for the consumer of a replicated sandbox: the password of this file instead of a new one (it shares
    // its supplier's), and the consumer's replication entries in its dse.ldif.
    QString passwordFrom;
    bool asConsumer = false;
    // The access log on and unbuffered (accessLogPath): the server's own view of each operation.
    bool accessLog = false;
    qint64 ownerPid = 0; // > 0: the sandbox belongs to this process (the GUI's demo) and is an orphan once it is gone
};

// A private 389 Directory Server (the system's ns-slapd from 389-ds-base) in DIR = PARENT/dirbench-389ds-XXXXXX
// (0700) on a free 127.0.0.1 port, with LdifGenerator's entries plus an ACI on the suffix that lets anyone read
// everything but userPassword. It is made the way dscreate makes an instance before its first start (the
// package's dse.ldif templates), then loaded offline (ns-slapd ldif2db) and started with ns-slapd -D directly:
// no systemd, no lib389/Python, nothing in /etc/dirsrv or /var: every file is under DIR, so other instances on the
// host are never touched. The instance is named after DIR (slapd-dirbench-389ds-XXXXXX), which keeps the
// server's /dev/shm statistics semaphore unique too.
//
// DIR holds slapd-NAME/ (dse.ldif, schema/, the NSS db), db/ (BDB), log/errors (log/access only with accessLog), run/
// (slapd.pid), ldapi (the socket), password (0600: the one generated password of cn=Directory Manager and of every
// uid=userN; never printed or logged) and sandbox.json (SandboxInfo plus "server": "389ds"; no password). The
// server runs as the calling user and outlives the caller until stop(). Every function is synchronous and may block:
// start() for seconds (create + import + start of 10,000 entries: see tst_ds389sandbox), stop() up to 35 s.
class Ds389Sandbox
{
public:
    // Creates, loads and starts a sandbox; nullopt with *error set if anything fails (then nothing is left behind).
    // Error kinds: InvalidSpec (field "entries", "port", "parentDir", "cacheMemBytes"), Io (389-ds-base is missing,
    // or a step failed: detail has the server's own error lines), NoSpace, Permission, Timeout, Cancelled.
    static std::optional<SandboxInfo> start(const Ds389Options& options, ProbeError* error, RunContext* ctx = nullptr);

    // SIGTERM to the sandbox's ns-slapd (only a process whose command line is ns-slapd -D DIR/slapd-NAME), up to
    // 30 s, then SIGKILL; removes its /dev/shm semaphore if a killed server left it, then DIR (only if it looks like
    // a 389 sandbox). False with *error if the process would not die or DIR could not be removed.
    static bool stop(const SandboxInfo& info, ProbeError* error);

    // Stops the 389 sandboxes directly under parent (empty: QDir::tempPath()) whose owner process (ownerPid) is
    // gone: the demo directories of GUIs that were killed. Returns their directories.
    static QStringList stopOrphans(const QString& parent = {});

    // Stops the server and starts it again on the same port (what a cache sweep does between points: settings
    // changed over LDAP are in dse.ldif and apply at startup; the caches start empty). Updates info.pid and
    // sandbox.json. Error kinds: Io, Timeout, Cancelled.
    static bool restart(SandboxInfo& info, ProbeError* error, RunContext* ctx = nullptr);

    // DIR/sandbox.json of a 389 sandbox, running or not.
    static std::optional<SandboxInfo> load(const QString& dir);
    // The pid is alive and is ns-slapd -D DIR/slapd-NAME.
    static bool isRunning(const SandboxInfo& info);
    // The running 389 sandbox in dir (DIR itself, or the newest one directly under it).
    static std::optional<SandboxInfo> findRunning(const QString& dir);
    // The running 389 sandbox that serves this ldap:// URI (found through the ns-slapd processes on the host).
    static std::optional<SandboxInfo> findByUri(const QString& uri);

    // ns-slapd's path, or empty when 389-ds-base is not installed; unavailableReason() says what is missing
    // (empty when a sandbox can be made).
    static QString program();
    static QString unavailableReason();
    // DIR/slapd-NAME, the instance's configuration directory (ns-slapd -D).
    static QString configDir(const QString& dir);
    // DIR/log/access: the access log (written when Ds389Options::accessLog was set).
    static QString accessLogPath(const QString& dir);
};

// Stops a 389 sandbox when it goes out of scope (tests, benchmarks).
class Ds389Guard
{
public:
    explicit Ds389Guard(std::optional<SandboxInfo> info = std::nullopt);
    ~Ds389Guard();
    Ds389Guard(const Ds389Guard&) = delete;
    Ds389Guard& operator=(const Ds389Guard&) = delete;

    bool isValid() const { return m_info.has_value(); }
    explicit operator bool() const { return isValid(); }
    SandboxInfo& info() { return *m_info; }
    const SandboxInfo* operator->() const { return &*m_info; }
    // Stops the current sandbox (if any) now and takes `info`; false if the stop failed.
    bool reset(std::optional<SandboxInfo> info = std::nullopt);

private:
    std::optional<SandboxInfo> m_info;
};
