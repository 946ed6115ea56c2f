#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldapsession.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// A persistent base-scope search on one entry over an open LdapSession: the server pushes the entry as it is, then
// again after every change. Two ways to ask for it, whichever the server offers (its root DSE's
// supportedControl): RFC 4533 content synchronization in refreshAndPersist mode (OpenLDAP with syncprov,
// 1.3.6.1.4.1.4203.1.9.1.1), or the persistent search control (389-ds, 2.16.840.1.113730.3.4.3, for adds and
// modifies, changesOnly FALSE so the current entry comes first, no entry change notices). Both controls are sent
// critical: a server that does not know them refuses the search instead of answering it once.
class LdapWatch
{
public:
    enum class Mode
    {
        Sync,
        PersistentSearch
    };

    // What the next() call saw.
    enum class Event
    {
        Nothing, // the wait ran out (or only intermediate messages arrived)
        Entries, // entries arrived (in *out)
        Absent, // the search ended with noSuchObject: the entry is not there (yet); start() again later
        Ended, // the search ended otherwise (the error says how); start() again
        Lost // the connection is gone: reopen the session
    };

    static constexpr const char* kSyncOid = "1.3.6.1.4.1.4203.1.9.1.1";
    static constexpr const char* kPersistentSearchOid = "2.16.840.1.113730.3.4.3";

    // Sync when the root DSE offers it, else the persistent search, else nothing; an error when the root DSE
    // cannot be read.
    static ProbeError offered(LdapSession& s, std::optional<Mode>* out);
    static QString modeName(Mode m);

    explicit LdapWatch(LdapSession& s);
    ~LdapWatch();
    LdapWatch(const LdapWatch&) = delete;
    LdapWatch& operator=(const LdapWatch&) = delete;

    // Sends the search (base scope, (objectClass=*), these attributes); an earlier one is abandoned.
    ProbeError start(Mode mode, const QString& dn, const QStringList& attrs);
    // Waits up to timeoutMs for the next messages of the search and returns what they were; *error is set for
    // Ended and Lost.
    Event next(int timeoutMs, QList<LdapSession::Entry>* out, ProbeError* error);
    // Abandons the search (when one is running).
    void cancel();

private:
    Event ended(ProbeError* error);
    LdapSession& m_session;
    int m_msgid = -1;
    int m_endCode = -1; // the search's result code once it came, until next() reported it
};
