#include "ui/offthread.h"

#include <thread>

void OffThreadRelay::start(QObject* receiver, std::function<void()> work, std::function<void()> done)
{
    // The relay only signals; it has no thread, so the worker may delete it once it has signalled. The queued call
    // holds its own reference to the slot, and Qt drops the call if the receiver is destroyed first.
    auto* relay = new OffThreadRelay;
    relay->moveToThread(nullptr);
    connect(relay, &OffThreadRelay::finished, receiver, std::move(done), Qt::QueuedConnection);
    std::thread([relay, work = std::move(work)] {
        work();
        emit relay->finished();
        delete relay;
    }).detach();
}
