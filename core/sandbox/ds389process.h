#pragma once

#include "core/common/proberror.h"

#include <QList>
#include <QString>
#include <QStringList>

class RunContext;

// The ns-slapd processes of a 389-ds sandbox: told from any other process (and any other instance) by their
// command line, `ns-slapd ... -D CONFIGDIR`, never by name alone.
namespace Ds389Process {

// /proc/PID/cmdline is ns-slapd with "-D configDir", and the process is alive.
bool isServer(qint64 pid, const QString& configDir);
// Every live ns-slapd of this configuration: the server, and an ldif2db still running.
QList<qint64> pids(const QString& configDir);
// The -D directory of every ns-slapd running on the host.
QStringList runningConfigDirs();
// SIGTERM to each (389-ds takes a few seconds to shut down), SIGKILL after timeoutMs; then removes the
// /dev/shm statistics semaphore a killed server leaves behind. True when none is left.
bool terminateAll(const QString& configDir, int timeoutMs);
// The server's own complaints: the last ERR/CRIT/EMERG lines of DIR/log/errors, joined by "; ".
QString serverErrors(const QString& dir);
// Starts `ns-slapd -D configDir -i DIR/run/slapd.pid` (it daemonises) and waits until it accepts connections on
// 127.0.0.1:port; its pid, or 0 with *error (Io with the server's error lines, Timeout, Cancelled). *portTaken
// tells whether it failed because the port was in use.
qint64 launch(const QString& program, const QString& dir, const QString& configDir, int port, int timeoutMs,
    ProbeError* error, RunContext* ctx, bool* portTaken = nullptr);

} // namespace Ds389Process
