#include "core/store/processidentity.h"

#include <QFile>
#include <QSysInfo>

#include <cstdlib>
#include <unistd.h>

namespace {

QByteArray readProc(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// /proc/stat's "btime": the boot time, in seconds since the epoch.
std::optional<qint64> bootTimeS()
{
    for (const QByteArray& line : readProc(QStringLiteral("/proc/stat")).split('\n'))
        if (line.startsWith("btime "))
            return line.mid(6).trimmed().toLongLong();
    return std::nullopt;
}

} // namespace

QString ProcessIdentity::thisHost()
{
    return QSysInfo::machineHostName();
}

ProcessIdentity ProcessIdentity::self()
{
    ProcessIdentity p;
    p.host = thisHost();
    p.pid = ::getpid();
    p.startMs = startOf(p.pid).value_or(0);
    return p;
}

std::optional<qint64> ProcessIdentity::startOf(qint64 pid)
{
    if (pid <= 0)
        return std::nullopt;
    const QByteArray stat = readProc(QStringLiteral("/proc/%1/stat").arg(pid));
    // "PID (comm) S ppid ...": comm may hold spaces and parentheses, so the fields start after the last ')'.
    const qsizetype close = stat.lastIndexOf(')');
    if (close < 0)
        return std::nullopt;
    const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
    // fields[0] is field 3 (the state); field 22 (starttime) is fields[19].
    if (fields.size() < 20 || fields.at(0) == "Z" || fields.at(0) == "X")
        return std::nullopt;
    bool ok = false;
    const qint64 ticks = fields.at(19).toLongLong(&ok);
    const auto boot = bootTimeS();
    const long hz = ::sysconf(_SC_CLK_TCK);
    if (!ok || !boot || hz <= 0)
        return std::nullopt;
    return *boot * 1000 + ticks * 1000 / hz;
}

bool ProcessIdentity::isAlive() const
{
    const auto start = startOf(pid);
    if (startMs <= 0) // recorded without a start time (/proc unreadable then): the pid alone decides
        return start.has_value();
    return start && std::abs(*start - startMs) <= StartToleranceMs;
}
