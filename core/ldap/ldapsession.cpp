#include "core/ldap/ldapsession.h"

#include "core/ldap/ldapsession_p.h"

#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <utility>

using LdapSessionDetail::awaitWriteResult;
using LdapSessionDetail::ldapError;

namespace {

constexpr const char* kSystemCaBundle = "/etc/ssl/certs/ca-certificates.crt";

} // namespace

ProbeError LdapSessionDetail::ldapError(int code, const QString& what, LDAP* ld)
{
    ProbeError e;
    e.kind = code == LDAP_TIMEOUT ? ProbeError::Kind::Timeout : ProbeError::Kind::Ldap;
    e.nativeCode = code;
    QString detail = what + QStringLiteral(": ") + QString::fromUtf8(ldap_err2string(code)) + QStringLiteral(" (")
        + QString::number(code) + u')';
    if (ld) {
        char* diag = nullptr;
        if (ldap_get_option(ld, LDAP_OPT_DIAGNOSTIC_MESSAGE, &diag) == LDAP_OPT_SUCCESS && diag) {
            if (*diag)
                detail += QStringLiteral(": ") + QString::fromUtf8(diag);
            ldap_memfree(diag);
        }
    }
    e.detail = detail;
    return e;
}

namespace {

QString stringOption(LDAP* ld, int option)
{
    char* v = nullptr;
    if (!ld || ldap_get_option(ld, option, &v) != LDAP_OPT_SUCCESS || !v)
        return {};
    QString s = QString::fromUtf8(v);
    ldap_memfree(v);
    return s;
}

// sharedCtx: a context to use, or where to keep a reference to the new one (null: no sharing).
int setTlsOptions(LDAP* ld, const LdapTarget& t, void** sharedCtx)
{
    const int req = t.insecure ? LDAP_OPT_X_TLS_NEVER : LDAP_OPT_X_TLS_DEMAND;
    ldap_set_option(ld, LDAP_OPT_X_TLS_REQUIRE_CERT, &req);
    const QByteArray ca = t.caFile.isEmpty() ? QByteArray(kSystemCaBundle) : QFile::encodeName(t.caFile);
    ldap_set_option(ld, LDAP_OPT_X_TLS_CACERTFILE, ca.constData());
    ldap_set_option(ld, LDAP_OPT_X_TLS_CACERTDIR, nullptr);
    const QByteArray cert = QFile::encodeName(t.certFile), key = QFile::encodeName(t.keyFile);
    ldap_set_option(ld, LDAP_OPT_X_TLS_CERTFILE, t.certFile.isEmpty() ? nullptr : cert.constData());
    ldap_set_option(ld, LDAP_OPT_X_TLS_KEYFILE, t.keyFile.isEmpty() ? nullptr : key.constData());
    const int minProto = LDAP_OPT_X_TLS_PROTOCOL_TLS1_2;
    ldap_set_option(ld, LDAP_OPT_X_TLS_PROTOCOL_MIN, &minProto);
    const int crl = LDAP_OPT_X_TLS_CRL_NONE;
    ldap_set_option(ld, LDAP_OPT_X_TLS_CRLCHECK, &crl);
    const int san = t.insecure ? LDAP_OPT_X_TLS_NEVER : LDAP_OPT_X_TLS_DEMAND;
    ldap_set_option(ld, LDAP_OPT_X_TLS_REQUIRE_SAN, &san);
    if (sharedCtx && *sharedCtx) // made by an earlier session from the same settings
        return ldap_set_option(ld, LDAP_OPT_X_TLS_CTX, *sharedCtx);
    const int server = 0;
    const int rc = ldap_set_option(ld, LDAP_OPT_X_TLS_NEWCTX, &server);
    if (rc == LDAP_OPT_SUCCESS && sharedCtx)
        ldap_get_option(ld, LDAP_OPT_X_TLS_CTX, sharedCtx); // one more reference, the LdapTlsContext's
    return rc;
}

// libldap says why a TLS handshake failed ("TLS: peer cert untrusted or revoked (0x42)") only in its trace log; the
// result is "Can't contact LDAP server" with a diagnostic of "(unknown error code)". After a failed TLS connect the
// handshake is tried once more with the trace on (process-wide, so one at a time, and only then) and its "TLS:"
// lines caught on this thread; every other line goes to stderr as libldap's own printer would.
thread_local bool t_catching = false;
thread_local QString t_tlsLog;

void printLibldapLog(const char* line)
{
    if (!t_catching) {
        std::fputs(line, stderr);
        return;
    }
    const QString text = QString::fromUtf8(line).trimmed();
    if (text.startsWith(QLatin1String("TLS:")) && !text.startsWith(QLatin1String("TLS: can't connect")))
        t_tlsLog = text;
}

QString tlsReason(const LdapTarget& t)
{
    static std::mutex one;
    static std::once_flag printer;
    const std::lock_guard lock(one);
    std::call_once(printer,
        [] { ber_set_option(nullptr, LBER_OPT_LOG_PRINT_FN, reinterpret_cast<const void*>(&printLibldapLog)); });
    LDAP* ld = nullptr;
    if (ldap_initialize(&ld, t.uri.toUtf8().constData()) != LDAP_SUCCESS)
        return {};
    const int v3 = LDAP_VERSION3;
    ldap_set_option(ld, LDAP_OPT_PROTOCOL_VERSION, &v3);
    timeval net { t.networkTimeoutMs / 1000, (t.networkTimeoutMs % 1000) * 1000 };
    ldap_set_option(ld, LDAP_OPT_NETWORK_TIMEOUT, &net);
    int before = 0;
    ldap_get_option(nullptr, LDAP_OPT_DEBUG_LEVEL, &before);
    const int trace = before | 1; // LDAP_DEBUG_TRACE (ldap_log.h)
    t_catching = true;
    t_tlsLog.clear();
    ldap_set_option(nullptr, LDAP_OPT_DEBUG_LEVEL, &trace);
    if (setTlsOptions(ld, t, nullptr) == LDAP_OPT_SUCCESS) {
        if (ldap_connect(ld) == LDAP_SUCCESS && t.startTls)
            ldap_start_tls_s(ld, nullptr, nullptr);
    }
    ldap_set_option(nullptr, LDAP_OPT_DEBUG_LEVEL, &before);
    t_catching = false;
    ldap_unbind_ext(ld, nullptr, nullptr);
    return std::exchange(t_tlsLog, QString());
}

QString diagnostic(LDAP* ld)
{
    char* diag = nullptr;
    if (ldap_get_option(ld, LDAP_OPT_DIAGNOSTIC_MESSAGE, &diag) != LDAP_OPT_SUCCESS || !diag)
        return {};
    QString text = QString::fromUtf8(diag);
    ldap_memfree(diag);
    return text;
}

// The cause of a failed TLS connect in words, and what to do: as it was when libldap gives no reason.
ProbeError tlsFailure(ProbeError e, const LdapTarget& t)
{
    const QString log = tlsReason(t);
    if (log.isEmpty())
        return e;
    const QString raw = e.detail;
    if (log.contains(QLatin1String("untrusted"), Qt::CaseInsensitive))
        e.detail
            = QStringLiteral("cannot connect to %1: the server's certificate is not trusted (libldap: %2). Give %3 "
                             "with the certificate of the CA that signed it (PEM), or choose %4 if you know "
                             "the server [%5]")
                  .arg(t.uri, log, ProbeError::ref(QStringLiteral("ca-file")),
                      ProbeError::ref(QStringLiteral("insecure")), raw);
    else if (log.contains(QLatin1String("does not match"), Qt::CaseInsensitive))
        e.detail = QStringLiteral("cannot connect to %1: the name in the server's certificate is not the one in the "
                                  "URI (libldap: %2). Connect by the name the certificate carries in %3 [%4]")
                       .arg(t.uri, log, ProbeError::ref(QStringLiteral("uri")), raw);
    else
        e.detail = QStringLiteral("%1 (libldap: %2)").arg(raw, log);
    e.cause = QStringLiteral("tls");
    return e;
}

// LdapSession's Sockbuf_IO layer, between TLS (if any) and TCP: liblber's calls, passed on to SocketIo.
SocketIo* io(Sockbuf_IO_Desc* sbiod)
{
    return static_cast<SocketIo*>(sbiod->sbiod_pvt);
}
} // namespace

LdapSession::Entry LdapSessionDetail::entryFrom(LDAP* ld, LDAPMessage* e)
{
    LdapSession::Entry entry;
    char* dn = ldap_get_dn(ld, e);
    entry.dn = QString::fromUtf8(dn ? dn : "");
    ldap_memfree(dn);
    BerElement* ber = nullptr;
    for (char* a = ldap_first_attribute(ld, e, &ber); a; a = ldap_next_attribute(ld, e, ber)) {
        berval** vals = ldap_get_values_len(ld, e, a);
        QList<QByteArray>& list = entry.attributes[QString::fromUtf8(a).toLower()];
        for (int i = 0; vals && vals[i]; ++i)
            list.append(QByteArray(vals[i]->bv_val, qsizetype(vals[i]->bv_len)));
        ldap_value_free_len(vals);
        ldap_memfree(a);
    }
    if (ber)
        ber_free(ber, 0);
    return entry;
}

ProbeError LdapSessionDetail::awaitWriteResult(LDAP* ld, int msgid, int timeoutMs, const QString& what)
{
    timeval tv { timeoutMs / 1000, (timeoutMs % 1000) * 1000 };
    LDAPMessage* res = nullptr;
    if (ldap_result(ld, msgid, LDAP_MSG_ALL, &tv, &res) <= 0) {
        ldap_abandon_ext(ld, msgid, nullptr, nullptr);
        return ldapError(LDAP_TIMEOUT, what, ld);
    }
    int rc = LDAP_SUCCESS;
    ldap_parse_result(ld, res, &rc, nullptr, nullptr, nullptr, nullptr, 1);
    if (rc != LDAP_SUCCESS)
        return ldapError(rc, what, ld);
    return {};
}

Sockbuf_IO LdapSessionDetail::kBatchIo = {
    [](Sockbuf_IO_Desc* sbiod, void* arg) { return sbiod->sbiod_pvt = arg, 0; }, // setup
    [](Sockbuf_IO_Desc* sbiod) { return sbiod->sbiod_pvt = nullptr, 0; }, // remove
    [](Sockbuf_IO_Desc* sbiod, int opt, void* arg) { // ctrl
        return opt == LBER_SB_OPT_DATA_READY && io(sbiod)->dataReady() ? 1 : LBER_SBIOD_CTRL_NEXT(sbiod, opt, arg);
    },
    [](Sockbuf_IO_Desc* sbiod, void* buf, ber_len_t len) -> ber_slen_t { return io(sbiod)->read(buf, len); },
    [](Sockbuf_IO_Desc* sbiod, void* buf, ber_len_t len) -> ber_slen_t { return io(sbiod)->write(buf, len); },
    [](Sockbuf_IO_Desc* sbiod) { return io(sbiod)->detach(), 0; }, // close: the TCP layer below closes the socket
};

// libldap's own release of a context reference (exported, not in <ldap.h>; the counterpart of the reference
// ldap_get_option(LDAP_OPT_X_TLS_CTX) takes).
extern "C" void ldap_pvt_tls_ctx_free(void* ctx);

LdapTlsContext::~LdapTlsContext()
{
    if (m_ctx)
        ldap_pvt_tls_ctx_free(m_ctx);
}

QByteArray LdapSession::Entry::first(const QString& attr) const
{
    const auto v = attributes.value(attr.toLower());
    return v.isEmpty() ? QByteArray() : v.first();
}

LdapSession::LdapSession()
    : d(std::make_unique<Impl>())
{ }
LdapSession::~LdapSession() = default;
LdapSession::LdapSession(LdapSession&&) noexcept = default;
LdapSession& LdapSession::operator=(LdapSession&&) noexcept = default;

bool LdapSession::isOpen() const
{
    return d && d->ld;
}

void LdapSession::close()
{
    if (d->ld) {
        ldap_unbind_ext_s(d->ld, nullptr, nullptr);
        d->ld = nullptr;
    }
    d->sb = nullptr;
    d->batched = false;
    d->io.detach();
}

ProbeError LdapSession::open(const LdapTarget& t, Timings* timings, LdapTlsContext* tls)
{
    close();
    d->opTimeoutMs = t.opTimeoutMs;
    if (timings && t.auth != LdapTarget::Auth::SaslExternal) {
        // The best of three: a busy machine must not make the TCP part look longer than the whole connect.
        timings->tcpMs = SocketIo::tcpConnectMs(t.uri, t.networkTimeoutMs);
        for (int i = 0; i < 2 && timings->tcpMs >= 0; ++i) {
            const double again = SocketIo::tcpConnectMs(t.uri, t.networkTimeoutMs);
            if (again >= 0)
                timings->tcpMs = std::min(timings->tcpMs, again);
        }
    }

    LDAP* ld = nullptr;
    int rc = ldap_initialize(&ld, t.uri.toUtf8().constData());
    if (rc != LDAP_SUCCESS)
        return ldapError(rc, QStringLiteral("cannot use URI ") + t.uri);
    d->ld = ld;
    const int v3 = LDAP_VERSION3;
    ldap_set_option(ld, LDAP_OPT_PROTOCOL_VERSION, &v3);
    ldap_set_option(ld, LDAP_OPT_REFERRALS, LDAP_OPT_OFF);
    ldap_set_option(ld, LDAP_OPT_RESTART, LDAP_OPT_ON);
    timeval net { t.networkTimeoutMs / 1000, (t.networkTimeoutMs % 1000) * 1000 };
    ldap_set_option(ld, LDAP_OPT_NETWORK_TIMEOUT, &net);
    timeval op { t.opTimeoutMs / 1000, (t.opTimeoutMs % 1000) * 1000 };
    ldap_set_option(ld, LDAP_OPT_TIMEOUT, &op);

    // Every TLS option on the handle, then a new context: ldap.conf, ~/.ldaprc and LDAPTLS_* cannot weaken it.
    // A plain connection never starts TLS (no StartTLS, referrals off): no context, whose CA bundle costs
    // milliseconds to load, for each connection of a connect+bind load.
    if (t.isTls()) {
        std::unique_lock<std::mutex> shared;
        if (tls)
            shared = std::unique_lock(tls->m_mutex);
        if ((rc = setTlsOptions(ld, t, tls ? &tls->m_ctx : nullptr)) != LDAP_OPT_SUCCESS)
            return ldapError(LDAP_LOCAL_ERROR, QStringLiteral("cannot set up TLS (certificate or key files?)"), ld);
    }
    d->connectWaitMs = t.networkTimeoutMs;
    if (t.isTls())
        ldap_set_option(ld, LDAP_OPT_CONNECT_CB, &d->onConnect);

    if (!t.sourceAddresses.isEmpty()) { // round robin over the whole process, one address per connection
        static std::atomic<unsigned> next { 0 };
        const QByteArray addr = t.sourceAddresses.at(qsizetype(next++ % unsigned(t.sourceAddresses.size()))).toLatin1();
        ldap_set_option(ld, LDAP_OPT_SOCKET_BIND_ADDRESSES, addr.constData());
    }
    QElapsedTimer timer;
    timer.start();
    rc = ldap_connect(ld);
    if (rc != LDAP_SUCCESS) {
        const ProbeError e = ldapError(rc, QStringLiteral("cannot connect to ") + t.uri, ld);
        // A handshake refused leaves libldap's TLS message ("(unknown error code)"); a server not reached, none.
        return t.isTls() && rc == LDAP_SERVER_DOWN && !t.insecure && !diagnostic(ld).isEmpty() ? tlsFailure(e, t) : e;
    }
    if (timings) {
        timings->connectMs = double(timer.nsecsElapsed()) / 1e6;
        if (t.uri.startsWith(QLatin1String("ldaps"), Qt::CaseInsensitive) && timings->tcpMs >= 0)
            timings->tlsMs = std::max(0.0, timings->connectMs - timings->tcpMs);
    }
    if (t.startTls) {
        timer.restart();
        rc = ldap_start_tls_s(ld, nullptr, nullptr);
        if (rc != LDAP_SUCCESS)
            return tlsFailure(
                ldapError(rc, QStringLiteral("StartTLS with ") + t.uri + QStringLiteral(" failed"), ld), t);
        if (timings)
            timings->tlsMs = double(timer.nsecsElapsed()) / 1e6;
    }

    timer.restart();
    switch (t.auth) {
    case LdapTarget::Auth::Anonymous:
        break;
    case LdapTarget::Auth::Simple: {
        berval cred { ber_len_t(t.password.size()), const_cast<char*>(t.password.constData()) };
        rc = ldap_sasl_bind_s(ld, t.bindDn.toUtf8().constData(), LDAP_SASL_SIMPLE, &cred, nullptr, nullptr, nullptr);
        if (rc != LDAP_SUCCESS)
            return ldapError(rc, QStringLiteral("bind as ") + t.bindDn + QStringLiteral(" refused"), ld);
        break;
    }
    case LdapTarget::Auth::SaslExternal: {
        berval empty { 0, nullptr };
        rc = ldap_sasl_bind_s(ld, nullptr, "EXTERNAL", &empty, nullptr, nullptr, nullptr);
        if (rc != LDAP_SUCCESS)
            return ldapError(rc, QStringLiteral("SASL EXTERNAL bind refused"), ld);
        break;
    }
    }
    if (timings && t.auth != LdapTarget::Auth::Anonymous)
        timings->bindMs = double(timer.nsecsElapsed()) / 1e6;
    d->io.setWaitMs(t.opTimeoutMs); // synchronous use blocks as long as an operation may take
    return {};
}

ProbeError LdapSession::rebind(const QString& dn, const QByteArray& password)
{
    if (!d->ld)
        return ldapError(LDAP_SERVER_DOWN, QStringLiteral("not connected"));
    berval cred { ber_len_t(password.size()), const_cast<char*>(password.constData()) };
    const int rc = ldap_sasl_bind_s(d->ld, dn.toUtf8().constData(), LDAP_SASL_SIMPLE, &cred, nullptr, nullptr, nullptr);
    if (rc != LDAP_SUCCESS)
        return ldapError(rc, QStringLiteral("bind as ") + dn + QStringLiteral(" refused"), d->ld);
    return {};
}

ProbeError LdapSession::remove(const QString& dn, int timeoutMs)
{
    if (!d->ld)
        return ldapError(LDAP_SERVER_DOWN, QStringLiteral("not connected"));
    int msgid = 0;
    int rc = ldap_delete_ext(d->ld, dn.toUtf8().constData(), nullptr, nullptr, &msgid);
    if (rc != LDAP_SUCCESS)
        return ldapError(rc, QStringLiteral("delete of ") + dn, d->ld);
    const int ms = timeoutMs > 0 ? timeoutMs : d->opTimeoutMs;
    timeval tv { ms / 1000, (ms % 1000) * 1000 };
    LDAPMessage* res = nullptr;
    if (ldap_result(d->ld, msgid, LDAP_MSG_ALL, &tv, &res) <= 0) {
        ldap_abandon_ext(d->ld, msgid, nullptr, nullptr);
        return ldapError(LDAP_TIMEOUT, QStringLiteral("delete of ") + dn, d->ld);
    }
    ldap_parse_result(d->ld, res, &rc, nullptr, nullptr, nullptr, nullptr, 1);
    if (rc != LDAP_SUCCESS)
        return ldapError(rc, QStringLiteral("delete of ") + dn, d->ld);
    return {};
}

ProbeError LdapSession::modifyReplace(
    const QString& dn, const QString& attr, const QList<QByteArray>& values, int timeoutMs)
{
    if (!d->ld)
        return ldapError(LDAP_SERVER_DOWN, QStringLiteral("not connected"));
    const QByteArray dnBytes = dn.toUtf8();
    QByteArray attrBytes = attr.toUtf8();
    std::vector<berval> vals(size_t(values.size()));
    std::vector<berval*> valPtrs;
    for (qsizetype i = 0; i < values.size(); ++i) {
        vals[size_t(i)].bv_val = const_cast<char*>(values[i].constData());
        vals[size_t(i)].bv_len = ber_len_t(values[i].size());
        valPtrs.push_back(&vals[size_t(i)]);
    }
    valPtrs.push_back(nullptr);
    LDAPMod mod {};
    mod.mod_op = LDAP_MOD_REPLACE | LDAP_MOD_BVALUES;
    mod.mod_type = attrBytes.data();
    mod.mod_bvalues = valPtrs.data();
    LDAPMod* mods[] = { &mod, nullptr };
    const QString what = QStringLiteral("modify of ") + attr + QStringLiteral(" in ") + dn;
    int msgid = 0;
    int rc = ldap_modify_ext(d->ld, dnBytes.constData(), mods, nullptr, nullptr, &msgid);
    if (rc != LDAP_SUCCESS)
        return ldapError(rc, what, d->ld);
    return awaitWriteResult(d->ld, msgid, timeoutMs > 0 ? timeoutMs : d->opTimeoutMs, what);
}

ProbeError LdapSession::search(const QString& base, Scope scope, const QString& filter, const QStringList& attrs,
    QList<Entry>* out, int sizeLimit, int timeoutMs)
{
    if (!d->ld)
        return ldapError(LDAP_SERVER_DOWN, QStringLiteral("not connected"));
    QList<QByteArray> attrBytes;
    std::vector<char*> attrPtrs;
    for (const auto& a : attrs) {
        attrBytes.append(a.toUtf8());
        attrPtrs.push_back(attrBytes.last().data());
    }
    attrPtrs.push_back(nullptr);
    const int ms = timeoutMs > 0 ? timeoutMs : d->opTimeoutMs;
    timeval tv { ms / 1000, (ms % 1000) * 1000 };
    LDAPMessage* res = nullptr;
    const int rc = ldap_search_ext_s(d->ld, base.toUtf8().constData(), int(scope), filter.toUtf8().constData(),
        attrs.isEmpty() ? nullptr : attrPtrs.data(), 0, nullptr, nullptr, &tv, sizeLimit, &res);
    if (rc != LDAP_SUCCESS && rc != LDAP_SIZELIMIT_EXCEEDED) {
        if (res)
            ldap_msgfree(res);
        return ldapError(rc,
            QStringLiteral("search of ") + (base.isEmpty() ? QStringLiteral("the root DSE") : base)
                + QStringLiteral(" failed"),
            d->ld);
    }
    if (out)
        for (LDAPMessage* e = ldap_first_entry(d->ld, res); e; e = ldap_next_entry(d->ld, e))
            out->append(LdapSessionDetail::entryFrom(d->ld, e));
    ldap_msgfree(res);
    return {};
}

QString LdapSession::tlsProtocol() const
{
    return stringOption(d->ld, LDAP_OPT_X_TLS_VERSION);
}

QString LdapSession::tlsCipher() const
{
    return stringOption(d->ld, LDAP_OPT_X_TLS_CIPHER);
}

QByteArray LdapSession::peerCertificateDer() const
{
    berval bv { 0, nullptr };
    if (!d->ld || ldap_get_option(d->ld, LDAP_OPT_X_TLS_PEERCERT, &bv) != LDAP_OPT_SUCCESS || !bv.bv_val)
        return {};
    QByteArray der(bv.bv_val, qsizetype(bv.bv_len));
    ber_memfree(bv.bv_val);
    return der;
}

bool LdapSession::isDn(const QString& dn)
{
    LDAPDN parsed = nullptr;
    const QByteArray utf8 = dn.toUtf8();
    const int rc = ldap_str2dn(utf8.constData(), &parsed, LDAP_DN_FORMAT_LDAPV3);
    if (parsed)
        ldap_dnfree(parsed);
    return rc == LDAP_SUCCESS;
}

QString LdapSession::resultText(int code)
{
    return QString::fromUtf8(ldap_err2string(code));
}

QString LdapSession::libraryVersion()
{
    LDAPAPIInfo info {};
    info.ldapai_info_version = LDAP_API_INFO_VERSION;
    if (ldap_get_option(nullptr, LDAP_OPT_API_INFO, &info) != LDAP_OPT_SUCCESS)
        return QStringLiteral("unknown");
    const int v = info.ldapai_vendor_version; // 20513 = 2.5.13
    const QString name
        = info.ldapai_vendor_name ? QString::fromUtf8(info.ldapai_vendor_name) : QStringLiteral("libldap");
    ldap_memfree(info.ldapai_vendor_name);
    ldap_memvfree(reinterpret_cast<void**>(info.ldapai_extensions));
    return QStringLiteral("%1 %2.%3.%4").arg(name).arg(v / 10000).arg(v / 100 % 100).arg(v % 100);
}
