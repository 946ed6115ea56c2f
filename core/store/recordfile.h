#pragma once

#include "core/common/runrecord.h"

#include <QString>

#include <optional>

// RunRecord JSON files as dirbench-cli writes them (--json, history export) and the GUI imports them.
namespace RecordFile {

// Reads and validates a record file. `error`: "FILE: field: what is wrong" (the file and the field are named).
std::optional<RunRecord> read(const QString& path, QString* error);
// Writes the record (indented JSON) atomically, the file private to the user (0600). `error` as above.
bool write(const RunRecord& record, const QString& path, QString* error);

constexpr qint64 MaxBytes = 256LL * 1024 * 1024; // a record of a very long run is a few MB

} // namespace RecordFile
