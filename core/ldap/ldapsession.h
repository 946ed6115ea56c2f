#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldaptarget.h"
#include "core/ldap/socketio.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

#include <memory>
#include <mutex>

// A TLS context (trusted CAs, client certificate, protocol floor) made from a target's settings by the first
// session opened with it, then shared by the next ones (LdapSession::open's `tls`): a connect+bind load does not
// load the CA file and build credentials for every connection. One per target; sessions may open on several threads.
class LdapTlsContext
{
public:
    LdapTlsContext() = default;
    ~LdapTlsContext();
    LdapTlsContext(const LdapTlsContext&) = delete;
    LdapTlsContext& operator=(const LdapTlsContext&) = delete;

private:
    friend class LdapSession;
    void* m_ctx = nullptr; // libldap's (counted) context; this object holds one reference
    std::mutex m_mutex; // sessions opened on several threads at once (LdapConnector) share it: made once
};

// The only code that sees libldap. One session is one LDAP* and one connection; never share one between threads.
// Synchronous calls (open, search, rebind) are for setup, probes and monitors; the send*/collect pair is the hot
// path of the load generator: asynchronous, many requests in flight, no Qt allocation per operation.
class LdapSession
{
public:
    enum Scope
    {
        Base = 0,
        OneLevel = 1,
        Subtree = 2
    };

    struct Timings
    {
        double tcpMs = -1; // TCP connect (measured on a separate socket to the same address)
        double connectMs = -1; // libldap connect, including the TLS handshake for ldaps://
        double tlsMs = -1;
        double bindMs = -1;
    };

    struct Entry
    {
        QString dn;
        QMap<QString, QList<QByteArray>> attributes; // lower-cased names
        QByteArray first(const QString& attr) const;
    };

    // One finished operation, as collect() reports it.
    struct Completion
    {
        int msgid = 0;
        int resultCode = 0;
        int entries = 0; // search entries received
    };
    using CompletionFn = void (*)(void* user, const Completion& c);

    LdapSession();
    ~LdapSession();
    LdapSession(const LdapSession&) = delete;
    LdapSession& operator=(const LdapSession&) = delete;
    LdapSession(LdapSession&&) noexcept;
    LdapSession& operator=(LdapSession&&) noexcept;

    // Connect (+StartTLS) and bind as the target says. On a refused bind the error's nativeCode is the LDAP
    // result code (49 for a wrong password).
    ProbeError open(const LdapTarget& target, Timings* timings = nullptr, LdapTlsContext* tls = nullptr);
    void close();
    bool isOpen() const;

    ProbeError rebind(const QString& dn, const QByteArray& password);
    // Synchronous add (setup, not load): the entry with these attributes and values.
    using Attribute = QPair<QString, QList<QByteArray>>;
    ProbeError add(const QString& dn, const QList<Attribute>& attrs, int timeoutMs = -1);
    ProbeError remove(const QString& dn, int timeoutMs = -1); // synchronous delete
    // Synchronous modify that replaces every value of attr with `values` (none: the attribute is removed). For
    // configuration changes (389-ds cn=config), not for load.
    ProbeError modifyReplace(
        const QString& dn, const QString& attr, const QList<QByteArray>& values, int timeoutMs = -1);
    ProbeError search(const QString& base, Scope scope, const QString& filter, const QStringList& attrs,
        QList<Entry>* out, int sizeLimit = 0, int timeoutMs = -1);

    // TLS facts of the open connection (empty when not TLS).
    QString tlsProtocol() const;
    QString tlsCipher() const;
    QByteArray peerCertificateDer() const;

    // Hot path. Each returns an LDAP result code (0 = sent) and sets *msgid.
    int fd() const;
    int sendSearch(const char* base, int scope, const char* filter, char** attrs, int sizeLimit, int* msgid);
    int sendCompare(const char* dn, const char* attr, const char* value, int valueLen, int* msgid);
    int sendModifyReplace(const char* dn, const char* attr, const char* value, int valueLen, int* msgid);
    int sendAddPerson(const char* dn, const char* uid, int* msgid);
    int sendDelete(const char* dn, int* msgid);
    int sendSimpleBind(const char* dn, const QByteArray& password, int* msgid);
    void abandon(int msgid);
    // Reads every complete response already available, without waiting, and reports each finished operation.
    // Returns how many finished, or -1 when the connection is gone (then the session must be reopened).
    int collect(CompletionFn fn, void* user);

    // Batched I/O for the load generator (after open()): a socket layer of our own under libldap (over TCP, below
    // TLS) reads ahead — one recv() for many responses instead of about four per search — and holds what
    // send*() write until SocketIo::flush() sends the batch with one send(); other calls write at once.
    // collect() then reads only while SocketIo::dataReady() (bytes buffered, or markReadable() since the last
    // short read), so it never poll()s. Returns the connection's SocketIo (nullptr when it cannot be set up).
    SocketIo* enableBatchedIo();

    static QString resultText(int code);
    // The libldap this process runs with, as it reports itself: "OpenLDAP 2.5.13".
    static QString libraryVersion();
    // True when `dn` is a DN in the LDAPv3 string form (RFC 4514), as libldap parses it; "" (the root) is one.
    static bool isDn(const QString& dn);

private:
    friend class LdapWatch; // core/ldap/ldapwatch.cpp: a persistent search on this session's connection
    struct Impl;
    std::unique_ptr<Impl> d;
};
