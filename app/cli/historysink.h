#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <QCommandLineOption>
#include <QList>

#include <cstdio>
#include <memory>
#include <optional>

class HistorySink;
class QCommandLineParser;

namespace Cli {

// The history options every run command takes: --no-history, --name NAME, --baseline NAME, --fail-if-slower PCT.
QList<QCommandLineOption> historyOptions();

// A CLI run in the history (DESIGN.md: every run is saved unless --no-history), over core's HistorySink, plus the
// baseline check for nightly jobs. Order of use:
//   configure(parser)   before any work: parses the options, opens the history, looks the baseline up (exit 2)
//   begin(kind, spec)   before the run starts: refuses a baseline of another kind or profile (exit 2)
//   add(batch) ...      as the run goes
//   finish(out, rec)    saves the record, prints "saved ..." and, with --baseline, the comparison
//   baselineExit()      ExitVerdict (3) when the headline is worse than the baseline by more than PCT, else 0
// A history that cannot be opened is reported on stderr and the run goes on without it (unless --baseline
// needs it: then exit 2).
class HistorySink
{
public:
    HistorySink();
    ~HistorySink();

    int configure(const QCommandLineParser& parser);
    // For commands without the history options (sizing): save or not, no name, no baseline.
    void configureSaveOnly(bool save);
    int begin(const QString& kind, const QJsonObject& spec);
    void add(const SampleBatch& batch);
    qint64 finish(std::FILE* out, const RunRecord& record);
    int baselineExit() const { return m_slower ? 3 : 0; }

private:
    std::unique_ptr<::HistorySink> m_sink;
    bool m_save = true;
    QString m_name;
    QString m_baselineName;
    std::optional<RunRecord> m_baseline;
    qint64 m_baselineId = 0;
    std::optional<double> m_failIfSlowerPct;
    bool m_slower = false;
};

} // namespace Cli
