#pragma once

#include "core/workload/logparser.h"
#include "core/workload/workloadpipeline.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

// `workload analyze` as a function (the CLI and a Workload page call it): reads the logs once, streaming, and
// returns the dirbench.workload/1 analysis and, when asked, the Workload to save.
struct AnalyzeOptions
{
    QStringList logs; // "-" for standard input
    LogFormat format = LogFormat::Auto;
    WorkloadFilter filter;
    bool buildWorkload = false;
    bool keepValues = false;
    std::function<bool()> stopRequested; // asked between reads (every 4 MiB): true ends the run, `stopped`
};

struct AnalyzeResult
{
    QJsonObject analysis;
    std::optional<Workload> workload;
    QString error; // "FILE: why" or "--format: ..." when the run failed
    QString errorField; // the option the error is about, when it is one ("--format")
    bool unrecognised = false; // the error: no operation recognised in the logs (LogQuality::noOperations)
    QStringList warnings; // LogQuality::notUnderstood; also in the analysis's "warnings" ({code, message})
    bool stopped = false; // stopRequested said so: no analysis, error "stopped"
    double seconds = 0;
    uint64_t bytes = 0;
};

namespace WorkloadAnalyze {

// Progress: bytes read so far and the total (0 when unknown).
AnalyzeResult run(const AnalyzeOptions& options, const std::function<void(uint64_t, uint64_t)>& progress = {});

// The time of a line in any of the formats (ordering rotated files before the format is known).
std::optional<uint64_t> timeOfAnyFormat(std::string_view line);

} // namespace WorkloadAnalyze
