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
    bool uniqueData = false; // false: zeros
    bool append = false; // commit --commit-append: offsets only grow; the phase ends at fileSize
    uint64_t seed = 1;
    std::function<bool()> enough; // optional: asked at each meter tick (coordinating thread); true ends the phase
};

// A permutation of [0, n) without memory per element: a 4-round Feistel network over the smallest even-bit
// power of two >= n, keyed by the seed, with cycle-walking back into [0, n) (at most 4 steps on average).
class BlockPermutation
{
public:
    BlockPermutation(uint64_t n, uint64_t seed);
    uint64_t at(uint64_t i) const; // i < n
    uint64_t size() const { return m_n; }

private:
    uint64_t encrypt(uint64_t x) const;
    uint64_t m_n;
    unsigned m_halfBits;
    uint64_t m_mask;
    uint64_t m_keys[4];
};

struct IoOutcome
{
    ProbeError error; // Kind::None when the phase ended normally
    bool cancelled = false; // the context asked to stop
    QString engine; // "io_uring" | "threads"
    double setupSec = 0; // ring, buffers and threads made ready before the measured span began
};

using ProgressFn = std::function<void(double)>;

// Both set up first (ring, buffers, threads), then begin the meter and the duration: setup is never measured.
// Both keep plan.queueDepth I/Os in flight until the pass, the duration or a stop request ends the phase; after a
// stop they issue nothing new and wait only for what is in flight. Both report every completion to a recorder of the
// meter, one per thread.
IoOutcome runIoUring(
    const IoPlan& plan, IoMeter& meter, RunContext& ctx, const ProgressFn& progress, QString* refusedReason);
IoOutcome runThreads(const IoPlan& plan, IoMeter& meter, RunContext& ctx, const ProgressFn& progress);

// Writes the whole file once (not measured) so reads and overwrites hit allocated blocks; then fdatasync.
ProbeError prefill(int fd, int64_t fileSize, bool uniqueData, uint64_t seed, RunContext& ctx,
    const ProgressFn& progress, bool* cancelled);
