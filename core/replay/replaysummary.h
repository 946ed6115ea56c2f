#pragma once

#include "core/ldap/loadresult.h"
#include "core/replay/replayfidelity.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

struct RunRecord;

// A replay record's own figures beyond the load's (LoadSummary, LoadInterval), typed: summary.fidelity,
// summary.connections, summary.passwords, summary.writes_undone and what each interval adds. Read here only; the
// window, the report and the CLI printer take these values and the sentences below.

// One row of the fidelity table: a template, its logged against its replayed count and share, the most frequent
// result code of each, the log's server time (etime) against the replay's latency.
struct ReplayTemplateRow
{
    QString templateText, kind;
    double logged = 0, replayed = 0, skippedWrites = 0;
    std::optional<double> loggedShare, replayedShare; // percent of the mix
    QString loggedTopCode, replayedTopCode; // "0", "32", "-" when none
    std::optional<double> etimeP50Ms, etimeP99Ms, latencyP50Ms, latencyP99Ms;
};

// The writes the replay made, put back at its end (summary.writes_undone).
struct ReplayUndo
{
    int restored = 0, removed = 0;
    QStringList failures;
};

struct ReplaySummary
{
    LoadSummary load;
    double loggedOps = 0, replayedOps = 0, skippedWrites = 0, notReplayable = 0, bindsWithoutPassword = 0;
    double cutByDuration = 0, tolerancePp = ReplayFidelity::kTolerancePp;
    QList<ReplayTemplateRow> rows;
    QStringList drift;
    std::optional<ReplayFidelity::RateFidelity> rate; // open loop only
    bool spreadWithinSecond = false;
    double connectionsLogged = 0, connectionsOpened = 0, connectionsFailed = 0, unbinds = 0;
    QString passwords; // "shared-password-file", "passwords-file" or "none"
    std::optional<ReplayUndo> undo; // writes were replayed

    bool hasFidelity() const { return !rows.isEmpty() || loggedOps > 0; }
    static ReplaySummary fromJson(const QJsonObject& summary);
    static ReplaySummary of(const RunRecord& record);

    // The sentences the window, the report and the CLI print, in this order.
    QString countsLine() const; // "1,200 operations logged, 1,150 replayed, 50 writes skipped"
    QString rateLine() const; // the achieved rate against the log's, or "closed loop: …"
    QString perSecondLine() const; // open loop: the per-second spread; empty in a closed loop
    QString connectionsLine() const; // logged, opened, failed, unbinds; how binds got passwords
    QString sendLagLine() const; // open loop: the send lag's p50/p99; empty without one
    QString writesLine() const; // the writes' undo, or that writes were skipped
    QStringList lines() const; // the non-empty ones of the above
};

// What an interval of a replay adds to the load's (LoadInterval): connections opened and closed, the send lag's
// p50/p99 over the interval (open loop) and the rate the log's schedule asked for in it.
struct ReplayIntervalExtra
{
    double connects = 0, unbinds = 0;
    std::optional<double> sendLagP50Ms, sendLagP99Ms;
    std::optional<double> scheduledOpsPerS;

    void writeTo(QJsonObject* interval) const;
    static ReplayIntervalExtra fromJson(const QJsonObject& interval);
};
