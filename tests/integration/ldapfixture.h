#pragma once

#include "core/sandbox/sandboxguard.h"
#include "core/sandbox/slapdconfig.h"
#include "core/sandbox/slapdsandbox.h"
#include "core/sandbox/slapdtools.h"

#include <QFile>
#include <QProcess>
#include <QTcpSocket>
#include <QThread>
#include <QUrl>

#include <cerrno>
#include <csignal>
#include <optional>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

// A sandbox slapd for a test, and the means to kill and restart it for real.
//
// A test that needs a sandbox skips only when a program the sandbox needs is not installed
// (LDAPFIXTURE_SKIP_WITHOUT_SLAPD); a sandbox that does not start on a machine that has them is a failure, with the
// server's error: QVERIFY2(sbx, qPrintable(LdapFixture::notStarted(why))).
namespace LdapFixture {

// Which program a sandbox slapd (with TLS: and its certificate) needs and this machine lacks, or empty.
inline QString slapdMissing(bool tls = false)
{
    for (const char* p : { "slapd", "slapadd" })
        if (SlapdTools::findProgram(QLatin1String(p)).isEmpty())
            return QStringLiteral("%1 is not installed (apt-get install slapd)").arg(QLatin1String(p));
    if (tls && SlapdTools::findProgram(QStringLiteral("openssl")).isEmpty())
        return QStringLiteral("openssl is not installed (apt-get install openssl): the sandbox's TLS needs it");
    return {};
}

inline QString notStarted(const QString& why)
{
    return QStringLiteral("the sandbox slapd did not start: ") + why;
}

inline SandboxGuard start(int entries = 2000, bool tls = false, QString* why = nullptr)
{
    SandboxOptions o;
    o.entries = entries;
    o.tls = tls;
    o.makeCurrent = false;
    ProbeError e;
    auto info = SlapdSandbox::start(o, &e);
    if (!info && why)
        *why = e.message();
    return SandboxGuard(info);
}

// In a test function (it may QSKIP): skips when slapd, slapadd or (tls) openssl is not installed.
#define LDAPFIXTURE_SKIP_WITHOUT_SLAPD(tls)                                                                            \
    do {                                                                                                               \
        if (const QString missing_ = LdapFixture::slapdMissing(tls); !missing_.isEmpty())                              \
            QSKIP(qPrintable(missing_));                                                                               \
    } while (false)

inline QByteArray password(const SandboxInfo& s)
{
    QFile f(s.passwordFile);
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}

// The sandbox's admin bind, on its first server or on `uri` (one of its replicas).
inline LdapTarget admin(const SandboxInfo& s, const QString& uri = QString())
{
    LdapTarget t;
    t.uri = uri.isEmpty() ? s.uri : uri;
    t.auth = LdapTarget::Auth::Simple;
    t.bindDn = s.bindDn;
    t.password = password(s);
    return t;
}

// Why an OpenLDAP provider with syncrepl consumers cannot be made here (no slapd, no syncprov), or empty.
inline QString replicasUnavailable()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        return QStringLiteral("slapd is not installed (apt-get install slapd): no replicated sandbox");
    if (!SlapdConfig::hasModule(SlapdConfig::locateModuleDir(), QStringLiteral("syncprov")))
        return QStringLiteral("the syncprov overlay (syncprov.so) is not installed: no replicated sandbox");
    return {};
}

// A provider with `entries` entries and `replicas` syncrepl consumers in parentDir.
inline std::optional<SandboxInfo> startReplicated(
    const QString& parentDir, int replicas, ProbeError* e, int entries = 100)
{
    SandboxOptions o;
    o.entries = entries;
    o.parentDir = parentDir;
    o.makeCurrent = false;
    o.topology = SandboxTopology::withReplicas(replicas);
    return SlapdSandbox::start(o, e);
}

inline QStringList cmdline(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList out;
    for (const QByteArray& a : f.readAll().split('\0'))
        if (!a.isEmpty())
            out << QString::fromLocal8Bit(a);
    return out;
}

// Waits for a process that is not our child (a daemonised slapd) to exit: its pidfd becomes readable when it does.
// Without pidfd_open (a kernel before 5.3), polls every 20 ms.
inline bool waitGone(qint64 pid, int ms = 10000)
{
    if (const int fd = int(::syscall(SYS_pidfd_open, pid_t(pid), 0)); fd >= 0) {
        pollfd p { fd, POLLIN, 0 };
        const int ready = ::poll(&p, 1, ms);
        ::close(fd);
        return ready == 1;
    } else if (errno == ESRCH) {
        return true; // gone already
    }
    for (int i = 0; i < ms / 20; ++i) {
        if (::kill(pid_t(pid), 0) != 0)
            return true;
        QThread::msleep(20);
    }
    return false;
}

inline bool waitListening(const QString& uri, int ms = 15000)
{
    const QUrl u(uri);
    for (int i = 0; i < ms / 50; ++i) {
        QTcpSocket s;
        s.connectToHost(u.host(), quint16(u.port()));
        if (s.waitForConnected(200))
            return true;
        QThread::msleep(50);
    }
    return false;
}

// slapd daemonises: the process we start exits and the server lives on under a new pid.
inline qint64 restart(const QStringList& argv, const QString& uri)
{
    QProcess::execute(argv.first(), argv.mid(1));
    if (!waitListening(uri))
        return 0;
    return 1;
}

} // namespace LdapFixture
