#include "core/sandbox/ds389process.h"

#include "core/run/runcontext.h"
#include "core/sandbox/slapdtools.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>

namespace Ds389Process {

namespace {

ProbeError ioError(const QString& detail, ProbeError::Kind kind = ProbeError::Kind::Io)
{
    ProbeError e;
    e.kind = kind;
    e.detail = detail;
    return e;
}

QList<QByteArray> cmdline(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (pid <= 0 || !f.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> argv = f.readAll().split('\0');
    if (argv.isEmpty() || QFileInfo(QString::fromLocal8Bit(argv.first())).fileName() != u"ns-slapd")
        return {};
    return argv;
}

QList<qint64> allPids()
{
    QList<qint64> out;
    for (const QString& e : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        const qint64 pid = e.toLongLong(&ok);
        if (ok)
            out << pid;
    }
    return out;
}

QString configDirOf(const QList<QByteArray>& argv)
{
    for (qsizetype i = 1; i + 1 < argv.size(); ++i)
        if (argv.at(i) == "-D")
            return QFile::decodeName(argv.at(i + 1));
    return {};
}

} // namespace

bool isServer(qint64 pid, const QString& configDir)
{
    const QList<QByteArray> argv = cmdline(pid);
    return !argv.isEmpty() && configDirOf(argv) == configDir && SlapdTools::processAlive(pid);
}

QList<qint64> pids(const QString& configDir)
{
    QList<qint64> out;
    for (const qint64 pid : allPids())
        if (isServer(pid, configDir))
            out << pid;
    return out;
}

QStringList runningConfigDirs()
{
    QStringList out;
    for (const qint64 pid : allPids()) {
        const QString dir = configDirOf(cmdline(pid));
        if (!dir.isEmpty() && SlapdTools::processAlive(pid))
            out << dir;
    }
    return out;
}

bool terminateAll(const QString& configDir, int timeoutMs)
{
    bool ok = true;
    for (const qint64 pid : pids(configDir))
        ok = SlapdTools::terminate(pid, timeoutMs) && ok;
    // ns-slapd names its statistics semaphore after its configuration directory; a clean shutdown removes it.
    if (ok)
        QFile::remove(QStringLiteral("/dev/shm/sem.%1.stats").arg(QFileInfo(configDir).fileName()));
    return ok;
}

QString serverErrors(const QString& dir)
{
    QFile f(dir + QStringLiteral("/log/errors"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList lines;
    for (const QByteArray& l : f.readAll().split('\n'))
        if (l.contains(" - ERR - ") || l.contains(" - CRIT - ") || l.contains(" - EMERG - "))
            lines << QString::fromUtf8(l.mid(l.indexOf("] - ") + 4)).trimmed();
    return lines.mid(qMax(0, int(lines.size()) - 4)).join(QStringLiteral("; "));
}

qint64 launch(const QString& program, const QString& dir, const QString& configDir, int port, int timeoutMs,
    ProbeError* error, RunContext* ctx, bool* portTaken)
{
    const QString pidFile = dir + QStringLiteral("/run/slapd.pid");
    QFile::remove(pidFile);
    const SlapdTools::Result r
        = SlapdTools::run(program, { QStringLiteral("-D"), configDir, QStringLiteral("-i"), pidFile }, timeoutMs, ctx);
    if (r.cancelled) {
        *error = ioError({}, ProbeError::Kind::Cancelled);
        return 0;
    }
    if (!r.ok()) {
        *error
            = ioError(SlapdTools::describe(QStringLiteral("ns-slapd"), r) + QStringLiteral(": ") + serverErrors(dir));
        return 0;
    }
    const QDeadlineTimer ready(timeoutMs);
    for (;;) {
        QFile f(pidFile);
        const qint64 pid = f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toLongLong() : 0;
        if (pid > 0 && isServer(pid, configDir) && SlapdTools::tcpConnects(port))
            return pid;
        const bool gone = pid > 0 ? !SlapdTools::processAlive(pid) : pids(configDir).isEmpty();
        const bool cancelled = ctx && ctx->stopRequested();
        if (gone || ready.hasExpired() || cancelled) {
            const QString why = serverErrors(dir);
            if (portTaken)
                *portTaken = why.contains(QLatin1String("in use"), Qt::CaseInsensitive);
            terminateAll(configDir, 30000);
            if (cancelled)
                *error = ioError({}, ProbeError::Kind::Cancelled);
            else if (gone)
                *error = ioError(QStringLiteral("ns-slapd exited while starting: ") + why);
            else
                *error = ioError(QStringLiteral("ns-slapd did not accept connections on port %1 within %2 s")
                                     .arg(port)
                                     .arg(timeoutMs / 1000),
                    ProbeError::Kind::Timeout);
            return 0;
        }
        QThread::msleep(20);
    }
}

} // namespace Ds389Process
