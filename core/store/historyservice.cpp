#include "core/store/historyservice.h"

#include "core/store/recordfile.h"

#include <QElapsedTimer>

#include <memory>
#include <utility>

// Lives on the service's thread; only calls posted to it touch the store.
class HistoryService::Worker final : public QObject
{
public:
    struct OpenRun
    {
        qint64 id = 0;
        SampleBatch pending;
        QElapsedTimer sinceFlush;
    };

    std::unique_ptr<RunStore> store;
    QString error = QStringLiteral("the history is not open yet");
    QHash<qint64, OpenRun> runs; // by ticket

    bool ready(QString* why) const
    {
        if (store)
            return true;
        *why = error;
        return false;
    }
};

namespace {

QString labelOf(const RunStore::Summary& s)
{
    return s.name.isEmpty() ? QObject::tr("run %1").arg(s.id) : s.name;
}

} // namespace

HistoryService::HistoryService(QObject* parent)
    : QObject(parent)
    , m_thread(new QThread(this))
    , m_worker(new Worker)
{
    m_thread->setObjectName(QStringLiteral("dirbench-history"));
    m_worker->moveToThread(m_thread);
    m_thread->start();
}

HistoryService::~HistoryService()
{
    // Queued after every call already made: they all run (the last writes are committed), then the store closes on
    // its own thread and the thread ends.
    post([w = m_worker] {
        w->store.reset();
        QThread::currentThread()->quit();
    });
    m_thread->wait();
    delete m_worker;
}

template <typename F> void HistoryService::post(F&& work)
{
    QMetaObject::invokeMethod(m_worker, std::forward<F>(work), Qt::QueuedConnection);
}

// From the worker: the result goes back to the service's thread, and to the caller if its context still lives.
// (The service outlives its thread, so posting to it is safe; the context is only looked at on its own thread.)
template <typename T> void HistoryService::reply(const QPointer<QObject>& context, const Done<T>& done, const T& value)
{
    QMetaObject::invokeMethod(
        this,
        [context, done, value] {
            if (context && done)
                done(value);
        },
        Qt::QueuedConnection);
}

void HistoryService::progressTo(
    const QPointer<QObject>& context, const Progress& progress, double fraction, const QString& what)
{
    if (!progress)
        return;
    QMetaObject::invokeMethod(
        this,
        [context, progress, fraction, what] {
            if (context)
                progress(fraction, what);
        },
        Qt::QueuedConnection);
}

// On the worker, after a commit.
void HistoryService::committed(qint64 historyId, const QString& status)
{
    emit committedOnWorker(historyId);
    QMetaObject::invokeMethod(
        this, [this, historyId, status] { emit flushed(historyId, status); }, Qt::QueuedConnection);
}

void HistoryService::open(const QString& path)
{
    post([this, path] {
        auto store = std::make_unique<RunStore>();
        ProbeError e;
        const bool ok = store->open(path, &e);
        const QString where = store->path();
        m_worker->error = ok ? QString() : e.message();
        m_worker->store = ok ? std::move(store) : nullptr;
        const QString message = m_worker->error;
        QMetaObject::invokeMethod(
            this,
            [this, ok, message, where] {
                m_open = ok;
                m_error = message;
                m_path = where;
                emit opened(ok, message);
            },
            Qt::QueuedConnection);
    });
}

void HistoryService::list(const RunStore::Filter& filter, QObject* context, const Done<Listing>& done)
{
    post([this, filter, ctx = QPointer<QObject>(context), done] {
        Listing l;
        l.filter = filter;
        if (m_worker->ready(&l.error)) {
            l.runs = m_worker->store->list(filter);
            l.total = m_worker->store->count(filter);
            l.kinds = m_worker->store->kinds();
            emit readOnWorker(0);
        }
        reply(ctx, done, l);
    });
}

void HistoryService::load(
    const QList<qint64>& ids, QObject* context, const Progress& progress, const Done<Loaded>& done)
{
    post([this, ids, ctx = QPointer<QObject>(context), progress, done] {
        Loaded out;
        if (!m_worker->ready(&out.error))
            return reply(ctx, done, out);
        for (qsizetype i = 0; i < ids.size(); ++i) {
            const auto s = m_worker->store->summary(ids.at(i));
            RunStore::Summary summary = s.value_or(RunStore::Summary {});
            summary.id = ids.at(i);
            progressTo(ctx, progress, double(i) / double(ids.size()),
                tr("Loading %1 (%2 of %3)…").arg(labelOf(summary)).arg(i + 1).arg(ids.size()));
            ProbeError e;
            const auto rec = m_worker->store->load(ids.at(i), &e);
            if (!rec) {
                out.error = tr("Cannot load %1: %2").arg(labelOf(summary), e.message());
                out.runs.clear();
                break;
            }
            emit readOnWorker(ids.at(i));
            out.runs << LoadedRun { summary, *rec };
        }
        reply(ctx, done, out);
    });
}

void HistoryService::importFiles(
    const QStringList& paths, QObject* context, const Progress& progress, const Done<Imported>& done)
{
    post([this, paths, ctx = QPointer<QObject>(context), progress, done] {
        Imported out;
        QString why;
        if (!m_worker->ready(&why)) {
            out.errors << why;
            return reply(ctx, done, out);
        }
        for (qsizetype i = 0; i < paths.size(); ++i) {
            progressTo(ctx, progress, double(i) / double(paths.size()),
                tr("Importing %1 (%2 of %3)…").arg(paths.at(i)).arg(i + 1).arg(paths.size()));
            const auto rec = RecordFile::read(paths.at(i), &why);
            ProbeError e;
            const qint64 id = rec ? m_worker->store->save(*rec, {}, &e) : 0;
            if (id) {
                out.ids << id;
                committed(id, rec->status);
            } else {
                out.errors << (rec ? paths.at(i) + QStringLiteral(": ") + e.message() : why);
            }
        }
        if (!out.ids.isEmpty())
            QMetaObject::invokeMethod(this, &HistoryService::changed, Qt::QueuedConnection);
        reply(ctx, done, out);
    });
}

void HistoryService::exportRun(qint64 id, const QString& path, QObject* context, const Done<QString>& done)
{
    post([this, id, path, ctx = QPointer<QObject>(context), done] {
        QString why;
        if (m_worker->ready(&why)) {
            ProbeError e;
            const auto rec = m_worker->store->load(id, &e);
            if (!rec)
                why = e.message();
            else if (!RecordFile::write(*rec, path, &why) && why.isEmpty())
                why = tr("cannot write %1").arg(path);
        }
        reply(ctx, done, why);
    });
}

void HistoryService::rename(qint64 id, const QString& name, QObject* context, const Done<bool>& done)
{
    post([this, id, name, ctx = QPointer<QObject>(context), done] {
        QString why;
        const bool ok = m_worker->ready(&why) && m_worker->store->rename(id, name);
        if (ok) {
            committed(id, QString());
            QMetaObject::invokeMethod(this, &HistoryService::changed, Qt::QueuedConnection);
        }
        reply(ctx, done, ok);
    });
}

void HistoryService::setTags(qint64 id, const QStringList& tags, QObject* context, const Done<bool>& done)
{
    post([this, id, tags, ctx = QPointer<QObject>(context), done] {
        QString why;
        const bool ok = m_worker->ready(&why) && m_worker->store->setTags(id, tags);
        if (ok) {
            committed(id, QString());
            QMetaObject::invokeMethod(this, &HistoryService::changed, Qt::QueuedConnection);
        }
        reply(ctx, done, ok);
    });
}

void HistoryService::remove(const QList<qint64>& ids, QObject* context, const Done<int>& done)
{
    post([this, ids, ctx = QPointer<QObject>(context), done] {
        int n = 0;
        QString why;
        if (m_worker->ready(&why))
            for (const qint64 id : ids)
                n += m_worker->store->remove(id) ? 1 : 0;
        if (n > 0)
            QMetaObject::invokeMethod(this, &HistoryService::changed, Qt::QueuedConnection);
        reply(ctx, done, n);
    });
}

void HistoryService::save(const RunRecord& record, const QString& name, QObject* context, const Done<qint64>& done)
{
    post([this, record, name, ctx = QPointer<QObject>(context), done] {
        QString why;
        ProbeError e;
        const qint64 id = m_worker->ready(&why) ? m_worker->store->save(record, name, &e) : 0;
        if (id) {
            committed(id, record.status);
            QMetaObject::invokeMethod(
                this,
                [this, id, kind = record.kind, status = record.status] {
                    emit runSaved(id, kind, status);
                    emit changed();
                },
                Qt::QueuedConnection);
        } else {
            const QString message = tr("Not saved in the history: %1").arg(why.isEmpty() ? e.message() : why);
            QMetaObject::invokeMethod(
                this, [this, message] { emit writeFailed(message); }, Qt::QueuedConnection);
        }
        reply(ctx, done, id);
    });
}

qint64 HistoryService::beginRun(const QString& kind, const QJsonObject& spec, const QString& name)
{
    const qint64 ticket = m_nextTicket++;
    post([this, ticket, kind, spec, name] {
        QString why;
        ProbeError e;
        const qint64 id = m_worker->ready(&why) ? m_worker->store->beginRun(kind, spec, &e) : 0;
        if (!id) {
            const QString message
                = tr("The run is not saved in the history: %1").arg(why.isEmpty() ? e.message() : why);
            QMetaObject::invokeMethod(
                this, [this, message] { emit writeFailed(message); }, Qt::QueuedConnection);
            return;
        }
        if (!name.isEmpty())
            m_worker->store->rename(id, name);
        Worker::OpenRun& run = m_worker->runs[ticket];
        run.id = id;
        run.sinceFlush.start();
        committed(id, QStringLiteral("running"));
        QMetaObject::invokeMethod(this, &HistoryService::changed, Qt::QueuedConnection);
    });
    return ticket;
}

void HistoryService::appendSamples(qint64 ticket, const SampleBatch& batch)
{
    post([this, ticket, batch] {
        const auto it = m_worker->runs.find(ticket);
        if (it == m_worker->runs.end())
            return;
        it->pending += batch;
        if (it->sinceFlush.elapsed() < FlushIntervalMs || it->pending.isEmpty())
            return;
        const bool ok = m_worker->store->appendSamples(it->id, it->pending);
        it->pending.clear();
        it->sinceFlush.restart();
        if (ok)
            committed(it->id, QStringLiteral("running"));
    });
}

void HistoryService::finishRun(qint64 ticket, const RunRecord& record)
{
    post([this, ticket, record] {
        const Worker::OpenRun run = m_worker->runs.take(ticket);
        if (!run.id || !m_worker->store)
            return; // beginRun failed and said so
        ProbeError e;
        if (!m_worker->store->finishRun(run.id, record, &e)) {
            const QString message = tr("The run could not be saved in the history: %1").arg(e.message());
            QMetaObject::invokeMethod(
                this, [this, message] { emit writeFailed(message); }, Qt::QueuedConnection);
            return;
        }
        committed(run.id, record.status);
        QMetaObject::invokeMethod(
            this,
            [this, id = run.id, kind = record.kind, status = record.status] {
                emit runSaved(id, kind, status);
                emit changed();
            },
            Qt::QueuedConnection);
    });
}
