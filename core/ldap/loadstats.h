#pragma once

#include "core/common/histogram.h"

#include <QJsonObject>

#include <cstdint>
#include <map>

// What the load's threads count, merged by the coordinator once per interval. Latency in nanoseconds.
struct LoadStats
{
    LatencyHistogram latency;
    uint64_t ok = 0; // operations that succeeded (result 0; compareTrue/False for compare)
    uint64_t errors = 0; // operations that failed (any other result, timeouts, lost connections)
    uint64_t noEntry = 0; // searches that succeeded but returned no entry
    uint64_t entries = 0;
    uint64_t timeouts = 0;
    uint64_t reconnects = 0;
    uint64_t connectFailures = 0;
    std::map<int, uint64_t> resultCodes; // every result, 0 included

    void merge(const LoadStats& o);
    void reset();
    uint64_t ops() const { return ok + errors; }
    QJsonObject resultCodesJson() const;
};
