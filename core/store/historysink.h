#pragma once

#include "core/common/proberror.h"
#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <QElapsedTimer>

#include <memory>

class RunStore;

// Saves one run in the history as it goes, for the CLI (the GUI goes through HistoryService): begin() writes a row
// "running" (with this process's host, pid and start time: the next program to open the history marks it
// "interrupted" if this process dies), add() buffers samples and writes them about once a second, finish()
// replaces the row with the record (ok, failed or cancelled). Every call is a short transaction.
class HistorySink
{
public:
    HistorySink();
    ~HistorySink();
    HistorySink(const HistorySink&) = delete;
    HistorySink& operator=(const HistorySink&) = delete;

    // path empty: RunStore::defaultPath(). False (with the reason) when the history cannot be opened.
    bool open(const QString& path = {}, ProbeError* error = nullptr);
    bool isOpen() const { return m_store != nullptr; }
    RunStore* store() const { return m_store.get(); }

    // name: the run's name in the history, or "" (it can be renamed later).
    qint64 begin(const QString& kind, const QJsonObject& spec, const QString& name = {}, ProbeError* error = nullptr);
    void add(const SampleBatch& batch);
    // Returns the run's id, or 0 when it could not be saved.
    qint64 finish(const RunRecord& record, ProbeError* error = nullptr);
    qint64 id() const { return m_id; }

    static constexpr int FlushIntervalMs = 1000;

private:
    void flush();

    std::unique_ptr<RunStore> m_store;
    qint64 m_id = 0;
    SampleBatch m_pending;
    QElapsedTimer m_sinceFlush;
};
