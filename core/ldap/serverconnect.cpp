#include "core/ldap/serverconnect.h"

#include "core/common/runrecord.h"
#include "core/ldap/loadresult.h"
#include "core/ldap/monitorreader.h"

namespace ServerConnect {

ProbeError connectAndIdentify(LdapSession& session, const LdapTarget& target, IdentifiedServer* out)
{
    if (ProbeError e = session.open(target); e.isError())
        return e;
    QList<LdapSession::Entry> dse;
    session.search(QString(), LdapSession::Base, QStringLiteral("(objectClass=*)"),
        { QStringLiteral("*"), QStringLiteral("+") }, &dse);
    out->identity = ServerIdentity::fromRootDse(dse.value(0));
    out->json = out->identity.toJson();
    if (out->identity.kind == u"openldap")
        if (const QString v = MonitorReader::openLdapVersion(session); !v.isEmpty())
            out->json.insert(QStringLiteral("version"), v);
    return {};
}

void recordSetupFailure(RunRecord* rec, const ProbeError& openError)
{
    LoadSummary s;
    const int code = openError.nativeCode == -1 ? 81 : openError.nativeCode;
    s.setupResultCode = code;
    s.all.resultCodes[code] = 1;
    rec->summary = s.toJson();
    rec->status = QStringLiteral("failed");
    rec->failure = openError.message();
}

} // namespace ServerConnect
