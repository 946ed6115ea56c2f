#pragma once

#include "core/common/proberror.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

class RunContext;

// Process and socket helpers for the sandbox: run the OpenLDAP programs, find free loopback ports, and tell a
// live slapd of ours from anything else that has its pid. No QtNetwork (core links Qt Core only): plain sockets.
class SlapdTools
{
public:
    struct Result
    {
        bool started = false;
        bool timedOut = false;
        bool cancelled = false;
        int exitCode = -1; // -1 when it did not exit normally
        QByteArray output; // stdout and stderr, merged

        bool ok() const { return started && !timedOut && !cancelled && exitCode == 0; }
    };

    // The program in PATH, else in /usr/sbin, /sbin, /usr/local/sbin, /usr/libexec; empty if absent.
    static QString findProgram(const QString& name);

    // Runs a program to its end with a deadline; ctx (optional) is polled every 100 ms for cancel.
    static Result run(const QString& program, const QStringList& args, int timeoutMs, RunContext* ctx = nullptr);

    // `count` distinct ports that were free on 127.0.0.1 a moment ago (bound to port 0, then released).
    static QList<int> freePorts(int count, ProbeError* error);
    // A TCP connection to 127.0.0.1:port is accepted.
    static bool tcpConnects(int port);

    // The process exists and is not a zombie.
    static bool processAlive(qint64 pid);
    // /proc/PID/cmdline is slapd started with "-f confPath".
    static bool isSlapdWithConfig(qint64 pid, const QString& confPath);
    // "slapadd failed (exit code 1): <the last lines of its output>", or "... timed out", "... could not be run".
    static QString describe(const QString& what, const Result& r);
    // The last dozen lines of output joined by "; ", without slapd's debug prefixes, banner and farewell.
    static QString lastLines(const QByteArray& output);
    // Why `slapd args` (which exited non-zero as a daemon) fails: runs it once in the foreground with -d 32768,
    // which prints only its errors, for at most 5 s.
    static QString diagnoseSlapd(const QString& slapd, const QStringList& args);

    // Creates the file with mode 0600 (O_EXCL: never an existing file) and writes data.
    static bool writePrivateFile(const QString& path, const QByteArray& data, ProbeError* error);

    // The pid of a live slapd started with "-f confPath" (scans /proc), or 0.
    static qint64 findSlapdWithConfig(const QString& confPath);
    // SIGTERM, up to termMs for it to go, then SIGKILL and up to 5 s more; true if it is gone.
    static bool terminate(qint64 pid, int termMs);
    // Waits until the process is gone or timeoutMs pass; true if gone.
    static bool waitGone(qint64 pid, int timeoutMs);
};
