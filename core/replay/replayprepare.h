#pragma once

#include "core/common/proberror.h"
#include "core/replay/replayspec.h"

#include <QStringList>

#include <memory>

struct Workload;

// Everything a replay needs before it may start, made once for the window and the command line: the workload
// (read from the .dbwl, or built from the access logs as `workload analyze --save` builds it, values kept only
// for --values log), the spec checked against it, the bind passwords read, and the plan made once (its mapping
// and key space checked). Reads files: off the GUI thread. An error names the option at fault ("log",
// "workload", "key-space", "shared-password-file", ...); `unrecognised`: the logs held no operation DirBench
// understands (the command line's exit 1, as `workload analyze`).
struct ReplayPrepared
{
    ProbeError error;
    bool unrecognised = false;
    std::shared_ptr<const Workload> workload;
    ReplayPasswords passwords;
    QStringList warnings; // parts of the logs not understood
    QString preview; // the dry run's text: what would be sent, per template and connection

    bool ok() const { return !error.isError(); }
};

namespace Replay {

ReplayPrepared prepare(const ReplaySpec& spec);

} // namespace Replay
