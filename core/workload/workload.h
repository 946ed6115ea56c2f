#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

// A workload: the operations of a logged directory's clients, connection by connection, in log order, with their
// times and the server's own view of each. Made from access logs (core/workload parsers, `workload analyze`),
// kept in a .dbwl file (`--save`), and replayed (`replay`). No network here, no widgets.

enum class WorkloadOpKind
{
    Bind,
    Search,
    Compare,
    Modify,
    Add,
    Delete,
    ModRdn,
    Extended,
    Abandon,
    Unbind
};

// "bind", "search", ... as in a record's `by_operation` (LdapLoadSpec::opName where the load has the kind).
QString workloadOpName(WorkloadOpKind kind);
std::optional<WorkloadOpKind> workloadOpKind(const QString& name);

// A filter with its values taken out: "(&(objectClass=?1)(uid=?2))"; AND/OR parts in a canonical order, slots
// numbered in that order. Writes and binds have templates too (their DN with values taken out: "uid=?1,ou=?2,...").
struct WorkloadTemplate
{
    WorkloadOpKind kind = WorkloadOpKind::Search;
    QString text; // the template as shown and as the JSON's "template"
    int slotCount = 0; // how many ?N it holds
};

// One operation as logged.
struct WorkloadOp
{
    uint64_t offsetNs = 0; // request time since the workload's first event
    WorkloadOpKind kind = WorkloadOpKind::Search;
    int templateId = -1; // Workload::templates index, -1 for none (unbind, abandon, extended)
    QStringList values; // slot values in slot order: pseudonyms ("v17") when anonymised, else the logged values
    QString base; // search base / the DN of a bind or write, with its values as in `values` where templated
    int scope = 2; // 0 base, 1 one, 2 sub
    QStringList attrs; // requested attributes (search), changed attributes (modify)
    std::optional<QString> extendedOid; // EXT
    int abandonTarget = -1; // ABANDON: the op number abandoned
    // Write values: only accesslog LDIF carries them; else the logged sizes are unknown and the replay makes its own.
    std::vector<std::pair<QString, QStringList>> writeValues;
    // The server's own answer, from the log's RESULT (absent where the log has none, e.g. a cut-off log).
    std::optional<int> resultCode;
    std::optional<int64_t> entries; // nentries
    std::optional<double> etimeMs, wtimeMs, optimeMs; // 389: etime/wtime/optime; OpenLDAP: etime (and qtime)
    std::optional<uint64_t> resultOffsetNs;
    bool unindexed = false; // notes=U (or A)
    bool filterTruncated = false; // the log cut the filter (389: 512 characters)
};

// One logged client connection.
struct WorkloadConnection
{
    uint64_t id = 0; // the log's conn=
    QString client; // source address (pseudonymised when anonymised)
    std::optional<uint64_t> openNs, closeNs; // offsets; absent where the log began or ended inside the connection
    std::vector<WorkloadOp> ops; // in log order
};

struct WorkloadSource
{
    QString format; // "389-access", "openldap-stats", "accesslog-ldif"
    QStringList files;
    QString first, last; // ISO 8601 with the log's precision
    uint64_t firstEpochNs = 0; // wall clock of offset 0
};

struct Workload
{
    WorkloadSource source;
    std::vector<WorkloadTemplate> templates;
    std::vector<WorkloadConnection> connections;
    bool anonymised = true;
    bool valuesKept = false; // the logged values are in `values` (--values log may be used)
    QStringList gaps; // what the log cannot give: "filters cut at 512 characters (3)", "no write values", ...
    QJsonObject analysis; // the dirbench.workload/1 analysis it was saved with, if any

    uint64_t operationCount() const;
    // The log gave whole seconds only (389-ds without high-resolution time, syslog): every operation's time is a
    // whole second after the first event (and there are at least two). The replay spreads each second's operations.
    bool secondTimestamps() const;
};
