#include "core/store/runrecorder.h"

#include "core/run/proberunner.h"
#include "core/store/historysink.h"
#include "core/store/runstore.h"

RunRecorder::RunRecorder(ProbeRunner* runner)
    : QObject(runner)
{
    setObjectName(QStringLiteral("runRecorder"));
    connect(runner, &ProbeRunner::samplesArrived, this, &RunRecorder::onSamples);
    connect(runner, &ProbeRunner::finished, this, &RunRecorder::onFinished);
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
    auto sink = std::make_shared<HistorySink>();
    ProbeError e;
    if (!sink->open({}, &e) || !sink->begin(kind, spec, name, &e)) {
        m_lastError = e.message();
        emit saveFailed(tr("The run is not saved in the history: %1").arg(m_lastError));
        return;
    }
    m_sinks.insert(runId, sink);
}

void RunRecorder::onSamples(int runId, const SampleBatch& batch)
{
    if (const auto it = m_sinks.constFind(runId); it != m_sinks.cend())
        (*it)->add(batch);
}

void RunRecorder::onFinished(int runId, const RunRecord& record)
{
    const auto sink = m_sinks.take(runId);
    if (!sink)
        return;
    ProbeError e;
    if (const qint64 id = sink->finish(record, &e)) {
        emit runSaved(id, record.kind, record.status);
    } else {
        m_lastError = e.message();
        emit saveFailed(tr("The run could not be saved in the history: %1").arg(m_lastError));
    }
}

qint64 RunRecorder::save(const RunRecord& record, const QString& name)
{
    RunStore store;
    ProbeError e;
    qint64 id = 0;
    if (store.open({}, &e))
        id = store.save(record, name, &e);
    if (id == 0) {
        m_lastError = e.message();
        emit saveFailed(tr("Not saved in the history: %1").arg(m_lastError));
        return 0;
    }
    emit runSaved(id, record.kind, record.status);
    return id;
}
