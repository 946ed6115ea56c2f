#pragma once

#include "core/common/runrecord.h"

#include <QString>

#include <optional>

// What a disk record says beside its figures (DiskSummary): the profile and file the test used, the file system it
// ran on, the I/O engine. Read here only; the CLI printer, the Disk page and the report use the fields.
struct DiskRecordFacts
{
    QString profile; // "seq-write", "directory", ...; a disk-under-load record's disk part's
    std::optional<double> sizeBytes; // the test file's size
    QString fsType; // the file system under the test directory; "" when not known
    std::optional<double> fsFreeBytes;
    bool hasEngine = false; // the record names the engine
    QString engineIo; // "io_uring" | "threads"; "" when not known
    bool engineDirect = false; // O_DIRECT, else buffered

    static DiskRecordFacts of(const RunRecord& record);
    // "io_uring, direct I/O": the engine as the CLI prints it.
    QString engineText() const;
};
