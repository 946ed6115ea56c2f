#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

// The agent protocol: one JSON object per line (NDJSON) over the agent's stdin and stdout, whatever carries them
// (`ssh HOST dirbench-cli agent`, a local child process). Human text goes to stderr only. Every message has
// "type"; the coordinator (C) and the agent (A) exchange, in this order:
//   A→C hello    {proto, version, host, pid, cpus, realtime_ns, monotonic_ns}
//   C→A spec     {proto, args: [the `ldap` command line of this agent's share], password, run_tag, index,
//                 agents, deadline_s} — the password travels here, never on a command line (ps shows those);
//                 or {proto, engine: "disk", engine_spec: DiskSpec::toWire(), deadline_s}: one engine run on
//                 the agent's own host (core/agents/remoterun.h), which then sends
//   A→C started  {realtime_ns, monotonic_ns}, progress {fraction, phase}, interval {index, interval}, and
//   A→C final    {status, record: the whole record the engine made there} — then the agent exits
//   A→C ready    {connections} — connected, bound; the workers warm the server up from here on
//   C→A ping     {t1}                      A→C pong {t1, realtime_ns, monotonic_ns} (the agent's clocks)
//   C→A start    {at_epoch_ns} — in the agent's own CLOCK_REALTIME (the coordinator corrected it by the offset)
//   A→C started  {realtime_ns, monotonic_ns} — when its measured phase actually began
//   A→C interval {index, interval: a record's intervals[i] with latency_histogram_ns, also per by_operation,
//                 cpu_s: the agent's CPU seconds so far (optional)}
//   A→C final    {status, failure, summary, warnings, cpu_s} — then the agent exits
//   C→A stop     {reason} — stop now (cancel, another agent lost); closing the agent's stdin means the same
//   A→C error    {message, exit} — the agent could not run (bad spec, cannot connect); then it exits
namespace Agents {

constexpr int kProtocol = 1;

QByteArray encode(const QJsonObject& message); // compact JSON and a newline
// One line (without its newline) back to an object with a "type"; nullopt and *error otherwise.
std::optional<QJsonObject> decode(const QByteArray& line, QString* error);

// Splits a stream into lines: feed() what arrived, then take() the complete lines (a partial one is kept).
class LineBuffer
{
public:
    void feed(const QByteArray& bytes) { m_buf += bytes; }
    QList<QByteArray> take();
    bool hasPartial() const { return !m_buf.isEmpty(); }

private:
    QByteArray m_buf;
};

int64_t realtimeNs(); // CLOCK_REALTIME
uint64_t monotonicNs(); // CLOCK_MONOTONIC (LoadWorker::nowNs)
// The CLOCK_MONOTONIC instant that corresponds to an instant of CLOCK_REALTIME (read both clocks now).
uint64_t monotonicAt(int64_t epochNs);

QJsonObject hello(const QString& version, int64_t realtime);
QJsonObject ping(int64_t t1);
QJsonObject pong(int64_t t1, int64_t realtime, uint64_t monotonic);
QJsonObject start(int64_t atEpochNs);
QJsonObject stop(const QString& reason);
QJsonObject error(const QString& message, int exitCode);

struct AgentSpec
{
    QString engine; // "" (a share of an LDAP load: args) or an engine run on the agent's host ("disk")
    QJsonObject engineSpec; // that engine's typed spec, in its wire form
    QStringList args; // "search" "--uri" ... (the `ldap` command line without dirbench-cli ldap)
    QByteArray password;
    QByteArray runTag;
    int index = 0;
    int agents = 1;
    double deadlineS = 0; // the agent stops by itself this long after it received the spec (0: none)

    QJsonObject toJson() const;
    static std::optional<AgentSpec> fromJson(const QJsonObject& o, QString* error);
};

// One ping/pong round: t1 and t3 on the coordinator's CLOCK_REALTIME, t2 on the agent's.
struct ClockRound
{
    int64_t t1 = 0, t2 = 0, t3 = 0;
    int64_t rttNs() const { return t3 - t1; }
    int64_t offsetNs() const { return t2 - (t1 + t3) / 2; } // agent's clock minus the coordinator's
};
// The round with the lowest round trip (its offset is the best bounded); nullopt for none.
std::optional<ClockRound> bestRound(const QList<ClockRound>& rounds);

} // namespace Agents
