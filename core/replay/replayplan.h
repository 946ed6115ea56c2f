#pragma once

#include "core/common/proberror.h"
#include "core/replay/replayspec.h"
#include "core/workload/workload.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// A workload turned into what the replay engine sends: per logged connection, its operations in log order, each
// with its scheduled time (ns after the replay starts), whether it may be sent before the previous operation's
// result (only where the log shows its request before that result), and the request itself, rendered.
//
// Timing: --speed K: each logged time divided by K; a log of whole seconds (Workload::secondTimestamps) has each
// second's operations put at random positions in it first, drawn from the spec's seed, in log order. --rate-profile:
// the log's operations per second kept, second by second, and spread evenly inside each second, in log order.
// --as-fast-as-possible: no times (closed loop).
// --duration S drops what is scheduled after S seconds (open loop).
//
// Values (--values mapped, the default): every slot whose attribute is the key space's (uid=?1, or the first RDN
// uid=?1 of a DN) takes the key space's value of its token's frequency rank: the workload's most frequent token in
// those slots becomes key 0 (user0 for uid=user[0-99999]), the next key 1, ties broken by first appearance; a
// token maps to the same key everywhere (a search filter and a bind DN agree), so the skew and the repeats of the
// log survive and its values do not. Ranks beyond the key space wrap around (counted: keys_folded). Tokens that
// are the RDN of a logged add are new entries: they become uid=dirbench-replay-TAG-N under --write-base, in
// filters too. Other slots keep their logged token. A DN whose first RDN is the key space's attribute is
// ATTR=value,PARENT when the key space names a parent. Writes are replayed under --write-base (the logged DN's
// first RDN, mapped, then the write base); without --allow-writes they are not sent and are counted.
// --values log: the logged values as they are.
struct ReplayOp
{
    enum class Action
    {
        Send,
        SkipWrite, // a write, without --allow-writes
        NoPassword, // a bind whose DN has no password in --passwords
        NotReplayable, // modrdn, extended, abandon: counted, not sent
        Unbind // the connection closes here
    };
    Action action = Action::Send;
    WorkloadOpKind kind = WorkloadOpKind::Search;
    int templateId = -1;
    uint64_t atNs = 0;
    bool mayOverlap = false;
    QByteArray dn; // search base, or the entry of a bind, compare or write
    QByteArray filter; // search
    int scope = 2;
    std::vector<QByteArray> attrs; // search: requested attributes
    QByteArray attr, value; // compare, modify
    QByteArray password; // bind (never written anywhere)
    QByteArray uid; // add: the new entry's uid
    // The log's view, for the fidelity report.
    std::optional<int> loggedCode;
    std::optional<int64_t> loggedEntries;
    std::optional<double> loggedEtimeMs;
};

struct ReplayConnectionPlan
{
    uint64_t logId = 0;
    uint64_t openAtNs = 0;
    uint64_t closeAtNs = 0; // not before this (and not before every operation finished)
    std::vector<ReplayOp> ops;
};

struct ReplayPlanCount
{
    uint64_t logged = 0, send = 0, skippedWrites = 0, notReplayable = 0, noPassword = 0;
};

class ReplayPlan
{
public:
    // `passwords` may be null (dry run: binds are counted as sent). `runTag` names the entries added.
    static std::optional<ReplayPlan> make(const Workload& workload, const ReplaySpec& spec,
        const ReplayPasswords* passwords, const QString& runTag, ProbeError* error);

    std::vector<ReplayConnectionPlan> connections;
    std::vector<WorkloadTemplate> templates;
    std::vector<ReplayPlanCount> byTemplate; // indexed like templates
    ReplayPlanCount total; // every operation but unbinds
    uint64_t cutByDuration = 0;
    uint64_t keysFolded = 0; // distinct tokens beyond the key space
    uint64_t mappedTokens = 0;
    bool closedLoop = false;
    bool spread = false; // whole-second log times spread over their second at random (ReplaySpec::seed)
    uint64_t spanNs = 0; // the last scheduled time
    uint64_t loggedSpanNs = 0; // the log's own time from the first to the last operation kept
    // Writes: existing entries the replay modifies or deletes (read before, restored after), and entries it adds.
    std::vector<QByteArray> touchedDns, addedDns;
    QJsonObject mapping; // {"key_space", "tokens", "keys_folded", "top": [{"token", "count", "key"}...]}

    // What --dry-run prints: counts per template and per connection (JSON and text).
    QJsonObject dryRunJson() const;
    QString dryRunText() const;
};
