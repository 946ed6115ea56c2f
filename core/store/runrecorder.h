#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <QHash>
#include <QObject>

#include <functional>

class HistoryService;
class ProbeRunner;

// Saves the GUI's runs in the history as they go. One per ProbeRunner (a child of it, see of()), with the GUI's
// HistoryService (its child: the history's connection on a thread of its own, opened at once): a page that starts
// a run calls track(runId, kind, spec); the recorder follows the runner's sample batches and finished() for that
// id and hands them to the service as values (the row "running" at once, intervals about once a second, the
// record at the end). Nothing here waits for SQLite. runSaved() tells the History page to refresh.
class RunRecorder final : public QObject
{
    Q_OBJECT
public:
    explicit RunRecorder(ProbeRunner* runner);
    ~RunRecorder() override;
    Q_DISABLE_COPY_MOVE(RunRecorder)

    // The runner's recorder, created on first use.
    static RunRecorder* of(ProbeRunner* runner);
    HistoryService* service() const { return m_service; }

    void track(int runId, const QString& kind, const QJsonObject& spec, const QString& name = {});
    // A finished record saved (a sizing, a cloud comparison: results that are not a job). done(id) follows on this
    // thread while context lives: the history id, or 0 (saveFailed says why).
    void save(const RunRecord& record, const QString& name = {}, QObject* context = nullptr,
        std::function<void(qint64)> done = {});
    QString lastError() const { return m_lastError; }

signals:
    void runSaved(qint64 historyId, const QString& kind, const QString& status);
    void saveFailed(const QString& message);

private:
    void onSamples(int runId, const SampleBatch& batch);
    void onFinished(int runId, const RunRecord& record);

    HistoryService* m_service = nullptr;
    QHash<int, qint64> m_tickets; // runner's run id -> the service's ticket
    QString m_lastError;
};
