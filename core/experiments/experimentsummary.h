#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/loadrecordfacts.h"
#include "core/ldap/loadresult.h"

#include <QList>
#include <QString>

#include <optional>

// A guided experiment's record (thread-sweep, tls-cost, database-size: core/experiments/guided.h) read into typed
// values in one place: the CLI printer and the Experiments page read these fields.
struct ExperimentPoint
{
    std::optional<double> x; // the value of the point's axis (PointAxis::Axis::key)
    std::optional<double> okPerS, opsPerS, errors;
    LatencyFigures latencyMs;
    std::optional<double> loadCpuUsPerOp, clientCpuUsPerOp;
    std::optional<int> serverThreadsRunning; // a server-threads sweep: the threads the server ran
    QString status;

    // The rate a point is drawn at: ok/s, else (a record older than ok/s) its completed ops/s.
    LoadRecordFacts::PointRate rate() const { return LoadRecordFacts::PointRate::of(okPerS, opsPerS); }
    double ratePerS() const { return rate().perS; }
    bool rateCompleted() const { return rate().completed; }
};

struct ExperimentSummary
{
    QList<ExperimentPoint> points;
    bool hasReference = false;
    QString referenceSource, referenceNote;
    double plainMsPerBind = 0, tlsMsPerBind = 0, tlsExtraMs = 0; // tls-cost
    // The experiment's answer, as the CLI, the Experiments page and the report say it: "best 29,270.5 ok/s at 4
    // client threads" (PointAxis::bestText), or for tls-cost "connect + bind: plain 0.412 ms, TLS 1.630 ms
    // (+1.218 ms)"; "" when the record has none (a failed run).
    QString answer;

    // axisKey: the summary.points[] key of the axis (PointAxis::of(r).key).
    static ExperimentSummary of(const RunRecord& r, const QString& axisKey);
    bool completed() const; // some point predates ok/s
};
