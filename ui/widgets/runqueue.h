#pragma once

#include <QString>

#include <functional>

class ProbeRunner;
class QObject;
class QProgressBar;

namespace RunQueue {

// "waiting for a free runner (2 ahead)" / "(next in line)": what a page shows while its job waits for a thread.
QString waitingText(int ahead);

// While the page's run (currentRunId()) waits for a free runner, its progress bar says so (and `status` hears it,
// for the window's status bar); once it has a thread the bar says "starting…" until its first progress.
void follow(ProbeRunner* runner, QProgressBar* bar, QObject* page, const std::function<int()>& currentRunId,
    const std::function<void(const QString&)>& status = {});

} // namespace RunQueue
