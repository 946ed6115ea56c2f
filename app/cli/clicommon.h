#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <QString>

#include <cstdio>
#include <functional>

class ProbeRunner;
class QCommandLineParser;
class RunContext;

namespace Cli {

enum Exit
{
    ExitOk = 0,
    ExitFailed = 1,
    ExitBadArgs = 2,
    ExitVerdict = 3
};

// Prints "dirbench-cli: --option: message" to stderr and returns ExitBadArgs.
int badArgument(const QString& option, const QString& message);

// An option given more than once (QCommandLineParser keeps the last): prints which and returns ExitBadArgs, else 0.
int refuseRepeated(const QCommandLineParser& parser);

// Where human-readable lines go: stdout, or stderr when --json - owns stdout.
std::FILE* humanStream(bool jsonOnStdout);

// Writes the record to FILE ("-" = stdout). Returns false with a message on stderr if it cannot.
bool writeRecord(const RunRecord& rec, const QString& path);

// Runs the job on the runner with Ctrl-C/SIGTERM mapped to cancel; returns the record. `onSamples` sees each batch.
RunRecord runWithSignals(ProbeRunner& runner, const std::function<RunRecord(RunContext&)>& job,
    const std::function<void(const SampleBatch&)>& onSamples);

} // namespace Cli
