#pragma once

#include "core/agents/remoterun.h"
#include "core/disk/diskspec.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

#include <optional>

// `disk --host HOST`: the test runs on another machine (the server's), through `ssh HOST dirbench-cli agent`.
namespace Cli {

QList<QCommandLineOption> diskHostOptions(); // --host, --ssh-option, --agent-command

// With --host, *remote is the run on that host (its directory is checked there); without it, the options that
// only go with --host are refused. An exit code (ExitOk when the options are right).
int remoteDiskFromParser(
    const QCommandLineParser& p, const DiskSpec& spec, std::optional<Agents::RemoteRunSpec>* remote);

} // namespace Cli
