#include "app/cli/historysink.h"

#include "core/store/runstore.h"

namespace Cli {

HistorySink::HistorySink(bool enabled)
{
    if (!enabled)
        return;
    m_store = std::make_unique<RunStore>();
    ProbeError e;
    if (!m_store->open({}, &e)) {
        std::fprintf(stderr, "dirbench-cli: the run is not saved in the history: %s\n", qPrintable(e.message()));
        m_store.reset();
    }
}

HistorySink::~HistorySink() = default;

void HistorySink::begin(const QString& kind, const QJsonObject& spec)
{
    if (m_store)
        m_id = m_store->beginRun(kind, spec);
    m_sinceFlush.start();
}

void HistorySink::add(const SampleBatch& batch)
{
    if (!m_id)
        return;
    m_pending += batch;
    if (m_sinceFlush.elapsed() >= 1000)
        flush();
}

void HistorySink::flush()
{
    if (m_id && !m_pending.isEmpty())
        m_store->appendSamples(m_id, m_pending);
    m_pending.clear();
    m_sinceFlush.restart();
}

qint64 HistorySink::finish(const RunRecord& record)
{
    if (!m_id)
        return 0;
    m_pending.clear();
    ProbeError e;
    if (!m_store->finishRun(m_id, record, &e)) {
        std::fprintf(stderr, "dirbench-cli: the run could not be saved in the history: %s\n", qPrintable(e.message()));
        return 0;
    }
    return m_id;
}

} // namespace Cli
