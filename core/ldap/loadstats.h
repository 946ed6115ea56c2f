#pragma once

#include "core/common/histogram.h"

#include <array>
#include <cstdint>
#include <map>

// What the load's threads count about one kind of operation (or all of them) in one interval. Latency in
// nanoseconds, one sample per operation that got an answer or timed out (a local failure or a connection lost
// with the operation in flight is an error without a latency sample).
struct LoadCounts
{
    LatencyHistogram latency;
    uint64_t ok = 0; // succeeded: result 0 (compareFalse/True for compare), or a code of --ok-codes
    uint64_t errors = 0; // any other result, timeouts, lost connections, local failures
    uint64_t noEntry = 0; // searches that succeeded but returned no entry
    uint64_t entries = 0; // entries returned by successful searches
    uint64_t timeouts = 0;
    std::map<int, uint64_t> resultCodes; // every result, 0 included

    uint64_t ops() const { return ok + errors; }
    bool empty() const { return ok == 0 && errors == 0; }
    void merge(const LoadCounts& o);
    void reset();
};

// What the load's threads count in one interval, merged by the coordinator: all operations, each kind of
// operation (indexed by LdapOpKind), and what belongs to no operation.
struct LoadStats
{
    static constexpr int OpKinds = 5; // LdapOpKind's values
    LoadCounts all;
    std::array<LoadCounts, OpKinds> byOp;
    uint64_t reconnects = 0;
    uint64_t connectFailures = 0;
    uint64_t missed = 0; // open loop: scheduled arrivals that could not be sent in time, never sent
    LatencyHistogram sendLag; // open loop: from an operation's scheduled time to the write that sent it (ns)

    void merge(const LoadStats& o);
    void reset();
};
