#include "core/experiments/serverthreads.h"

#include "core/ldap/ldapsession.h"
#include "core/sandbox/ds389sandbox.h"

#include <QThread>

namespace {

const QString kConfig = QStringLiteral("cn=config");
const QString kAttr = QStringLiteral("nsslapd-threadnumber");
constexpr int kSettleMs = 3000; // how long a value may take to show in cn=monitor when applied online

} // namespace

ServerThreads::ServerThreads(const LdapTarget& target, std::optional<SandboxInfo> sandbox)
    : m_target(target)
    , m_sandbox(std::move(sandbox))
{ }

ServerThreads::~ServerThreads()
{
    restore();
}

int ServerThreads::runningThreads(LdapSession& s)
{
    QList<LdapSession::Entry> out;
    if (s.search(QStringLiteral("cn=monitor"), LdapSession::Base, QStringLiteral("(objectClass=*)"),
             { QStringLiteral("threads") }, &out)
            .isError()
        || out.isEmpty())
        return -1;
    bool ok = false;
    const int n = out.first().first(QStringLiteral("threads")).trimmed().toInt(&ok);
    return ok ? n : -1;
}

bool ServerThreads::begin(LdapSession& s, ProbeError* error)
{
    QList<LdapSession::Entry> out;
    const ProbeError e
        = s.search(kConfig, LdapSession::Base, QStringLiteral("(objectClass=*)"), { kAttr }, &out, 0, 10000);
    m_original = out.isEmpty() ? QByteArray() : out.first().first(kAttr).trimmed();
    if (e.isError() || m_original.isEmpty()) {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("server-threads"),
                QStringLiteral("the server's worker threads are 389-ds's nsslapd-threadnumber in cn=config, which "
                               "this bind cannot read%1: bind as cn=Directory Manager, or leave --server-threads out")
                    .arg(e.isError() ? QStringLiteral(" (") + e.message() + u')' : QString()));
        return false;
    }
    m_pending = true;
    return true;
}

int ServerThreads::apply(LdapSession& s, int n, QString* how, ProbeError* error, RunContext* ctx)
{
    if (const ProbeError e = s.modifyReplace(kConfig, kAttr, { QByteArray::number(n) }, 10000); e.isError()) {
        if (error)
            *error = e;
        return -1;
    }
    if (m_sandbox) {
        *how = QStringLiteral("restart");
        s.close();
        if (!Ds389Sandbox::restart(*m_sandbox, error, ctx))
            return -1;
        if (const ProbeError e = s.open(m_target); e.isError()) {
            if (error)
                *error = e;
            return -1;
        }
        return runningThreads(s);
    }
    *how = QStringLiteral("online");
    int running = -1;
    for (int waited = 0; waited <= kSettleMs; waited += 100) {
        running = runningThreads(s);
        if (running == n)
            break;
        QThread::msleep(100);
    }
    return running;
}

QString ServerThreads::restore()
{
    if (!m_pending)
        return {};
    m_pending = false;
    LdapSession s;
    ProbeError e = s.open(m_target);
    if (!e.isError())
        e = s.modifyReplace(kConfig, kAttr, { m_original }, 10000);
    s.close();
    // A sandbox took each value at a restart: one more puts it back to how it was.
    if (!e.isError() && m_sandbox && !Ds389Sandbox::restart(*m_sandbox, &e))
        return QStringLiteral("nsslapd-threadnumber is back to %1, but the sandbox did not restart: %2")
            .arg(QString::fromUtf8(m_original), e.message());
    if (!e.isError())
        return {};
    return QStringLiteral("nsslapd-threadnumber could not be put back (%1); set it by hand: cn=config "
                          "nsslapd-threadnumber: %2")
        .arg(e.message(), QString::fromUtf8(m_original));
}
