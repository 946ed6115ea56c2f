#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldaptarget.h"
#include "core/sandbox/sandboxinfo.h"

#include <QByteArray>
#include <QString>

#include <optional>

class LdapSession;
class RunContext;

// The server's worker threads as an experiment's axis (guide Table 2 "vs nsslapd-threadnumber"): 389-ds only,
// an admin bind (cn=config). ServerThreads reads the setting first, sets each point's value, and puts the original
// back when it is destroyed — after a failure or a cancel too — over a connection of its own. A value is applied
// where the server takes it online (cn=monitor "threads" follows) or, on a DirBench 389-ds sandbox, by restarting
// it; otherwise the point records what the server really ran and a warning.
class ServerThreads
{
public:
    ServerThreads(const LdapTarget& target, std::optional<SandboxInfo> sandbox);
    ~ServerThreads();
    ServerThreads(const ServerThreads&) = delete;
    ServerThreads& operator=(const ServerThreads&) = delete;

    // Reads nsslapd-threadnumber over s; false with *error when the server is not 389-ds or the bind may not.
    bool begin(LdapSession& s, ProbeError* error);
    QByteArray original() const { return m_original; }
    // Sets n and makes it take effect; returns the threads the server runs (cn=monitor "threads"), or -1.
    // *how says "online" or "restart"; the session is reopened after a restart.
    int apply(LdapSession& s, int n, QString* how, ProbeError* error, RunContext* ctx);
    // Puts the original value back now; a sentence when it could not (the destructor's work, for the record).
    QString restore();

    static int runningThreads(LdapSession& s); // cn=monitor "threads"; -1 when not readable

private:
    LdapTarget m_target;
    std::optional<SandboxInfo> m_sandbox;
    QByteArray m_original;
    bool m_pending = false;
};
