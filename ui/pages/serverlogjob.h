#pragma once

#include "core/common/proberror.h"
#include "core/common/runrecord.h"

#include <QString>

#include <functional>

class RunContext;

// The LDAP page's "Server access log": the target's access log on this machine, read for the part written during
// the load and put beside the client's latency (the record's server_log, core/workload/serverlogview.h).
namespace ServerLogJob {

// The field's check, before anything starts (it stats the file: run it off the GUI thread). Empty: none.
// InvalidSpec on field "server-log" when it is not a readable file.
ProbeError check(const QString& path);

// The load job, then the server's view attached to its record, both on the runner's thread: the log's size is
// taken as the job starts (before the load connects), the part after it read once the load ends. An empty path
// leaves the job as it is.
std::function<RunRecord(RunContext&)> wrap(std::function<RunRecord(RunContext&)> job, const QString& path);

} // namespace ServerLogJob
