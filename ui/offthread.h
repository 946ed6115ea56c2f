#pragma once

#include <QObject>

#include <functional>
#include <memory>

// Work that touches the file system (the stat, statvfs and access of the directory a disk test is to use, reading a
// record file: on a hung NFS mount they never return) runs on a thread of its own; its result comes back on the
// receiver's thread by a queued signal, and not at all when the receiver is gone by then. One detached thread per
// call: a hung stat cannot be interrupted, and a thread pool would make the program wait for it at exit.
class OffThreadRelay final : public QObject
{
    Q_OBJECT
public:
    // Runs work() on a new thread and, once it returned, done() on `receiver`'s thread.
    static void start(QObject* receiver, std::function<void()> work, std::function<void()> done);

signals:
    void finished();

private:
    OffThreadRelay() = default;
};

namespace OffThread {

template <typename T> void run(QObject* receiver, std::function<T()> work, std::function<void(const T&)> done)
{
    auto result = std::make_shared<T>();
    OffThreadRelay::start(
        receiver, [result, work = std::move(work)] { *result = work(); },
        [result, done = std::move(done)] { done(*result); });
}

} // namespace OffThread
