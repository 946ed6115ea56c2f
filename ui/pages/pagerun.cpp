#include "ui/pages/pagerun.h"

#include "core/common/runrecord.h"
#include "core/run/proberunner.h"
#include "core/store/runrecorder.h"
#include "ui/widgets/runprogress.h"
#include "ui/widgets/runqueue.h"

#include <QProgressBar>

PageRun::PageRun(
    ProbeRunner* runner, QProgressBar* progress, QObject* page, const std::function<void(const QString&)>& status)
    : QObject(page)
    , m_runner(runner)
    , m_progress(progress)
{
    connect(m_runner, &ProbeRunner::progressChanged, this, [this](int runId, double fraction, const QString& phase) {
        if (owns(runId))
            showRunProgress(m_progress, fraction, phase);
    });
    RunQueue::follow(
        m_runner, m_progress, this, [this] { return m_runId; }, status);
}

int PageRun::beginCheck(const QString& what)
{
    m_checkTicket = ++m_lastTicket;
    m_progress->setFormat(what);
    return m_checkTicket;
}

bool PageRun::endCheck(int ticket)
{
    if (ticket != m_checkTicket)
        return false;
    m_checkTicket = 0;
    return true;
}

void PageRun::checkRefused()
{
    m_checkTicket = 0;
    m_progress->setFormat(tr("idle"));
}

void PageRun::started(int runId, const QString& kind, const QJsonObject& spec)
{
    m_runId = runId;
    RunRecorder::of(m_runner)->track(m_runId, kind, spec); // saved in the history as it goes
    m_progress->setValue(0);
    m_progress->setFormat(tr("starting…"));
}

PageRun::Cancelled PageRun::cancel(const QString& stopping)
{
    if (m_checkTicket != 0) { // a check that may never return (a hung mount, a dead server): drop it
        checkRefused();
        return Cancelled::Check;
    }
    if (m_runId == 0)
        return Cancelled::Nothing;
    m_runner->cancel(m_runId);
    m_progress->setFormat(stopping);
    return Cancelled::Run;
}

void PageRun::finished(const RunRecord& record)
{
    m_runId = 0;
    m_progress->setValue(record.status == u"ok" ? m_progress->maximum() : m_progress->value());
    m_progress->setFormat(record.status == u"ok" ? tr("done") : record.status);
}
