#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <QCommandLineOption>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

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

// Each of `options` (names without dashes) that is set on the command line is refused: "--name: why". Returns
// ExitBadArgs for the first one set, else ExitOk.
int refuseOptions(const QCommandLineParser& parser, const QStringList& options, const QString& why);

// For a command of subcommands: refuses the first option on the command line that `owners[sub]` does not list,
// "--name: not an option of COMMAND SUB (it is for COMMAND OTHER)". Returns ExitOk when all belong.
int refuseForeign(const QCommandLineParser& parser, const QString& command, const QString& sub,
    const QMap<QString, QStringList>& owners);

// -h, --help, -? or --help-all.
bool helpRequested(const QCommandLineParser& parser);

// The options of `all` whose first name is in `names`, in the order of `all`.
QList<QCommandLineOption> onlyOptions(const QList<QCommandLineOption>& all, const QStringList& names);

// The parser's help with its usage line as "Usage: dirbench-cli WORDS [options]" (Qt writes argv[0] there).
QString helpTextOf(const QCommandLineParser& parser, const QString& words);
// Prints it to stdout (or stderr, for a command line that asked for nothing) and returns ExitOk (ExitBadArgs).
int printHelp(const QCommandLineParser& parser, const QString& words, bool toStderr = false);

// Prints to stdout the usage of one (sub)command: "Usage: dirbench-cli WORDS [options]ARGS", the description and
// only `options` (with -h, --help). Returns ExitOk.
int printUsage(const QString& words, const QString& description, const QList<QCommandLineOption>& options,
    const QString& args = {});

// Where human-readable lines go: stdout, or stderr when --json - owns stdout.
std::FILE* humanStream(bool jsonOnStdout);

// Writes the record to FILE ("-" = stdout). Returns false with a message on stderr if it cannot.
bool writeRecord(const RunRecord& rec, const QString& path);

// Runs the job on the runner with Ctrl-C/SIGTERM mapped to cancel; returns the record. `onSamples` sees each batch.
RunRecord runWithSignals(ProbeRunner& runner, const std::function<RunRecord(RunContext&)>& job,
    const std::function<void(const SampleBatch&)>& onSamples);

} // namespace Cli
