#include "core/store/runstore.h"

#include "core/catalog/cloudverdict.h"
#include "core/common/units.h"
#include "core/store/comparison.h"
#include "core/store/processidentity.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>
#include <iterator>
#include <sys/stat.h>

namespace {

bool recomputeLoadHeadlines(QSqlDatabase& db, QString* why);

// Each schema version: its SQL, then (optionally) a step in C++ over the rows, in the same transaction.
struct Migration
{
    const char* sql;
    bool (*after)(QSqlDatabase& db, QString* why);
};

const Migration kMigrations[] = {
    // 1: runs and their intervals (written as the run goes).
    { "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, status TEXT NOT NULL,"
      " name TEXT NOT NULL DEFAULT '', tags TEXT NOT NULL DEFAULT '', started TEXT NOT NULL,"
      " headline TEXT NOT NULL DEFAULT '', record TEXT NOT NULL);"
      "CREATE TABLE intervals (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
      " sample TEXT NOT NULL, PRIMARY KEY (run_id, seq));"
      "CREATE INDEX runs_started ON runs(started);",
        nullptr },
    // 2: the host a run measured (lists show it, the text filter finds it), and indexes for the name lookup
    // (--baseline NAME) and the kind filter. Older rows get their host from the record they hold.
    { "ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT '';"
      "UPDATE runs SET host = COALESCE(json_extract(record, '$.environment.host'), '') WHERE json_valid(record);"
      "CREATE INDEX runs_name ON runs(name);"
      "CREATE INDEX runs_kind ON runs(kind, started);",
        nullptr },
    // 3: LDAP throughput is successful operations: the headline of a load, a curve and a sweep is ok/s. Older rows
    // hold "ops/s" (completed operations): theirs is computed again from their record, derived as ops − errors.
    { "", recomputeLoadHeadlines },
    // 4: honest run states. A run in progress is "running" (no longer a provisional "failed") and records the
    // process that runs it, so the next program to open the history can mark it "interrupted" once that process is
    // gone. Older rows ran in no process we can check: they get none.
    { "ALTER TABLE runs ADD COLUMN runner_host TEXT NOT NULL DEFAULT '';"
      "ALTER TABLE runs ADD COLUMN runner_pid INTEGER NOT NULL DEFAULT 0;"
      "ALTER TABLE runs ADD COLUMN runner_start INTEGER NOT NULL DEFAULT 0;"
      "CREATE INDEX runs_status ON runs(status);",
        nullptr },
};
static_assert(std::size(kMigrations) == RunStore::SchemaVersion, "one migration per schema version");

bool recomputeLoadHeadlines(QSqlDatabase& db, QString* why)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT id, record FROM runs WHERE (kind LIKE 'ldap-%' AND kind <> 'ldap-probe')"
                               " OR kind IN ('curve', 'database-size', 'thread-sweep')"))) {
        *why = q.lastError().text();
        return false;
    }
    QList<QPair<qint64, QString>> headlines;
    while (q.next())
        if (const auto rec = RunRecord::fromJsonBytes(q.value(1).toString().toUtf8()))
            headlines.append({ q.value(0).toLongLong(), RunStore::headlineOf(*rec) });
    QSqlQuery u(db);
    u.prepare(QStringLiteral("UPDATE runs SET headline = ? WHERE id = ?"));
    for (const auto& [id, headline] : std::as_const(headlines)) {
        u.addBindValue(headline);
        u.addBindValue(id);
        if (!u.exec()) {
            *why = u.lastError().text();
            return false;
        }
    }
    return true;
}

// Write transactions take the write lock at once (BEGIN IMMEDIATE): a deferred one that reads first and then
// writes can fail with SQLITE_BUSY without waiting when another process (the GUI, a CLI run) wrote meanwhile.
bool beginWrite(QSqlDatabase& db)
{
    return QSqlQuery(db).exec(QStringLiteral("BEGIN IMMEDIATE"));
}
bool commit(QSqlDatabase& db)
{
    return QSqlQuery(db).exec(QStringLiteral("COMMIT"));
}
void rollback(QSqlDatabase& db)
{
    QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
}

QString hostOf(const RunRecord& r)
{
    const QString h = r.environment.value(QStringLiteral("host")).toString();
    return h.isEmpty() ? QStringLiteral("") : h;
}

QString compact(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

} // namespace

RunStore::RunStore()
    : m_connection(QStringLiteral("dirbench-history-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{ }

RunStore::~RunStore()
{
    if (QSqlDatabase::contains(m_connection)) {
        QSqlDatabase::database(m_connection, false).close();
        QSqlDatabase::removeDatabase(m_connection);
    }
}

QString RunStore::defaultPath()
{
    QString env = qEnvironmentVariable("DIRBENCH_HISTORY");
    if (!env.isEmpty())
        return env;
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return dir + QStringLiteral("/dirbench/history.sqlite");
}

bool RunStore::isOpen() const
{
    return QSqlDatabase::contains(m_connection) && QSqlDatabase::database(m_connection, false).isOpen();
}

ProbeError RunStore::lastError(const QString& what) const
{
    ProbeError e;
    e.kind = ProbeError::Kind::Io;
    e.detail = what + QStringLiteral(" (") + m_path + QStringLiteral("): ")
        + QSqlDatabase::database(m_connection, false).lastError().text();
    return e;
}

bool RunStore::open(const QString& pathIn, ProbeError* error)
{
    m_path = pathIn.isEmpty() ? defaultPath() : pathIn;
    auto fail = [&](const ProbeError& e) {
        if (error)
            *error = e;
        return false;
    };
    const QFileInfo fi(m_path);
    if (!QDir().mkpath(fi.absolutePath()))
        return fail(ProbeError::fromErrno(EACCES, QStringLiteral("cannot create ") + fi.absolutePath()));
    // Created private before SQLite touches it: runs may name hosts and DNs.
    const mode_t old = ::umask(0077);
    if (!fi.exists()) {
        QFile f(m_path);
        f.open(QIODevice::WriteOnly);
        f.close();
    }
    QFile::setPermissions(m_path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    db.setDatabaseName(m_path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    const bool opened = db.open();
    ::umask(old);
    if (!opened)
        return fail(lastError(QStringLiteral("cannot open the history")));
    QSqlQuery q(db);
    q.exec(QStringLiteral("PRAGMA journal_mode=WAL"));
    q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    q.exec(QStringLiteral("PRAGMA foreign_keys=ON"));
    if (!migrate(error))
        return false;
    markInterrupted();
    return true;
}

int RunStore::schemaVersion() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    return q.exec(QStringLiteral("PRAGMA user_version")) && q.next() ? q.value(0).toInt() : -1;
}

bool RunStore::migrate(ProbeError* error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    auto newer = [&](int have) {
        if (error) {
            error->kind = ProbeError::Kind::Io;
            error->detail = m_path + QStringLiteral(" was written by a newer DirBench (schema ") + QString::number(have)
                + QStringLiteral(", this one knows ") + QString::number(SchemaVersion) + u')';
        }
        return false;
    };
    int have = schemaVersion();
    if (have > SchemaVersion)
        return newer(have);
    if (have == SchemaVersion)
        return true;
    // Under the write lock, and the version read again: the GUI and a CLI run may open an old database at once.
    if (!beginWrite(db)) {
        if (error)
            *error = lastError(QStringLiteral("cannot lock the history to update it"));
        return false;
    }
    have = schemaVersion();
    if (have > SchemaVersion) {
        rollback(db);
        return newer(have);
    }
    for (int v = have; v < SchemaVersion; ++v) {
        QString why;
        bool ok = true;
        for (const QString& stmt : QString::fromLatin1(kMigrations[v].sql).split(u';', Qt::SkipEmptyParts)) {
            QSqlQuery q(db);
            if (!(ok = q.exec(stmt))) {
                why = q.lastError().text();
                break;
            }
        }
        if (ok && kMigrations[v].after)
            ok = kMigrations[v].after(db, &why);
        if (!ok) {
            const ProbeError e = lastError(
                QStringLiteral("migration to schema ") + QString::number(v + 1) + QStringLiteral(" failed: ") + why);
            rollback(db);
            if (error)
                *error = e;
            return false;
        }
        QSqlQuery(db).exec(QStringLiteral("PRAGMA user_version=") + QString::number(v + 1));
    }
    if (!commit(db)) {
        if (error)
            *error = lastError(QStringLiteral("cannot update the history's schema"));
        rollback(db);
        return false;
    }
    return true;
}

qint64 RunStore::beginRun(const QString& kind, const QJsonObject& spec, ProbeError* error)
{
    RunRecord r;
    r.kind = kind;
    r.status = QStringLiteral("running");
    r.started = QDateTime::currentDateTime();
    r.spec = spec;
    return insert(r, {}, true, error);
}

bool RunStore::appendSamples(qint64 id, const SampleBatch& samples, ProbeError* error)
{
    if (samples.isEmpty())
        return true;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!beginWrite(db)) {
        if (error)
            *error = lastError(QStringLiteral("cannot write intervals"));
        return false;
    }
    QSqlQuery seq(db);
    seq.prepare(QStringLiteral("SELECT COALESCE(MAX(seq), -1) + 1 FROM intervals WHERE run_id = ?"));
    seq.addBindValue(id);
    qint64 next = seq.exec() && seq.next() ? seq.value(0).toLongLong() : 0;
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO intervals (run_id, seq, sample) VALUES (?, ?, ?)"));
    for (const Sample& s : samples) {
        q.addBindValue(id);
        q.addBindValue(next++);
        q.addBindValue(compact(s.toJson()));
        if (!q.exec()) {
            rollback(db);
            if (error)
                *error = lastError(QStringLiteral("cannot write intervals"));
            return false;
        }
    }
    return commit(db);
}

bool RunStore::finishRun(qint64 id, const RunRecord& record, ProbeError* error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!beginWrite(db)) {
        if (error)
            *error = lastError(QStringLiteral("cannot save the run"));
        return false;
    }
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "UPDATE runs SET kind = ?, status = ?, started = ?, headline = ?, host = ?, record = ? WHERE id = ?"));
    q.addBindValue(record.kind);
    q.addBindValue(record.status);
    q.addBindValue(record.started.toString(Qt::ISODateWithMs));
    q.addBindValue(headlineOf(record));
    q.addBindValue(hostOf(record));
    q.addBindValue(QString::fromUtf8(QJsonDocument(record.toJson()).toJson(QJsonDocument::Compact)));
    q.addBindValue(id);
    QSqlQuery del(db);
    del.prepare(QStringLiteral("DELETE FROM intervals WHERE run_id = ?"));
    del.addBindValue(id);
    if (!q.exec() || !del.exec()) { // the final record holds every interval
        rollback(db);
        if (error)
            *error = lastError(QStringLiteral("cannot save the run"));
        return false;
    }
    return commit(db);
}

qint64 RunStore::save(const RunRecord& recordIn, const QString& name, ProbeError* error)
{
    if (recordIn.status != u"running")
        return insert(recordIn, name, false, error);
    RunRecord record = recordIn;
    record.status = QStringLiteral("interrupted");
    if (record.failure.isEmpty())
        record.failure = QStringLiteral("the record was saved while its run was still going");
    return insert(record, name, false, error);
}

qint64 RunStore::insert(const RunRecord& record, const QString& name, bool ours, ProbeError* error)
{
    const ProcessIdentity me = ours ? ProcessIdentity::self() : ProcessIdentity();
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("INSERT INTO runs (kind, status, name, started, headline, host, record, runner_host,"
                             " runner_pid, runner_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(record.kind);
    q.addBindValue(record.status);
    q.addBindValue(name.isEmpty() ? QStringLiteral("") : name); // "" not NULL: the column is NOT NULL
    q.addBindValue(record.started.toString(Qt::ISODateWithMs));
    q.addBindValue(headlineOf(record));
    q.addBindValue(hostOf(record));
    q.addBindValue(QString::fromUtf8(QJsonDocument(record.toJson()).toJson(QJsonDocument::Compact)));
    q.addBindValue(me.host.isEmpty() ? QStringLiteral("") : me.host);
    q.addBindValue(me.pid);
    q.addBindValue(me.startMs);
    if (!q.exec()) {
        if (error)
            *error = lastError(QStringLiteral("cannot save the run"));
        return 0;
    }
    return q.lastInsertId().toLongLong();
}

QList<RunStore::Summary> RunStore::list() const
{
    return list(Filter());
}

namespace {

// The WHERE clause of a filter, and its values bound on a prepared query.
QString whereOf(const RunStore::Filter& f)
{
    QString sql = QStringLiteral(" WHERE 1=1");
    if (!f.kind.isEmpty())
        sql += QStringLiteral(" AND kind = :kind");
    if (!f.tag.isEmpty())
        sql += QStringLiteral(" AND (',' || tags || ',') LIKE :tag");
    if (f.id > 0)
        sql += QStringLiteral(" AND id = :id");
    if (!f.text.isEmpty())
        sql += QStringLiteral(" AND (name LIKE :text OR kind LIKE :text OR host LIKE :text)");
    return sql;
}

void bindFilter(QSqlQuery& q, const RunStore::Filter& f)
{
    if (!f.kind.isEmpty())
        q.bindValue(QStringLiteral(":kind"), f.kind);
    if (!f.tag.isEmpty())
        q.bindValue(QStringLiteral(":tag"), QString(QStringLiteral("%,") + f.tag + QStringLiteral(",%")));
    if (!f.text.isEmpty())
        q.bindValue(QStringLiteral(":text"), QString(u'%' + f.text + u'%'));
    if (f.id > 0)
        q.bindValue(QStringLiteral(":id"), f.id);
}

} // namespace

QList<RunStore::Summary> RunStore::list(const Filter& f) const
{
    QList<Summary> out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT id, kind, status, name, tags, started, headline, host FROM runs") + whereOf(f)
        + QStringLiteral(" ORDER BY started DESC, id DESC LIMIT :limit OFFSET :offset"));
    bindFilter(q, f);
    q.bindValue(QStringLiteral(":limit"), f.limit);
    q.bindValue(QStringLiteral(":offset"), std::max(0, f.offset));
    if (!q.exec())
        return out;
    while (q.next()) {
        Summary s;
        s.id = q.value(0).toLongLong();
        s.kind = q.value(1).toString();
        s.status = q.value(2).toString();
        s.name = q.value(3).toString();
        s.tags = q.value(4).toString().split(u',', Qt::SkipEmptyParts);
        s.started = QDateTime::fromString(q.value(5).toString(), Qt::ISODateWithMs);
        s.headline = q.value(6).toString();
        s.host = q.value(7).toString();
        out.append(s);
    }
    return out;
}

int RunStore::count(const Filter& f) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM runs") + whereOf(f));
    bindFilter(q, f);
    return q.exec() && q.next() ? q.value(0).toInt() : 0;
}

QStringList RunStore::kinds() const
{
    QStringList out;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    if (q.exec(QStringLiteral("SELECT DISTINCT kind FROM runs ORDER BY kind")))
        while (q.next())
            out << q.value(0).toString();
    return out;
}

int RunStore::markInterrupted(ProbeError* error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT id, runner_pid, runner_start FROM runs WHERE status = 'running'"
                             " AND runner_host = ?"));
    q.addBindValue(ProcessIdentity::thisHost());
    QList<QPair<qint64, qint64>> gone; // id, pid
    if (q.exec())
        while (q.next()) {
            ProcessIdentity p { {}, q.value(1).toLongLong(), q.value(2).toLongLong() };
            if (!p.isAlive())
                gone.append({ q.value(0).toLongLong(), p.pid });
        }
    if (gone.isEmpty())
        return 0;
    if (!beginWrite(db)) {
        if (error)
            *error = lastError(QStringLiteral("cannot mark interrupted runs"));
        return 0;
    }
    int marked = 0;
    for (const auto& [id, pid] : std::as_const(gone)) {
        QSqlQuery u(db);
        u.prepare(QStringLiteral(
            "UPDATE runs SET status = 'interrupted', headline = CASE WHEN headline = 'running' THEN 'interrupted'"
            " ELSE headline END, record = CASE WHEN json_valid(record) THEN json_set(record, '$.status',"
            " 'interrupted', '$.failure', ?) ELSE record END WHERE id = ? AND status = 'running'"));
        u.addBindValue(
            QStringLiteral("interrupted: the process that ran it (pid %1) ended before the run finished").arg(pid));
        u.addBindValue(id);
        if (u.exec())
            marked += u.numRowsAffected();
    }
    if (!commit(db)) {
        rollback(db);
        return 0;
    }
    return marked;
}

std::optional<RunStore::Summary> RunStore::summary(qint64 id) const
{
    Filter f;
    f.id = id;
    f.limit = 1;
    const QList<Summary> one = list(f);
    return one.isEmpty() ? std::nullopt : std::optional<Summary>(one.first());
}

std::optional<RunRecord> RunStore::load(qint64 id, ProbeError* error) const
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT record FROM runs WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec() || !q.next()) {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("run"), QStringLiteral("no run ") + QString::number(id));
        return std::nullopt;
    }
    QString why;
    auto rec = RunRecord::fromJsonBytes(q.value(0).toString().toUtf8(), &why);
    if (!rec) {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("run"), why);
        return std::nullopt;
    }
    // A run that never finished: its intervals are in their own table.
    QSqlQuery iv(db);
    iv.prepare(QStringLiteral("SELECT sample FROM intervals WHERE run_id = ? ORDER BY seq"));
    iv.addBindValue(id);
    if (iv.exec())
        while (iv.next())
            rec->intervals.append(QJsonDocument::fromJson(iv.value(0).toString().toUtf8()).object());
    return rec;
}

bool RunStore::rename(qint64 id, const QString& name)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE runs SET name = ? WHERE id = ?"));
    q.addBindValue(name.isEmpty() ? QStringLiteral("") : name);
    q.addBindValue(id);
    return q.exec() && q.numRowsAffected() == 1;
}

bool RunStore::setTags(qint64 id, const QStringList& tags)
{
    QStringList clean;
    for (const QString& t : tags)
        if (!t.trimmed().isEmpty() && !t.contains(u','))
            clean << t.trimmed();
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("UPDATE runs SET tags = ? WHERE id = ?"));
    q.addBindValue(clean.isEmpty() ? QStringLiteral("") : clean.join(u','));
    q.addBindValue(id);
    return q.exec() && q.numRowsAffected() == 1;
}

bool RunStore::remove(qint64 id)
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("DELETE FROM runs WHERE id = ?"));
    q.addBindValue(id);
    return q.exec() && q.numRowsAffected() == 1;
}

std::optional<qint64> RunStore::findByName(const QString& name) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT id FROM runs WHERE name = ? ORDER BY started DESC, id DESC LIMIT 1"));
    q.addBindValue(name);
    if (q.exec() && q.next())
        return q.value(0).toLongLong();
    return std::nullopt;
}

QString RunStore::headlineOf(const RunRecord& r)
{
    if (r.kind == u"cloud-compare") // its cases, judged: "6 cases compared: 4 below 80 % of their reachable ceiling"
        return CloudCatalog::headline(r);
    if (const auto m = Comparison::headline(r))
        return Comparison::formatValue(*m);
    if (r.summary.contains(QStringLiteral("tests")))
        return QString::number(r.summary.value(QStringLiteral("tests")).toObject().size()) + QStringLiteral(" tests");
    return r.status;
}
