#pragma once

#include "core/workload/workload.h"

#include <QString>

#include <optional>

// The .dbwl file (`workload analyze --save`, `replay --workload`): newline-delimited JSON, private to the user
// (0600), written atomically. Line 1 is the header: {"schema": "dirbench.workload-file/1", "source", "anonymised",
// "values_kept", "gaps", "templates": [{kind, template, slots}], "analysis"}; then one line per connection:
// {"conn", "client", "open_ns", "close_ns", "ops": [{"t", "kind", "tpl", "v", "base", "scope", "attrs", "oid",
// "abandon", "write", "rc", "n", "etime_ms", "wtime_ms", "optime_ms", "result_t", "unindexed", "cut"}]} with
// absent keys for absent values. A reader refuses another schema and names the line and field that is wrong.
namespace WorkloadFile {

inline constexpr auto Schema = "dirbench.workload-file/1";

// `error`: "FILE: line N: field: what is wrong".
std::optional<Workload> read(const QString& path, QString* error);
bool write(const Workload& workload, const QString& path, QString* error);
// The file's bytes, and back (a workload made on a host comes over its agent's stream so); `name` in errors.
QByteArray encode(const Workload& workload);
std::optional<Workload> decode(const QByteArray& bytes, const QString& name, QString* error);

} // namespace WorkloadFile
