#include "core/ldap/probe.h"

#include "core/common/environment.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/monitorreader.h"
#include "core/ldap/serveridentity.h"
#include "core/run/runcontext.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QSslCertificate>
#include <QSslKey>

#include <cmath>

namespace {

QJsonValue ms(double v)
{
    return v < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(std::round(v * 1000.0) / 1000.0);
}

} // namespace

QJsonObject ProbeSpec::toJson() const
{
    QJsonObject o = target.toJson();
    o.insert(QStringLiteral("search_base"), searchBase);
    o.insert(QStringLiteral("filter"), filter);
    return o;
}

namespace Ldap {

QJsonObject certificateFacts(const QByteArray& der)
{
    QJsonObject o;
    const QSslCertificate cert(der, QSsl::Der);
    if (cert.isNull())
        return o;
    o.insert(QStringLiteral("subject"), cert.subjectDisplayName());
    o.insert(QStringLiteral("issuer"), cert.issuerDisplayName());
    o.insert(QStringLiteral("not_before"), cert.effectiveDate().toString(Qt::ISODate));
    o.insert(QStringLiteral("not_after"), cert.expiryDate().toString(Qt::ISODate));
    o.insert(QStringLiteral("days_left"), double(QDateTime::currentDateTimeUtc().daysTo(cert.expiryDate())));
    o.insert(QStringLiteral("self_signed"), cert.isSelfSigned());
    const QSslKey key = cert.publicKey();
    QString alg;
    switch (key.algorithm()) {
    case QSsl::Rsa:
        alg = QStringLiteral("RSA");
        break;
    case QSsl::Ec:
        alg = QStringLiteral("EC");
        break;
    case QSsl::Dsa:
        alg = QStringLiteral("DSA");
        break;
    case QSsl::Dh:
        alg = QStringLiteral("DH");
        break;
    case QSsl::Opaque:
        alg = QStringLiteral("other");
        break;
    }
    o.insert(QStringLiteral("key_type"), alg);
    o.insert(QStringLiteral("key_bits"), key.length());
    QJsonArray sans;
    const auto alt = cert.subjectAlternativeNames();
    for (auto it = alt.begin(); it != alt.end(); ++it)
        sans.append(QString(
            (it.key() == QSsl::DnsEntry ? QStringLiteral("DNS:") : QStringLiteral("IP or other:")) + it.value()));
    o.insert(QStringLiteral("sans"), sans);
    return o;
}

RunRecord probe(const ProbeSpec& spec, RunContext& ctx)
{
    RunRecord rec;
    rec.kind = QStringLiteral("ldap-probe");
    rec.started = QDateTime::currentDateTime();
    rec.spec = spec.toJson();
    rec.environment = Environment::collect();
    QJsonObject timings { { QStringLiteral("tcp_connect"), QJsonValue::Null },
        { QStringLiteral("tls_handshake"), QJsonValue::Null }, { QStringLiteral("bind"), QJsonValue::Null },
        { QStringLiteral("root_dse"), QJsonValue::Null }, { QStringLiteral("search"), QJsonValue::Null } };
    auto finish = [&](const ProbeError& e) {
        if (e.isError()) {
            rec.status = QStringLiteral("failed");
            rec.failure = e.message();
            if (!e.cause.isEmpty()) // the cause, with the inputs it names as ids (ProbeError::ref): a window's words
                rec.extra.insert(QStringLiteral("failure_cause"),
                    QJsonObject { { QStringLiteral("cause"), e.cause }, { QStringLiteral("detail"), e.detail } });
            if (e.kind == ProbeError::Kind::Ldap || e.kind == ProbeError::Kind::Timeout)
                rec.summary.insert(QStringLiteral("result_code"), e.nativeCode);
        }
        rec.summary.insert(QStringLiteral("timings_ms"), timings);
        rec.extra.insert(QStringLiteral("timings_ms"), timings); // also top level, as scripts expect it
        return rec;
    };
    if (const ProbeError bad = spec.target.validate(); bad.isError())
        return finish(bad);
    if (spec.target.insecure)
        rec.addWarning(QStringLiteral("tls-unverified"),
            QStringLiteral("--insecure: the server's certificate was not checked (trusted anyway)"));

    ctx.setPhase(QStringLiteral("connecting"));
    LdapSession s;
    LdapSession::Timings t;
    const ProbeError openErr = s.open(spec.target, &t);
    timings.insert(QStringLiteral("tcp_connect"), ms(t.tcpMs));
    timings.insert(QStringLiteral("tls_handshake"), ms(t.tlsMs));
    timings.insert(QStringLiteral("bind"), ms(t.bindMs));
    if (openErr.isError())
        return finish(openErr);
    ctx.setProgress(0.4);
    if (spec.target.isTls()) {
        QJsonObject tls = certificateFacts(s.peerCertificateDer());
        tls.insert(QStringLiteral("protocol"), s.tlsProtocol());
        tls.insert(QStringLiteral("cipher"), s.tlsCipher());
        tls.insert(QStringLiteral("verified"), !spec.target.insecure);
        rec.summary.insert(QStringLiteral("tls"), tls);
    }
    if (ctx.stopRequested()) {
        rec.status = QStringLiteral("cancelled");
        return finish({});
    }

    ctx.setPhase(QStringLiteral("reading the root DSE"));
    QList<LdapSession::Entry> dse;
    QElapsedTimer timer;
    timer.start();
    ProbeError e = s.search(QString(), LdapSession::Base, QStringLiteral("(objectClass=*)"),
        { QStringLiteral("*"), QStringLiteral("+") }, &dse);
    timings.insert(QStringLiteral("root_dse"), ms(double(timer.nsecsElapsed()) / 1e6));
    if (e.isError())
        return finish(e);
    const LdapSession::Entry root = dse.value(0);
    rec.summary.insert(QStringLiteral("root_dse"), rootDseToJson(root));
    ServerIdentity id = ServerIdentity::fromRootDse(root);
    id.readOpenLdapVersion(s);
    rec.server = id.toJson();
    ctx.setProgress(0.7);

    QString base = spec.searchBase;
    if (base.isEmpty())
        base = QString::fromUtf8(root.first(QStringLiteral("namingcontexts")));
    ctx.setPhase(QStringLiteral("searching"));
    QList<LdapSession::Entry> found;
    timer.restart();
    e = s.search(base, LdapSession::Base, spec.filter, { QStringLiteral("1.1") }, &found, 1);
    timings.insert(QStringLiteral("search"), ms(double(timer.nsecsElapsed()) / 1e6));
    rec.summary.insert(QStringLiteral("search_base"), base);
    rec.summary.insert(QStringLiteral("search_entries"), int(found.size()));
    ctx.setProgress(1.0);
    return finish(e);
}

} // namespace Ldap
