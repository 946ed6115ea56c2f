#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <QHash>
#include <QObject>

#include <memory>

class HistorySink;
class ProbeRunner;

// Saves the GUI's runs in the history as they go. One per ProbeRunner (a child of it, see of()): a page that
// starts a run calls track(runId, kind, spec); the recorder follows the runner's sample batches and finished()
// for that id and writes through a HistorySink (a short transaction about once a second, the record at the end).
// runSaved() tells the History page to refresh.
class RunRecorder final : public QObject
{
    Q_OBJECT
public:
    explicit RunRecorder(ProbeRunner* runner);
    ~RunRecorder() override;
    Q_DISABLE_COPY_MOVE(RunRecorder)

    // The runner's recorder, created on first use.
    static RunRecorder* of(ProbeRunner* runner);

    void track(int runId, const QString& kind, const QJsonObject& spec, const QString& name = {});
    // A finished record saved at once (a sizing, a cloud comparison: results that are not a job). Returns the
    // history id, or 0 (saveFailed says why).
    qint64 save(const RunRecord& record, const QString& name = {});
    QString lastError() const { return m_lastError; }

signals:
    void runSaved(qint64 historyId, const QString& kind, const QString& status);
    void saveFailed(const QString& message);

private:
    void onSamples(int runId, const SampleBatch& batch);
    void onFinished(int runId, const RunRecord& record);

    QHash<int, std::shared_ptr<HistorySink>> m_sinks;
    QString m_lastError;
};
