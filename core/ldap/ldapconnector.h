#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/ldaptarget.h"

#include <atomic>
#include <thread>

// A connection being made (connect, TLS, bind) on a thread of its own, so that the event loop that asked for it
// never blocks on a slow server: the load generator's reconnects and every connection a replay opens. The loop
// checks done() on its rounds and, once it is set, takes the session (or the error) with take().
class LdapConnector
{
public:
    // tls: a context shared with the caller's other connections (may be null); it outlives the connector.
    explicit LdapConnector(const LdapTarget& target, LdapTlsContext* tls = nullptr);
    ~LdapConnector(); // joins the thread: bounded by the target's network and operation timeouts
    LdapConnector(const LdapConnector&) = delete;
    LdapConnector& operator=(const LdapConnector&) = delete;

    bool done() const { return m_done.load(std::memory_order_acquire); }
    // After done(): the error, or none and the open session moved into `session`.
    ProbeError take(LdapSession& session);

private:
    LdapSession m_session;
    ProbeError m_error;
    std::atomic<bool> m_done { false };
    std::thread m_thread;
};
