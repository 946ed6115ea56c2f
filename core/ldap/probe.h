#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/ldaptarget.h"

#include <functional>

class RunContext;

// "Is it up, what is it, how fast is one request": TCP connect, TLS handshake, bind, root DSE read and one search,
// each timed; the TLS facts; the root DSE decoded and the server recognised, with the evidence.
struct ProbeSpec
{
    LdapTarget target;
    QString searchBase; // empty: the first naming context
    QString filter = QStringLiteral("(objectClass=*)");

    QJsonObject toJson() const;
};

namespace Ldap {

RunRecord probe(const ProbeSpec& spec, RunContext& ctx);

inline std::function<RunRecord(RunContext&)> makeProbeJob(ProbeSpec spec)
{
    return [spec = std::move(spec)](RunContext& ctx) { return probe(spec, ctx); };
}

// Subject, issuer, validity, key type and size, SANs of a DER certificate.
QJsonObject certificateFacts(const QByteArray& der);

} // namespace Ldap
