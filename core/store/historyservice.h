#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"
#include "core/store/runstore.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QThread>

#include <functional>

// The GUI's history: one RunStore (the GUI's only SQLite connection) owned by a worker on a thread of its own, so
// nothing that can wait for the disk or for another process's lock runs on the GUI thread. Callers make queued
// calls carrying values and get values back: a call's `done` runs on the caller's thread, later, and only while
// its context object lives (results for a closed page are dropped). Calls run one after another in the order they
// were made. Compare (load) and import are jobs: they report progress as they go. The recorder's writes
// (beginRun, appendSamples about once a second, finishRun) are fire-and-forget; flushed() follows every committed
// write batch. The CLI, which has no event loop to keep free, writes through RunStore directly.
class HistoryService final : public QObject
{
    Q_OBJECT
public:
    struct Listing
    {
        QList<RunStore::Summary> runs; // the page the filter asked for
        int total = 0; // the runs the filter matches
        QStringList kinds; // every kind the history holds
        RunStore::Filter filter;
        QString error;
    };
    struct LoadedRun
    {
        RunStore::Summary summary;
        RunRecord record;
    };
    struct Loaded
    {
        QList<LoadedRun> runs; // in the order asked for
        QString error; // the first run that could not be loaded, and why
    };
    struct Imported
    {
        QList<qint64> ids;
        QStringList errors; // "path: why", one per file not imported
    };
    template <typename T> using Done = std::function<void(const T&)>;
    using Progress = std::function<void(double fraction, const QString& what)>;

    explicit HistoryService(QObject* parent = nullptr);
    ~HistoryService() override; // runs every call already made (the last writes too), then stops the thread
    Q_DISABLE_COPY_MOVE(HistoryService)

    // path empty: RunStore::defaultPath(). opened() says how it went; calls made before it completes wait for it.
    void open(const QString& path = {});
    bool isOpen() const { return m_open; }
    QString error() const { return m_error; }
    QString path() const { return m_path; }
    QThread* workerThread() const { return m_thread; }

    void list(const RunStore::Filter& filter, QObject* context, const Done<Listing>& done);
    void load(const QList<qint64>& ids, QObject* context, const Progress& progress, const Done<Loaded>& done);
    void importFiles(const QStringList& paths, QObject* context, const Progress& progress, const Done<Imported>& done);
    // done: "" when written, else why not.
    void exportRun(qint64 id, const QString& path, QObject* context, const Done<QString>& done);
    void rename(qint64 id, const QString& name, QObject* context, const Done<bool>& done);
    void setTags(qint64 id, const QStringList& tags, QObject* context, const Done<bool>& done);
    void remove(const QList<qint64>& ids, QObject* context, const Done<int>& done);
    // A whole record (a sizing, a cloud comparison). done: the history id, or 0 (writeFailed says why).
    void save(const RunRecord& record, const QString& name, QObject* context, const Done<qint64>& done);

    // A run as it goes. beginRun returns a ticket at once (the row is written on the worker); the others take it.
    qint64 beginRun(const QString& kind, const QJsonObject& spec, const QString& name = {});
    void appendSamples(qint64 ticket, const SampleBatch& batch);
    void finishRun(qint64 ticket, const RunRecord& record);

    static constexpr int FlushIntervalMs = 1000;

signals:
    void opened(bool ok, const QString& message);
    // After every committed write: status "running" for a batch of intervals, the run's status for its record.
    void flushed(qint64 historyId, const QString& status);
    // Emitted on the worker thread right after each commit (connect with Qt::DirectConnection to see where the
    // writes happen); every other signal arrives on the service's own thread.
    void committedOnWorker(qint64 historyId);
    // Likewise right after each read: a run loaded (its id), a list (0).
    void readOnWorker(qint64 historyId);
    void runSaved(qint64 historyId, const QString& kind, const QString& status);
    void writeFailed(const QString& message);
    void changed(); // a write the list shows (a run begun or saved, a rename, tags, a delete, an import)

private:
    class Worker;
    template <typename F> void post(F&& work);
    template <typename T> void reply(const QPointer<QObject>& context, const Done<T>& done, const T& value);
    void progressTo(const QPointer<QObject>& context, const Progress& progress, double fraction, const QString& what);
    void committed(qint64 historyId, const QString& status);

    QThread* m_thread = nullptr;
    Worker* m_worker = nullptr;
    qint64 m_nextTicket = 1;
    bool m_open = false;
    QString m_error;
    QString m_path;
};
