#pragma once

// Runs the real dirbench-cli of this build and keeps what it said: the tests of the CLI contract share this.
#include <QProcess>
#include <QStringList>

namespace CliRun {

struct Result
{
    int code = -1; // -1: did not finish in time, or ended by a signal
    QByteArray out, err;
};

inline Result run(const QStringList& args, int timeoutMs = 120000)
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace CliRun
