#pragma once

// LdapSession's insides, shared by its source files (ldapsession.cpp: connect, bind, synchronous calls, TLS;
// ldapsessionasync.cpp: the hot path; ldapsessionwrite.cpp: add; ldapwatch.cpp: persistent searches). Like them,
// only LdapSession's files and LdapWatch's may include this (it includes libldap).
#include "core/ldap/ldapsession.h"
#include "core/ldap/socketio.h"

#include <lber.h>
#include <ldap.h>

namespace LdapSessionDetail {

// A ProbeError from an LDAP result code, with the server's diagnostic message when ld has one.
ProbeError ldapError(int code, const QString& what, LDAP* ld = nullptr);
// Waits up to timeoutMs for the result of the write msgid (abandoning it on timeout) and turns its code into an
// error named by `what`; nothing when it succeeded.
ProbeError awaitWriteResult(LDAP* ld, int msgid, int timeoutMs, const QString& what);
// The entry of a search result message, attribute names lower-cased.
LdapSession::Entry entryFrom(LDAP* ld, LDAPMessage* e);
// LdapSession's Sockbuf_IO layer, between TLS (if any) and TCP: liblber's calls, passed on to SocketIo.
extern Sockbuf_IO kBatchIo;

} // namespace LdapSessionDetail

struct LdapSession::Impl
{
    LDAP* ld = nullptr;
    int opTimeoutMs = 10000;
    Sockbuf* sb = nullptr; // set while our I/O layer is in place
    bool batched = false; // enableBatchedIo(): writes held until flushed, reads only when marked readable
    SocketIo io; // outlives ld: the layer points to it
    // TLS: the layer goes in as soon as TCP is connected, under the handshake (see SocketIo::setWaitMs).
    ldap_conncb onConnect { &Impl::connected, [](LDAP*, Sockbuf*, ldap_conncb*) {}, this };
    int connectWaitMs = 0;
    ~Impl()
    {
        if (ld)
            ldap_unbind_ext_s(ld, nullptr, nullptr);
    }
    void cork()
    {
        if (batched)
            io.hold();
    }
    bool addLayer(Sockbuf* s, int waitMs)
    {
        ber_socket_t fd = -1;
        if (sb || ber_sockbuf_ctrl(s, LBER_SB_OPT_GET_FD, &fd) != 1 || fd < 0)
            return sb != nullptr;
        io.attach(fd);
        io.setWaitMs(waitMs);
        // Between TCP (PROVIDER) and TLS (TRANSPORT), whichever is added first: TLS records are batched too.
        if (ber_sockbuf_add_io(s, &LdapSessionDetail::kBatchIo, LBER_SBIOD_LEVEL_PROVIDER + 1, &io) != 0) {
            io.detach();
            return false;
        }
        sb = s;
        return true;
    }
    static int connected(LDAP*, Sockbuf* s, LDAPURLDesc*, sockaddr*, ldap_conncb* cb)
    {
        auto* d = static_cast<Impl*>(cb->lc_arg);
        d->addLayer(s, d->connectWaitMs);
        return 0;
    }
};
