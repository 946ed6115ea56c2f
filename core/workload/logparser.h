#pragma once

#include "core/workload/workload.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

// One operation as the log tells it: its request joined with its result on (connection, operation). Either half
// may be missing: the log began after the request (haveRequest false: the kind comes from the result's tag) or
// ended, or the connection closed, before the result (haveResult false). Times are ns since the epoch, 0 unknown.
struct JoinedOp
{
    uint64_t conn = 0;
    int64_t op = -1;
    WorkloadOpKind kind = WorkloadOpKind::Search;
    bool haveRequest = false;
    bool haveResult = false;
    uint64_t startNs = 0, endNs = 0;
    std::string dn; // search base, or the DN of a bind, compare or write
    std::string filter; // search
    int scope = -1;
    std::string attrs; // requested (search), changed (modify, accesslog), compared (compare); space separated
    std::string newRdn, newSuperior; // modrdn
    std::string oid; // extended
    int64_t abandonTarget = -1;
    bool filterCut = false; // the log cut the filter (389: at 512 characters, written with "...")
    std::vector<std::pair<std::string, std::vector<std::string>>> writeValues; // accesslog reqMod / add values
    int err = -1;
    int64_t nentries = -1;
    double etimeMs = -1, wtimeMs = -1, optimeMs = -1, qtimeMs = -1; // -1: not logged
    bool unindexed = false; // 389 notes=U or A

    void clear();
    // A search of the server's monitor (a base whose first or last RDN is cn=monitor: OpenLDAP's cn=Monitor tree,
    // 389-ds's cn=monitor, cn=snmp,cn=monitor and the backends' cn=monitor,cn=NAME,...): what a tool reads
    // beside a load (DirBench's own per-interval reads among them), not the load.
    bool isMonitorRead() const;
};

// Receives what a parser makes of a log, in log order of the events that complete them.
class WorkloadSink
{
public:
    virtual ~WorkloadSink() = default;
    virtual void connectionOpened(uint64_t conn, uint64_t ns, std::string_view client) = 0;
    virtual void operation(const JoinedOp& op) = 0;
    virtual void connectionClosed(uint64_t conn, uint64_t ns) = 0;
};

// What a parser counted beside the operations.
struct ParseStats
{
    uint64_t lines = 0;
    uint64_t ignoredLines = 0; // not an access-log event (headers, other messages, garbage), or not understood
    uint64_t operationsRecognised = 0; // requests and results understood (an operation is one or both)
    uint64_t eventLines = 0; // lines that look like an event ("conn=N ...", an accesslog entry), understood or not
    uint64_t unknownLines = 0; // of those, the ones not understood
    std::string unknownExample; // the first of them, cut at 200 bytes
    uint64_t cutLines = 0; // events whose line ended early (a truncated log)
    uint64_t filtersCut = 0;
    uint64_t resultsWithoutRequest = 0;
    uint64_t requestsWithoutResult = 0;
    uint64_t firstNs = 0, lastNs = 0;
    bool subSecond = false; // timestamps finer than a second were seen
};

// Joins requests and results on (connection, operation) in bounded memory: per connection at most
// MaxPendingPerConnection requests wait for their result (the oldest is handed on without one beyond that);
// a closed connection hands on its waiting requests; finish() hands on all that remain.
class OpJoiner
{
public:
    static constexpr size_t MaxPendingPerConnection = 64;
    explicit OpJoiner(WorkloadSink* sink, ParseStats* stats)
        : m_sink(sink)
        , m_stats(stats)
    { }
    // A request (copied: the caller keeps its buffers); operations without a result (unbind, abandon) are handed
    // on at once.
    void request(const JoinedOp& op);
    // The result of (conn, op): `fill` sets the result fields of the joined operation (or of a fresh one whose
    // kind is `kindFromTag`, when the request is not in the log).
    template <typename Fill>
    void result(uint64_t conn, int64_t op, std::optional<WorkloadOpKind> kindFromTag, Fill&& fill)
    {
        ++m_stats->operationsRecognised;
        JoinedOp* j = findPending(conn, op);
        if (!j) {
            m_orphan.clear();
            m_orphan.conn = conn;
            m_orphan.op = op;
            m_orphan.kind = kindFromTag.value_or(WorkloadOpKind::Extended);
            fill(m_orphan);
            m_orphan.haveResult = true;
            ++m_stats->resultsWithoutRequest;
            m_sink->operation(m_orphan);
            return;
        }
        fill(*j);
        j->haveResult = true;
        m_sink->operation(*j);
        dropPending(conn, j);
    }
    // The request of (conn, op) still waiting for its result, to add what a follow-up line says (OpenLDAP's
    // "SRCH attr=", "MOD attr="); null when there is none.
    JoinedOp* pending(uint64_t conn, int64_t op) { return findPending(conn, op); }
    // An operation with its request and result already together (accesslog).
    void complete(const JoinedOp& op)
    {
        ++m_stats->operationsRecognised;
        m_sink->operation(op);
    }
    void opened(uint64_t conn, uint64_t ns, std::string_view client);
    void closed(uint64_t conn, uint64_t ns);
    void finish();

private:
    // Waiting requests live in a pool of JoinedOps reused (with their string buffers) from one request to the next.
    struct Pending
    {
        std::vector<uint32_t> waiting; // m_pool indices, in request order
        bool closed = false; // its close line was read; its last results may still follow
        uint64_t closeNs = 0; // handed on as the close once the last of them is in
    };
    // 389-ds's threads write a connection's close line and its last result in either order (the close can come
    // first, stamped microseconds earlier): a closed connection's requests wait for their results until this many
    // connections closed after it, its number is reused, or the log ends; the close is handed on after them.
    static constexpr size_t ClosedConnectionsKept = 256;
    JoinedOp* findPending(uint64_t conn, int64_t op);
    void dropPending(uint64_t conn, JoinedOp* j);
    void flushConnection(Pending& p);
    void closeAfterFlush(uint64_t conn, Pending& p);
    uint32_t takeSlot();

    WorkloadSink* m_sink;
    ParseStats* m_stats;
    std::unordered_map<uint64_t, Pending> m_pending;
    std::deque<uint64_t> m_closedWaiting; // closed connections with requests waiting, oldest first
    std::vector<JoinedOp> m_pool;
    std::vector<uint32_t> m_free;
    JoinedOp m_orphan;
};

enum class LogFormat
{
    Auto,
    Ds389,
    OpenLdap,
    AccesslogLdif
};

// "389", "openldap", "accesslog-ldif" (as --format takes them), and the record's names.
std::optional<LogFormat> logFormatFromOption(const QString& name);
QString logFormatName(LogFormat f); // "389-access", "openldap-stats", "accesslog-ldif"

// A parser of one log format: lines in, joined operations out to the sink.
class LogParser
{
public:
    virtual ~LogParser() = default;
    virtual void line(std::string_view line) = 0;
    // The end of the input: requests still waiting are handed on without a result.
    virtual void finish() = 0;
    // The time of a line (ns since the epoch), for ordering rotated files.
    virtual std::optional<uint64_t> timeOf(std::string_view line) const = 0;
    // What this format cannot give (Workload::gaps), given what was parsed.
    virtual QStringList gaps() const = 0;
    const ParseStats& stats() const { return m_stats; }
    // A line that looks like an access-log event but is none this parser knows (counted, the first kept).
    void notUnderstood(std::string_view line)
    {
        ++m_stats.ignoredLines;
        if (!m_stats.unknownLines++)
            m_stats.unknownExample.assign(line.substr(0, 200));
    }

    static std::unique_ptr<LogParser> create(LogFormat format, WorkloadSink* sink);
    // The format of a log from its first lines (Auto when none fits).
    static LogFormat detect(const std::vector<std::string>& firstLines);

protected:
    void noteTime(uint64_t ns)
    {
        if (!ns)
            return;
        if (!m_stats.firstNs || ns < m_stats.firstNs)
            m_stats.firstNs = ns;
        if (ns > m_stats.lastNs)
            m_stats.lastNs = ns;
    }
    ParseStats m_stats;
};
