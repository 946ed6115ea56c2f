#include "core/sandbox/slapdtools.h"

#include "core/run/runcontext.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QThread>

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

sockaddr_in loopback(int port)
{
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_port = htons(quint16(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

} // namespace

QString SlapdTools::findProgram(const QString& name)
{
    QString p = QStandardPaths::findExecutable(name);
    if (p.isEmpty())
        p = QStandardPaths::findExecutable(name,
            { QStringLiteral("/usr/sbin"), QStringLiteral("/sbin"), QStringLiteral("/usr/local/sbin"),
                QStringLiteral("/usr/libexec/openldap"), QStringLiteral("/usr/libexec") });
    return p;
}

SlapdTools::Result SlapdTools::run(const QString& program, const QStringList& args, int timeoutMs, RunContext* ctx)
{
    Result r;
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(program, args);
    if (!p.waitForStarted(10000)) {
        r.output = p.errorString().toUtf8();
        return r;
    }
    r.started = true;
    const QDeadlineTimer deadline(timeoutMs);
    while (!p.waitForFinished(100)) {
        if (p.state() == QProcess::NotRunning)
            break;
        r.output += p.readAll();
        if (ctx && ctx->stopRequested())
            r.cancelled = true;
        else if (deadline.hasExpired())
            r.timedOut = true;
        else
            continue;
        p.kill();
        p.waitForFinished(5000);
        break;
    }
    r.output += p.readAll();
    if (!r.timedOut && !r.cancelled && p.exitStatus() == QProcess::NormalExit)
        r.exitCode = p.exitCode();
    return r;
}

QList<int> SlapdTools::freePorts(int count, ProbeError* error)
{
    QList<int> ports;
    QList<int> fds;
    for (int i = 0; i < count; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a = loopback(0);
        socklen_t len = sizeof a;
        if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0
            || ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
            const int err = errno;
            if (fd >= 0)
                ::close(fd);
            for (int f : fds)
                ::close(f);
            if (error)
                *error = ProbeError::fromErrno(err, QStringLiteral("cannot find a free port on 127.0.0.1"));
            return {};
        }
        fds.append(fd); // kept open until all are chosen, so that they differ
        ports.append(ntohs(a.sin_port));
    }
    for (int f : fds)
        ::close(f);
    return ports;
}

bool SlapdTools::tcpConnects(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    const sockaddr_in a = loopback(port);
    int rc;
    do
        rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a);
    while (rc != 0 && errno == EINTR);
    ::close(fd);
    return rc == 0;
}

bool SlapdTools::processAlive(qint64 pid)
{
    if (pid <= 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (stat.open(QIODevice::ReadOnly)) {
        const QByteArray s = stat.readAll();
        const qsizetype close = s.lastIndexOf(')');
        if (close < 0 || close + 2 >= s.size())
            return true;
        const char state = s.at(close + 2);
        return state != 'Z' && state != 'X' && state != 'x';
    }
    if (QFileInfo::exists(QStringLiteral("/proc/self/stat")))
        return false; // /proc is there and the pid is not
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

bool SlapdTools::isSlapdWithConfig(qint64 pid, const QString& confPath)
{
    if (pid <= 0)
        return false;
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QList<QByteArray> argv = f.readAll().split('\0');
    if (argv.isEmpty() || QFileInfo(QString::fromLocal8Bit(argv.first())).fileName() != u"slapd")
        return false;
    const QByteArray conf = QFile::encodeName(confPath);
    for (qsizetype i = 1; i + 1 < argv.size(); ++i)
        if (argv.at(i) == "-f" && argv.at(i + 1) == conf)
            return true;
    return false;
}

bool SlapdTools::waitGone(qint64 pid, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (processAlive(pid)) {
        if (deadline.hasExpired())
            return false;
        QThread::msleep(20);
    }
    return true;
}

qint64 SlapdTools::findSlapdWithConfig(const QString& confPath)
{
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& e : entries) {
        bool ok = false;
        const qint64 pid = e.toLongLong(&ok);
        if (ok && isSlapdWithConfig(pid, confPath) && processAlive(pid))
            return pid;
    }
    return 0;
}

bool SlapdTools::terminate(qint64 pid, int termMs)
{
    if (!processAlive(pid))
        return true;
    ::kill(pid_t(pid), SIGTERM);
    if (waitGone(pid, termMs))
        return true;
    ::kill(pid_t(pid), SIGKILL);
    return waitGone(pid, 5000);
}

bool SlapdTools::writePrivateFile(const QString& path, const QByteArray& data, ProbeError* err)
{
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    bool ok = fd >= 0 && ::write(fd, data.constData(), size_t(data.size())) == ssize_t(data.size());
    const int saved = errno;
    if (fd >= 0 && ::close(fd) != 0)
        ok = false;
    if (!ok)
        *err = ProbeError::fromErrno(saved ? saved : errno, QStringLiteral("cannot write ") + path);
    return ok;
}

// The last lines of a program's output, without slapd's debug prefixes and version banner.
QString SlapdTools::lastLines(const QByteArray& output)
{
    static const QRegularExpression prefix(QStringLiteral("^[0-9a-f]{8}\\.[0-9a-f]{8} 0x[0-9a-f]+ "));
    QStringList lines;
    for (QString l : QString::fromLocal8Bit(output).split(u'\n', Qt::SkipEmptyParts)) {
        l.remove(prefix);
        if (!l.contains(QLatin1String("@(#)")) && !l.startsWith(u'\t') && !l.trimmed().isEmpty()
            && !l.startsWith(QLatin1String("slapd stopped")) && !l.startsWith(QLatin1String("connections_destroy")))
            lines.append(l.trimmed());
    }
    return lines.mid(qMax(0, int(lines.size()) - 12)).join(QStringLiteral("; "));
}

QString SlapdTools::describe(const QString& what, const Result& r)
{
    QString s = what;
    if (!r.started)
        s += QStringLiteral(" could not be run");
    else if (r.timedOut)
        s += QStringLiteral(" timed out");
    else
        s += QStringLiteral(" failed (exit code %1)").arg(r.exitCode);
    const QString out = lastLines(r.output);
    return out.isEmpty() ? s : s + QStringLiteral(": ") + out;
}

// Why slapd would not start: run it in the foreground with only its error messages on stderr.
QString SlapdTools::diagnoseSlapd(const QString& slapd, const QStringList& args)
{
    QStringList fg = args;
    fg << QStringLiteral("-d") << QStringLiteral("32768");
    const Result r = run(slapd, fg, 5000);
    if (r.timedOut)
        return QStringLiteral("a second try in the foreground did start; the failure was transient");
    return lastLines(r.output);
}
