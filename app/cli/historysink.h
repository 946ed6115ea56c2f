#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <QElapsedTimer>

#include <cstdio>
#include <memory>

class RunStore;

namespace Cli {

// Saves a CLI run in the history database as it goes (DESIGN.md: every run is saved unless --no-history):
// intervals about once a second, the record at the end. A history that cannot be opened is reported on stderr
// and the run goes on without it.
class HistorySink
{
public:
    explicit HistorySink(bool enabled);
    ~HistorySink();

    void begin(const QString& kind, const QJsonObject& spec);
    void add(const SampleBatch& batch);
    // Returns the run's id in the history, or 0.
    qint64 finish(const RunRecord& record);

private:
    void flush();

    std::unique_ptr<RunStore> m_store;
    qint64 m_id = 0;
    SampleBatch m_pending;
    QElapsedTimer m_sinceFlush;
};

} // namespace Cli
