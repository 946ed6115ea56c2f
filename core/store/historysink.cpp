#include "core/store/historysink.h"

#include "core/store/runstore.h"

HistorySink::HistorySink() = default;
HistorySink::~HistorySink() = default;

bool HistorySink::open(const QString& path, ProbeError* error)
{
    auto store = std::make_unique<RunStore>();
    if (!store->open(path, error))
        return false;
    m_store = std::move(store);
    return true;
}

qint64 HistorySink::begin(const QString& kind, const QJsonObject& spec, const QString& name, ProbeError* error)
{
    m_id = 0;
    m_pending.clear();
    m_sinceFlush.start();
    if (!m_store)
        return 0;
    m_id = m_store->beginRun(kind, spec, error);
    if (m_id && !name.isEmpty())
        m_store->rename(m_id, name);
    return m_id;
}

void HistorySink::add(const SampleBatch& batch)
{
    if (!m_id)
        return;
    m_pending += batch;
    if (m_sinceFlush.elapsed() >= FlushIntervalMs)
        flush();
}

void HistorySink::flush()
{
    if (m_id && !m_pending.isEmpty())
        m_store->appendSamples(m_id, m_pending);
    m_pending.clear();
    m_sinceFlush.restart();
}

qint64 HistorySink::finish(const RunRecord& record, ProbeError* error)
{
    if (!m_id)
        return 0;
    m_pending.clear(); // the record holds every interval
    const qint64 id = m_id;
    m_id = 0;
    return m_store->finishRun(id, record, error) ? id : 0;
}
