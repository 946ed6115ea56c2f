#pragma once

// Typed LDAP load figures for tests that need a record without running a load (core/ldap/loadresult.h).
#include "core/ldap/loadresult.h"

#include <QJsonObject>

// `ops` completed in `seconds`, `errors` of them failed with noSuchObject (32); latencies scaled from `p99`.
inline OpFigures testFigures(double ops, double errors, double seconds, double p99)
{
    OpFigures f;
    f.ops = ops;
    f.ok = ops - errors;
    f.errors = errors;
    f.opsPerS = ops / seconds;
    f.okPerS = f.ok / seconds;
    f.resultCodes[0] = f.ok;
    if (errors > 0)
        f.resultCodes[32] = errors;
    f.latencyMs.mean = p99 / 3;
    f.latencyMs.p50 = p99 / 4;
    f.latencyMs.p95 = p99 / 2;
    f.latencyMs.p99 = p99;
    f.latencyMs.p999 = p99 * 1.5;
    f.latencyMs.max = p99 * 2;
    return f;
}

// A load's summary as the engine writes it: `ok` and `ok_per_s` beside `ops` and `ops_per_s`.
inline QJsonObject testLoadSummary(double ok, double errors, double seconds, double p50 = 0.5, double p99 = 2.0)
{
    LoadSummary s;
    s.seconds = seconds;
    s.all.ok = ok;
    s.all.errors = errors;
    s.all.ops = ok + errors;
    s.all.okPerS = ok / seconds;
    s.all.opsPerS = (ok + errors) / seconds;
    s.all.latencyMs.mean = p50;
    s.all.latencyMs.p50 = p50;
    s.all.latencyMs.p99 = p99;
    return s.toJson();
}
