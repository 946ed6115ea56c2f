#include "ui/widgets/runqueue.h"

#include "core/run/proberunner.h"

#include <QCoreApplication>
#include <QProgressBar>

namespace RunQueue {

QString waitingText(int ahead)
{
    return ahead <= 0 ? QCoreApplication::translate("RunQueue", "waiting for a free runner (next in line)")
                      : QCoreApplication::translate("RunQueue", "waiting for a free runner (%n ahead)", nullptr, ahead);
}

void follow(ProbeRunner* runner, QProgressBar* bar, QObject* page, const std::function<int()>& currentRunId,
    const std::function<void(const QString&)>& status)
{
    QObject::connect(runner, &ProbeRunner::waiting, page, [bar, currentRunId, status](int runId, int ahead) {
        if (runId == 0 || runId != currentRunId())
            return;
        bar->setValue(0);
        bar->setFormat(waitingText(ahead));
        if (status)
            status(bar->format());
    });
    QObject::connect(runner, &ProbeRunner::began, page, [bar, currentRunId](int runId) {
        if (runId != 0 && runId == currentRunId())
            bar->setFormat(QCoreApplication::translate("RunQueue", "starting…"));
    });
}

} // namespace RunQueue
