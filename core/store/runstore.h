#pragma once

#include "core/common/proberror.h"
#include "core/common/runrecord.h"
#include "core/common/sample.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// The run history: a SQLite database (WAL) in the user's data directory, created 0600. Every run goes in; a
// running one is written as it goes (beginRun, then appendSamples about once a second), so a crash loses at most
// the last second. One RunStore is one connection, used from one thread; the GUI and the CLI may write at once
// (busy timeout). Schema changes are numbered migrations (PRAGMA user_version); an older database opens and is
// brought up to date.
class RunStore
{
public:
    static constexpr int SchemaVersion = 4;

    static constexpr int PageSize = 500; // rows a list shows at once (it pages on)

    struct Summary
    {
        qint64 id = 0;
        QString kind;
        QString status;
        QString name;
        QStringList tags;
        QDateTime started;
        // "2,345.6 MB/s" / "23,456.0 ok/s": the number a list shows; "… ok/s (derived: ops − errors)" for a load
        // recorded before successes were counted (schema 3 computed the older rows' again)
        QString headline;
        QString host; // the host the run measured from (schema 2)
    };
    struct Filter
    {
        QString kind; // exact, or "" for all
        QString tag; // runs with this tag
        QString text; // in the name, the kind or the host
        int limit = PageSize;
        int offset = 0; // rows skipped (the next page starts at the rows shown so far)
        qint64 id = 0; // one run only, or 0
    };

    RunStore();
    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    // path empty: defaultPath(). Creates the file (0600) and its directory (0700) as needed.
    bool open(const QString& path = {}, ProbeError* error = nullptr);
    bool isOpen() const;
    QString path() const { return m_path; }
    int schemaVersion() const;
    // $DIRBENCH_HISTORY, else <user data dir>/history.sqlite.
    static QString defaultPath();

    // A run as it goes: a row "running" (with this process's host, pid and start time), the record's intervals
    // written by appendSamples, the rest by finishRun (ok, failed or cancelled).
    qint64 beginRun(const QString& kind, const QJsonObject& spec, ProbeError* error = nullptr);
    bool appendSamples(qint64 id, const SampleBatch& samples, ProbeError* error = nullptr);
    bool finishRun(qint64 id, const RunRecord& record, ProbeError* error = nullptr);
    // A whole record at once (imports, the CLI's --json runs). Returns the new id, or 0. A record that says
    // "running" runs nowhere now: it is saved as "interrupted".
    qint64 save(const RunRecord& record, const QString& name = {}, ProbeError* error = nullptr);

    QList<Summary> list(const Filter& filter) const;
    QList<Summary> list() const;
    // How many runs the filter matches (its limit and offset aside), and the kinds of run the history holds.
    int count(const Filter& filter) const;
    QStringList kinds() const;
    // Every "running" row of this host whose process is gone (or is another process with its pid) becomes
    // "interrupted"; a run of a live process, or of another host, stays "running". Returns how many were marked.
    int markInterrupted(ProbeError* error = nullptr);
    std::optional<RunRecord> load(qint64 id, ProbeError* error = nullptr) const;
    std::optional<Summary> summary(qint64 id) const;
    bool rename(qint64 id, const QString& name);
    bool setTags(qint64 id, const QStringList& tags);
    bool remove(qint64 id);
    std::optional<qint64> findByName(const QString& name) const; // the newest run with this name

    // Comparison::headline formatted; a suite without a score says how many tests it ran.
    static QString headlineOf(const RunRecord& record);

private:
    bool migrate(ProbeError* error);
    qint64 insert(const RunRecord& record, const QString& name, bool ours, ProbeError* error);
    ProbeError lastError(const QString& what) const;

    QString m_connection;
    QString m_path;
};
