#pragma once

#include <QString>

#include <optional>

// The process that runs a run, as the history records it (schema 4): the host, the pid and the process's start
// time, so that the next program to open the history can tell a run whose process died (same host, and the pid is
// gone or belongs to a process started at another time) from one that still runs in another process.
struct ProcessIdentity
{
    QString host;
    qint64 pid = 0;
    qint64 startMs = 0; // ms since the epoch: /proc/PID/stat field 22 (clock ticks after boot) + the boot time

    // A start time read twice may differ by the boot time's rounding and by clock steps: within this, it is the same.
    static constexpr qint64 StartToleranceMs = 2000;

    static ProcessIdentity self();
    static QString thisHost();
    // The start time of a live process, nullopt when there is none with this pid (a zombie counts as gone).
    static std::optional<qint64> startOf(qint64 pid);
    // On this host only: the process still runs (the pid exists and started when it was recorded).
    bool isAlive() const;
};
