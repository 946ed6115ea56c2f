#include "core/ldap/ldapsession.h"

#include <QElapsedTimer>
#include <QFile>
#include <QUrl>

#include <cerrno>
#include <cstring>
#include <lber.h>
#include <ldap.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

constexpr const char* kSystemCaBundle = "/etc/ssl/certs/ca-certificates.crt";

ProbeError ldapError(int code, const QString& what, LDAP* ld = nullptr)
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

// TCP connect time to the URI's host:port on a socket of our own (libldap does not expose it separately).
double tcpConnectMs(const QString& uri, int timeoutMs)
{
    const QUrl url(uri);
    if (url.scheme().compare(QLatin1String("ldapi"), Qt::CaseInsensitive) == 0)
        return -1;
    const int port = url.port(url.scheme().compare(QLatin1String("ldaps"), Qt::CaseInsensitive) == 0 ? 636 : 389);
    addrinfo hints {};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (getaddrinfo(url.host().toUtf8().constData(), QByteArray::number(port).constData(), &hints, &res) != 0 || !res)
        return -1;
    double ms = -1;
    const int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0) {
        timeval tv { timeoutMs / 1000, (timeoutMs % 1000) * 1000 };
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        QElapsedTimer t;
        t.start();
        if (::connect(fd, res->ai_addr, res->ai_addrlen) == 0)
            ms = double(t.nsecsElapsed()) / 1e6;
        ::close(fd);
    }
    freeaddrinfo(res);
    return ms;
}

} // namespace

struct LdapSession::Impl
{
    LDAP* ld = nullptr;
    int opTimeoutMs = 10000;
    ~Impl()
    {
        if (ld)
            ldap_unbind_ext_s(ld, nullptr, nullptr);
    }
};

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
}

ProbeError LdapSession::open(const LdapTarget& t, Timings* timings)
{
    close();
    d->opTimeoutMs = t.opTimeoutMs;
    if (timings && t.auth != LdapTarget::Auth::SaslExternal)
        timings->tcpMs = tcpConnectMs(t.uri, t.networkTimeoutMs);

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
    const int server = 0;
    rc = ldap_set_option(ld, LDAP_OPT_X_TLS_NEWCTX, &server);
    if (rc != LDAP_OPT_SUCCESS && t.isTls())
        return ldapError(LDAP_LOCAL_ERROR, QStringLiteral("cannot set up TLS (certificate or key files?)"), ld);

    QElapsedTimer timer;
    timer.start();
    rc = ldap_connect(ld);
    if (rc != LDAP_SUCCESS)
        return ldapError(rc, QStringLiteral("cannot connect to ") + t.uri, ld);
    if (timings) {
        timings->connectMs = double(timer.nsecsElapsed()) / 1e6;
        if (t.uri.startsWith(QLatin1String("ldaps"), Qt::CaseInsensitive) && timings->tcpMs >= 0)
            timings->tlsMs = std::max(0.0, timings->connectMs - timings->tcpMs);
    }
    if (t.startTls) {
        timer.restart();
        rc = ldap_start_tls_s(ld, nullptr, nullptr);
        if (rc != LDAP_SUCCESS)
            return ldapError(rc, QStringLiteral("StartTLS with ") + t.uri + QStringLiteral(" failed"), ld);
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
    if (out) {
        for (LDAPMessage* e = ldap_first_entry(d->ld, res); e; e = ldap_next_entry(d->ld, e)) {
            Entry entry;
            char* dn = ldap_get_dn(d->ld, e);
            entry.dn = QString::fromUtf8(dn ? dn : "");
            ldap_memfree(dn);
            BerElement* ber = nullptr;
            for (char* a = ldap_first_attribute(d->ld, e, &ber); a; a = ldap_next_attribute(d->ld, e, ber)) {
                berval** vals = ldap_get_values_len(d->ld, e, a);
                QList<QByteArray>& list = entry.attributes[QString::fromUtf8(a).toLower()];
                for (int i = 0; vals && vals[i]; ++i)
                    list.append(QByteArray(vals[i]->bv_val, qsizetype(vals[i]->bv_len)));
                ldap_value_free_len(vals);
                ldap_memfree(a);
            }
            if (ber)
                ber_free(ber, 0);
            out->append(std::move(entry));
        }
    }
    ldap_msgfree(res);
    return {};
}

QString LdapSession::tlsProtocol() const
{
    char* v = nullptr;
    if (!d->ld || ldap_get_option(d->ld, LDAP_OPT_X_TLS_VERSION, &v) != LDAP_OPT_SUCCESS || !v)
        return {};
    const QString s = QString::fromUtf8(v);
    ldap_memfree(v);
    return s;
}

QString LdapSession::tlsCipher() const
{
    char* v = nullptr;
    if (!d->ld || ldap_get_option(d->ld, LDAP_OPT_X_TLS_CIPHER, &v) != LDAP_OPT_SUCCESS || !v)
        return {};
    const QString s = QString::fromUtf8(v);
    ldap_memfree(v);
    return s;
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

int LdapSession::fd() const
{
    int fd = -1;
    if (d->ld)
        ldap_get_option(d->ld, LDAP_OPT_DESC, &fd);
    return fd;
}

int LdapSession::sendSearch(const char* base, int scope, const char* filter, char** attrs, int sizeLimit, int* msgid)
{
    return ldap_search_ext(d->ld, base, scope, filter, attrs, 0, nullptr, nullptr, nullptr, sizeLimit, msgid);
}

int LdapSession::sendCompare(const char* dn, const char* attr, const char* value, int valueLen, int* msgid)
{
    berval bv { ber_len_t(valueLen), const_cast<char*>(value) };
    return ldap_compare_ext(d->ld, dn, attr, &bv, nullptr, nullptr, msgid);
}

int LdapSession::sendModifyReplace(const char* dn, const char* attr, const char* value, int valueLen, int* msgid)
{
    berval bv { ber_len_t(valueLen), const_cast<char*>(value) };
    berval* vals[] = { &bv, nullptr };
    LDAPMod mod {};
    mod.mod_op = LDAP_MOD_REPLACE | LDAP_MOD_BVALUES;
    mod.mod_type = const_cast<char*>(attr);
    mod.mod_bvalues = vals;
    LDAPMod* mods[] = { &mod, nullptr };
    return ldap_modify_ext(d->ld, dn, mods, nullptr, nullptr, msgid);
}

int LdapSession::sendAddPerson(const char* dn, const char* uid, int* msgid)
{
    char oc0[] = "top", oc1[] = "person", oc2[] = "organizationalPerson", oc3[] = "inetOrgPerson";
    char* ocs[] = { oc0, oc1, oc2, oc3, nullptr };
    char* uids[] = { const_cast<char*>(uid), nullptr };
    char sn[] = "DirBench";
    char* sns[] = { sn, nullptr };
    char* cns[] = { const_cast<char*>(uid), nullptr };
    char tOc[] = "objectClass", tUid[] = "uid", tSn[] = "sn", tCn[] = "cn";
    LDAPMod m[4] {};
    m[0].mod_op = LDAP_MOD_ADD, m[0].mod_type = tOc, m[0].mod_values = ocs;
    m[1].mod_op = LDAP_MOD_ADD, m[1].mod_type = tUid, m[1].mod_values = uids;
    m[2].mod_op = LDAP_MOD_ADD, m[2].mod_type = tSn, m[2].mod_values = sns;
    m[3].mod_op = LDAP_MOD_ADD, m[3].mod_type = tCn, m[3].mod_values = cns;
    LDAPMod* mods[] = { &m[0], &m[1], &m[2], &m[3], nullptr };
    return ldap_add_ext(d->ld, dn, mods, nullptr, nullptr, msgid);
}

int LdapSession::sendDelete(const char* dn, int* msgid)
{
    return ldap_delete_ext(d->ld, dn, nullptr, nullptr, msgid);
}

int LdapSession::sendSimpleBind(const char* dn, const QByteArray& password, int* msgid)
{
    berval cred { ber_len_t(password.size()), const_cast<char*>(password.constData()) };
    return ldap_sasl_bind(d->ld, dn, LDAP_SASL_SIMPLE, &cred, nullptr, nullptr, msgid);
}

void LdapSession::abandon(int msgid)
{
    if (d->ld)
        ldap_abandon_ext(d->ld, msgid, nullptr, nullptr);
}

int LdapSession::collect(CompletionFn fn, void* user)
{
    if (!d->ld)
        return -1;
    int done = 0;
    for (;;) {
        timeval zero { 0, 0 };
        LDAPMessage* res = nullptr;
        const int type = ldap_result(d->ld, LDAP_RES_ANY, LDAP_MSG_ALL, &zero, &res);
        if (type == 0)
            return done;
        if (type < 0) {
            if (res)
                ldap_msgfree(res);
            return -1;
        }
        Completion c;
        c.msgid = ldap_msgid(res);
        if (type == LDAP_RES_SEARCH_ENTRY || type == LDAP_RES_SEARCH_RESULT || type == LDAP_RES_SEARCH_REFERENCE)
            c.entries = ldap_count_entries(d->ld, res);
        int rc = LDAP_OTHER;
        if (ldap_parse_result(d->ld, res, &rc, nullptr, nullptr, nullptr, nullptr, 0) != LDAP_SUCCESS)
            rc = LDAP_OTHER;
        c.resultCode = rc;
        ldap_msgfree(res);
        if (c.msgid > 0) {
            fn(user, c);
            ++done;
        }
    }
}

void LdapSession::enableReadAhead()
{
    Sockbuf* sb = nullptr;
    if (d->ld && ldap_get_option(d->ld, LDAP_OPT_SOCKBUF, &sb) == LDAP_OPT_SUCCESS && sb)
        ber_sockbuf_add_io(sb, &ber_sockbuf_io_readahead, LBER_SBIOD_LEVEL_PROVIDER, nullptr);
}

QString LdapSession::resultText(int code)
{
    return QString::fromUtf8(ldap_err2string(code));
}
