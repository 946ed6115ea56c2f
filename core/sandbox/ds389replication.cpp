#include "core/sandbox/ds389replication.h"

#include "core/ldap/ldapsession.h"
#include "core/run/runcontext.h"
#include "core/sandbox/ds389config.h"
#include "core/sandbox/sandboxdir.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>

#include <cerrno>

namespace {

using SandboxDir::ioError;

const QString kManagerDn = QStringLiteral("cn=replication manager,cn=config");
constexpr int kInitTimeoutMs = 300000;

QString replicaDn(const QString& suffix)
{
    return QStringLiteral("cn=replica,cn=\"%1\",cn=mapping tree,cn=config").arg(suffix);
}

QString agreementDn(const QString& suffix)
{
    return QStringLiteral("cn=to-consumer,") + replicaDn(suffix);
}

ProbeError openAdmin(const SandboxInfo& info, const QByteArray& password, LdapSession* s)
{
    LdapTarget t;
    t.uri = info.uri;
    t.auth = LdapTarget::Auth::Simple;
    t.bindDn = info.bindDn;
    t.password = password;
    ProbeError e = s->open(t);
    t.password.fill('\0');
    return e;
}

QByteArray replicaEntry(const QString& suffix, int id)
{
    const bool supplier = id != Ds389Replication::kConsumerId;
    return "dn: " + replicaDn(suffix).toUtf8()
        + "\nobjectClass: top\nobjectClass: nsds5Replica\nobjectClass: extensibleObject\ncn: replica\n"
          "nsDS5ReplicaRoot: "
        + suffix.toUtf8() + "\nnsDS5ReplicaId: " + QByteArray::number(id)
        + "\nnsDS5ReplicaType: " + (supplier ? "3" : "2") + "\nnsDS5Flags: " + (supplier ? "1" : "0")
        + "\nnsDS5ReplicaBindDN: " + kManagerDn.toUtf8() + "\n\n";
}

// The init's outcome once nsds5BeginReplicaRefresh is gone: empty when it succeeded, else its status text.
// nullopt while it runs.
std::optional<QString> initOutcome(LdapSession& s, const QString& agreement, ProbeError* error)
{
    QList<LdapSession::Entry> found;
    *error = s.search(agreement, LdapSession::Base, QStringLiteral("(objectClass=*)"),
        { QStringLiteral("nsds5BeginReplicaRefresh"), QStringLiteral("nsds5ReplicaLastInitStatus"),
            QStringLiteral("nsds5ReplicaLastInitEnd") },
        &found);
    if (error->isError() || found.size() != 1)
        return QString();
    const LdapSession::Entry& e = found.constFirst();
    const QString status = QString::fromUtf8(e.first(QStringLiteral("nsds5replicalastinitstatus")));
    if (!e.first(QStringLiteral("nsds5beginreplicarefresh")).isEmpty()
        || e.first(QStringLiteral("nsds5replicalastinitend")).startsWith("1970") || status.isEmpty())
        return std::nullopt;
    const bool ok = status.contains(QLatin1String("succeeded"), Qt::CaseInsensitive)
        || status.contains(QLatin1String("Total update succeeded"), Qt::CaseInsensitive);
    return ok ? QString() : status;
}

ProbeError waitInit(LdapSession& s, const QString& agreement, RunContext* ctx)
{
    const QDeadlineTimer deadline(kInitTimeoutMs);
    for (;;) {
        ProbeError e;
        const std::optional<QString> outcome = initOutcome(s, agreement, &e);
        if (e.isError())
            return e;
        if (outcome)
            return outcome->isEmpty() ? ProbeError {}
                                      : ioError(QStringLiteral("total init of the consumer failed: ") + *outcome);
        if (ctx && ctx->stopRequested())
            return ioError({}, ProbeError::Kind::Cancelled);
        if (deadline.hasExpired())
            return ioError(
                QStringLiteral("total init of the consumer did not finish within %1 s").arg(kInitTimeoutMs / 1000),
                ProbeError::Kind::Timeout);
        QThread::msleep(50);
    }
}

} // namespace

QByteArray Ds389Replication::consumerEntries(const QString& suffix, const QByteArray& passwordHash)
{
    return "dn: " + kManagerDn.toUtf8()
        + "\nobjectClass: top\nobjectClass: netscapeServer\nobjectClass: nsAccount\ncn: replication manager\n"
          "userPassword: "
        + passwordHash + "\n\n" + replicaEntry(suffix, kConsumerId);
}

QByteArray Ds389Replication::supplierEntries(const QString& suffix, int consumerPort, const QByteArray& password)
{
    return replicaEntry(suffix, kSupplierId) + "dn: " + agreementDn(suffix).toUtf8()
        + "\nobjectClass: top\nobjectClass: nsds5ReplicationAgreement\ncn: to-consumer\nnsDS5ReplicaRoot: "
        + suffix.toUtf8() + "\nnsDS5ReplicaHost: 127.0.0.1\nnsDS5ReplicaPort: " + QByteArray::number(consumerPort)
        + "\nnsDS5ReplicaTransportInfo: LDAP\nnsDS5ReplicaBindMethod: SIMPLE\nnsDS5ReplicaBindDN: "
        + kManagerDn.toUtf8() + "\nnsDS5ReplicaCredentials: " + password + "\n\n";
}

ProbeError Ds389Replication::appendTo(const QString& dseFile, const QByteArray& entries)
{
    QFile f(dseFile);
    if (!f.open(QIODevice::ReadWrite))
        return ProbeError::fromErrno(errno, QStringLiteral("cannot open ") + dseFile);
    const QByteArray text = f.readAll();
    const QByteArray sep = text.endsWith("\n\n") ? QByteArray() : text.endsWith('\n') ? "\n" : "\n\n";
    if (f.write(sep + entries) != sep.size() + entries.size() || !f.flush())
        return ProbeError::fromErrno(errno, QStringLiteral("cannot write ") + dseFile);
    return {};
}

ProbeError Ds389Replication::initialise(
    const SandboxInfo& supplier, const QByteArray& password, double* initSeconds, RunContext* ctx)
{
    LdapSession s;
    if (ProbeError e = openAdmin(supplier, password, &s); e.isError())
        return e;
    const QString agreement = agreementDn(supplier.base);
    QElapsedTimer init;
    init.start();
    if (ProbeError e = s.modifyReplace(agreement, QStringLiteral("nsds5BeginReplicaRefresh"), { "start" }); e.isError())
        return e;
    ProbeError w = waitInit(s, agreement, ctx);
    *initSeconds = double(init.nsecsElapsed()) / 1e9;
    return w;
}
