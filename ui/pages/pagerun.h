#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>

class ProbeRunner;
class QProgressBar;
struct RunRecord;

// A page's one run on the ProbeRunner and the check that may precede it off the GUI thread: the run's id, the
// check's ticket, and what the page's progress bar says of each (checking, waiting for a runner, its progress,
// stopping, done). The page keeps its charts and results; this keeps what every page with a run repeated.
class PageRun final : public QObject
{
    Q_OBJECT
public:
    // `status` hears what the bar says while the run waits for a runner (the window's status bar).
    PageRun(
        ProbeRunner* runner, QProgressBar* progress, QObject* page, const std::function<void(const QString&)>& status);
    Q_DISABLE_COPY_MOVE(PageRun)

    int id() const { return m_runId; }
    bool owns(int runId) const { return runId != 0 && runId == m_runId; }
    bool isChecking() const { return m_checkTicket != 0; }
    bool isBusy() const { return m_runId != 0 || m_checkTicket != 0; }

    // A check before the run begins: its ticket, and the bar says `what`. endCheck(ticket) is true (and the check
    // over) unless the check was cancelled or another began meanwhile: its answer is then dropped.
    int beginCheck(const QString& what);
    bool endCheck(int ticket);
    // The check refused the run: the bar says idle.
    void checkRefused();
    // The run began: its history record follows it as `kind` with this spec; the bar at 0, "starting…".
    void started(int runId, const QString& kind, const QJsonObject& spec);

    enum class Cancelled
    {
        Nothing,
        Check, // a check was under way: dropped (its answer is ignored), the bar says idle
        Run // the run was asked to stop: the bar says `stopping`
    };
    Cancelled cancel(const QString& stopping);
    // The run's record arrived (owns() its id): the bar says done (full) or the record's status.
    void finished(const RunRecord& record);

private:
    ProbeRunner* m_runner;
    QProgressBar* m_progress;
    int m_runId = 0;
    int m_checkTicket = 0;
    int m_lastTicket = 0;
};
