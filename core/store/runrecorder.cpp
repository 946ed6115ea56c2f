#include "core/store/runrecorder.h"

#include "core/run/proberunner.h"
#include "core/store/historyservice.h"

RunRecorder::RunRecorder(ProbeRunner* runner)
    : QObject(runner)
    , m_service(new HistoryService(this))
{
    setObjectName(QStringLiteral("runRecorder"));
    m_service->open();
    connect(runner, &ProbeRunner::samplesArrived, this, &RunRecorder::onSamples);
    connect(runner, &ProbeRunner::finished, this, &RunRecorder::onFinished);
    connect(m_service, &HistoryService::runSaved, this, &RunRecorder::runSaved);
    connect(m_service, &HistoryService::writeFailed, this, [this](const QString& message) {
        m_lastError = message;
        emit saveFailed(message);
    });
}

RunRecorder::~RunRecorder() = default;

RunRecorder* RunRecorder::of(ProbeRunner* runner)
{
    if (auto* r = runner->findChild<RunRecorder*>(QStringLiteral("runRecorder"), Qt::FindDirectChildrenOnly))
        return r;
    return new RunRecorder(runner);
}

void RunRecorder::track(int runId, const QString& kind, const QJsonObject& spec, const QString& name)
{
    m_tickets.insert(runId, m_service->beginRun(kind, spec, name));
}

void RunRecorder::onSamples(int runId, const SampleBatch& batch)
{
    const auto it = m_tickets.constFind(runId);
    if (it == m_tickets.cend())
        return;
    SampleBatch intervals;
    for (const Sample& s : batch)
        if (!s.isStatus())
            intervals << s;
    if (!intervals.isEmpty())
        m_service->appendSamples(*it, intervals);
}

void RunRecorder::onFinished(int runId, const RunRecord& record)
{
    if (const auto it = m_tickets.constFind(runId); it != m_tickets.cend()) {
        m_service->finishRun(*it, record);
        m_tickets.erase(it);
    }
}

void RunRecorder::save(const RunRecord& record, const QString& name, QObject* context, std::function<void(qint64)> done)
{
    m_service->save(record, name, context ? context : this, [done = std::move(done)](const qint64& id) {
        if (done)
            done(id);
    });
}
