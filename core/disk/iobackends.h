#pragma once

#include "core/common/proberror.h"

#include <QString>

#include <cstdint>
#include <functional>

class IoMeter;
class RunContext;

// One measured phase: which I/O to issue, how many at once, until when.
struct IoPlan
{
    int fd = -1;
    bool write = false;
    bool random = false;
    bool syncEachWrite = false; // commit: write + fdatasync is one operation
    int64_t fileSize = 0;
    int64_t block = 0;
    int queueDepth = 1;
    double durationSec = 0; // 0: one pass over the file
    uint64_t maxOps = 0; // 0: fileSize / block when durationSec == 0
    bool randomData = false;
    uint64_t seed = 1;
    std::function<bool()> enough; // optional: asked at each meter tick (coordinating thread); true ends the phase
};

struct IoOutcome
{
    ProbeError error; // Kind::None when the phase ended normally
    bool cancelled = false; // the context asked to stop
    QString engine; // "io_uring" | "threads"
};

using ProgressFn = std::function<void(double)>;

// Both keep plan.queueDepth I/Os in flight until the pass, the duration or a stop request ends the phase; after a
// stop they issue nothing new and wait only for what is in flight. Both report every completion to the meter.
IoOutcome runIoUring(
    const IoPlan& plan, IoMeter& meter, RunContext& ctx, const ProgressFn& progress, QString* refusedReason);
IoOutcome runThreads(const IoPlan& plan, IoMeter& meter, RunContext& ctx, const ProgressFn& progress);

// Writes the whole file once (not measured) so reads and overwrites hit allocated blocks; then fdatasync.
ProbeError prefill(
    int fd, int64_t fileSize, bool randomData, RunContext& ctx, const ProgressFn& progress, bool* cancelled);
