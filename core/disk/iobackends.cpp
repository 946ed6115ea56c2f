#include "core/disk/iobackends.h"

#include "core/disk/iometer.h"
#include "core/disk/testfile.h"
#include "core/run/runcontext.h"

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <liburing.h>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

// Decides what the next I/O is and whether the phase may issue another one. Random offsets follow a
// permutation of the file's blocks, a fresh one each pass: one pass writes or reads every block exactly once.
class OpSource
{
public:
    explicit OpSource(const IoPlan& p)
        : m_plan(p)
        , m_blocks(uint64_t(p.fileSize / p.block))
        , m_maxOps(p.maxOps ? p.maxOps : (p.durationSec > 0 && !p.append ? 0 : m_blocks))
    { }

    // The measured span begins: the duration counts from here.
    void start()
    {
        if (m_plan.durationSec > 0)
            m_deadline = IoMeter::nowNs() + uint64_t(m_plan.durationSec * 1e9);
    }

    // Thread-safe. Returns false when the phase must not issue more. `sequence` numbers the I/O in the phase.
    bool next(uint64_t& offset, uint64_t& sequence)
    {
        if (m_stop.load(std::memory_order_relaxed))
            return false;
        const uint64_t n = m_issued.fetch_add(1, std::memory_order_relaxed);
        if (m_maxOps && n >= m_maxOps)
            return false;
        if (m_deadline && (n & 15) == 0 && IoMeter::nowNs() >= m_deadline) {
            m_stop.store(true);
            return false;
        }
        const uint64_t pass = n / m_blocks, i = n % m_blocks;
        const uint64_t block = m_plan.random ? BlockPermutation(m_blocks, m_plan.seed + pass).at(i) : i;
        offset = block * uint64_t(m_plan.block);
        sequence = n;
        return true;
    }

    void stop() { m_stop.store(true); }
    bool stopped() const { return m_stop.load(); }
    bool timeUp() const { return m_deadline && IoMeter::nowNs() >= m_deadline; }

    double progress() const
    {
        if (m_deadline) {
            const double total = m_plan.durationSec * 1e9;
            const double left = double(int64_t(m_deadline - IoMeter::nowNs()));
            return 1.0 - left / total;
        }
        return m_maxOps ? double(std::min(m_issued.load(), m_maxOps)) / double(m_maxOps) : 0.0;
    }

private:
    const IoPlan& m_plan;
    const uint64_t m_blocks;
    const uint64_t m_maxOps;
    uint64_t m_deadline = 0; // set by start(), before any worker reads it
    std::atomic<uint64_t> m_issued { 0 };
    std::atomic<bool> m_stop { false };
};

// Each slot's buffer gets its own random base; a write refreshes it in place (UniqueData::stamp).
AlignedBuffer writeBuffer(const IoPlan& plan, uint64_t index)
{
    AlignedBuffer buf { size_t(plan.block) };
    if (plan.write && plan.uniqueData && buf.data)
        UniqueData::fillRandom(buf.data, buf.size, plan.seed * 1000 + index);
    return buf;
}

void refresh(const IoPlan& plan, AlignedBuffer& buf, uint64_t offset, uint64_t sequence)
{
    if (plan.write && plan.uniqueData)
        UniqueData::stamp(buf.data, buf.size, plan.seed, offset, sequence);
}

QString what(const IoPlan& p, uint64_t offset)
{
    return (p.write ? QStringLiteral("writing") : QStringLiteral("reading"))
        + QStringLiteral(" the test file at offset ") + QString::number(offset);
}

ProbeError shortIo(const IoPlan& p, uint64_t offset, int64_t got)
{
    if (p.write)
        // A short write is how a file system says it has no room left for the rest.
        return ProbeError::fromErrno(ENOSPC,
            what(p, offset) + QStringLiteral(": short write of ") + QString::number(got) + QStringLiteral(" bytes"));
    ProbeError e = ProbeError::fromErrno(EIO, what(p, offset) + QStringLiteral(": short read"));
    return e;
}

} // namespace

BlockPermutation::BlockPermutation(uint64_t n, uint64_t seed)
    : m_n(std::max<uint64_t>(n, 1))
{
    unsigned bits = 2;
    while (bits < 64 && (uint64_t(1) << bits) < m_n)
        bits += 2;
    m_halfBits = bits / 2;
    m_mask = (uint64_t(1) << m_halfBits) - 1;
    uint64_t k = seed;
    for (auto& key : m_keys)
        key = k = UniqueData::splitmix64(k);
}

uint64_t BlockPermutation::encrypt(uint64_t x) const
{
    uint64_t left = x >> m_halfBits, right = x & m_mask;
    for (const uint64_t key : m_keys) {
        const uint64_t f = UniqueData::splitmix64(right ^ key) & m_mask;
        const uint64_t next = left ^ f;
        left = right;
        right = next;
    }
    return (left << m_halfBits) | right;
}

uint64_t BlockPermutation::at(uint64_t i) const
{
    // Cycle-walking: the network permutes [0, 4^h); following it from i until it lands below n permutes [0, n).
    uint64_t x = encrypt(i);
    while (x >= m_n)
        x = encrypt(x);
    return x;
}

IoOutcome runIoUring(
    const IoPlan& plan, IoMeter& meter, RunContext& ctx, const ProgressFn& progress, QString* refusedReason)
{
    IoOutcome out;
    out.engine = QStringLiteral("io_uring");
    const uint64_t setupStart = IoMeter::nowNs();
    io_uring ring {};
    const unsigned entries = unsigned(std::max(plan.queueDepth, 1));
    // As fio sets its rings up: completions run when this (single) thread asks for them, not by interrupting it.
    int rc = io_uring_queue_init(
        entries, &ring, IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
    if (rc == -EINVAL) // kernels before 6.1
        rc = io_uring_queue_init(entries, &ring, 0);
    if (rc < 0) {
        if (refusedReason)
            *refusedReason = QStringLiteral("io_uring_queue_init: ") + QString::fromLocal8Bit(strerror(-rc));
        out.engine.clear();
        return out;
    }
    int fd = plan.fd;
    int fdFlag = 0;
    if (io_uring_register_files(&ring, &fd, 1) == 0) {
        fd = 0; // index into the registered table
        fdFlag = IOSQE_FIXED_FILE;
    }

    struct Slot
    {
        AlignedBuffer buf;
        uint64_t start = 0;
        uint64_t offset = 0;
    };
    std::vector<Slot> slotTable;
    slotTable.reserve(entries);
    for (unsigned i = 0; i < entries; ++i)
        slotTable.push_back({ writeBuffer(plan, i), 0, 0 });

    OpSource src(plan);
    IoMeter::Recorder& recorder = meter.newRecorder(); // this thread alone completes and ticks
    unsigned inflight = 0;
    auto issue = [&](unsigned slot) -> bool {
        uint64_t off = 0, seq = 0;
        if (ctx.stopRequested()) {
            out.cancelled = true;
            src.stop();
        }
        if (!src.next(off, seq))
            return false;
        io_uring_sqe* sqe = io_uring_get_sqe(&ring);
        if (!sqe)
            return false;
        Slot& s = slotTable[slot];
        refresh(plan, s.buf, off, seq);
        if (plan.write)
            io_uring_prep_write(sqe, fd, s.buf.data, unsigned(plan.block), off);
        else
            io_uring_prep_read(sqe, fd, s.buf.data, unsigned(plan.block), off);
        sqe->flags |= uint8_t(fdFlag);
        io_uring_sqe_set_data64(sqe, slot);
        s.offset = off;
        s.start = IoMeter::nowNs();
        ++inflight;
        return true;
    };

    // Setup is done: the measured span starts with the first submission.
    out.setupSec = double(IoMeter::nowNs() - setupStart) / 1e9;
    meter.begin();
    src.start();
    for (unsigned i = 0; i < entries; ++i)
        if (!issue(i))
            break;
    io_uring_submit(&ring);
    const unsigned refillBatch = std::max(1u, entries / 8);
    unsigned pending = 0;

    while (inflight > 0) {
        io_uring_cqe* cqe = nullptr;
        __kernel_timespec ts { 0, 50 * 1000 * 1000 };
        const int w = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
        if (w == -ETIME || w == -EINTR || w == -EAGAIN) {
            meter.tick();
            progress(src.progress());
            if (ctx.stopRequested()) {
                out.cancelled = true;
                src.stop();
            }
            if (plan.enough && plan.enough())
                src.stop();
            continue;
        }
        if (w < 0) {
            out.error = ProbeError::fromErrno(-w, QStringLiteral("waiting for io_uring completions"));
            break;
        }
        unsigned head = 0, seen = 0;
        const uint64_t now = IoMeter::nowNs();
        io_uring_for_each_cqe(&ring, head, cqe)
        {
            ++seen;
            --inflight;
            const auto slot = unsigned(io_uring_cqe_get_data64(cqe));
            Slot& s = slotTable[slot];
            if (cqe->res < 0) {
                if (!out.error.isError())
                    out.error = ProbeError::fromErrno(-cqe->res, what(plan, s.offset));
                src.stop();
                continue;
            }
            if (cqe->res != plan.block) {
                if (!out.error.isError())
                    out.error = shortIo(plan, s.offset, cqe->res);
                src.stop();
                continue;
            }
            // A refill submitted in this loop may complete within it (task work runs at submit): its start is
            // after `now`, so take the clock again rather than record a negative time.
            const uint64_t done = s.start > now ? IoMeter::nowNs() : now;
            recorder.recordAt(done, done - s.start, uint64_t(cqe->res));
            // Refill at once, and hand refills to the kernel every few, so the device's queue does not drain
            // while a large batch of completions is processed.
            if (issue(slot) && ++pending >= refillBatch) {
                io_uring_submit(&ring);
                pending = 0;
            }
        }
        io_uring_cq_advance(&ring, seen);
        if (pending) {
            io_uring_submit(&ring);
            pending = 0;
        }
        meter.tick();
        if (plan.enough && plan.enough())
            src.stop();
        progress(src.progress());
    }
    // Drop the ring's reference to the file now: the ring's own teardown is asynchronous, and the file system
    // must be free (to unmount, say) as soon as the test returns.
    if (fdFlag)
        io_uring_unregister_files(&ring);
    io_uring_queue_exit(&ring);
    if (ctx.stopRequested())
        out.cancelled = true;
    return out;
}

IoOutcome runThreads(const IoPlan& plan, IoMeter& meter, RunContext& ctx, const ProgressFn& progress)
{
    IoOutcome out;
    out.engine = QStringLiteral("threads");
    const uint64_t setupStart = IoMeter::nowNs();
    OpSource src(plan);
    std::mutex mu;
    std::condition_variable cv;
    int running = plan.queueDepth;
    bool go = false;
    ProbeError firstError;
    std::vector<AlignedBuffer> buffers;
    buffers.reserve(size_t(plan.queueDepth));
    for (int i = 0; i < plan.queueDepth; ++i)
        buffers.push_back(writeBuffer(plan, uint64_t(i)));
    std::vector<IoMeter::Recorder*> recorders; // one per thread: no lock shared between them
    recorders.reserve(size_t(plan.queueDepth));
    for (int i = 0; i < plan.queueDepth; ++i)
        recorders.push_back(&meter.newRecorder());

    auto worker = [&](int index) {
        AlignedBuffer& buf = buffers[size_t(index)];
        IoMeter::Recorder& recorder = *recorders[size_t(index)];
        {
            std::unique_lock lock(mu);
            cv.wait(lock, [&] { return go; });
        }
        uint64_t off = 0, seq = 0;
        while (src.next(off, seq)) {
            refresh(plan, buf, off, seq);
            const uint64_t t0 = IoMeter::nowNs();
            ssize_t r = plan.write ? ::pwrite(plan.fd, buf.data, size_t(plan.block), off_t(off))
                                   : ::pread(plan.fd, buf.data, size_t(plan.block), off_t(off));
            int err = r < 0 ? errno : 0;
            if (r == plan.block && plan.syncEachWrite && ::fdatasync(plan.fd) != 0) {
                err = errno;
                r = -1;
            }
            if (r != plan.block) {
                std::lock_guard lock(mu);
                if (!firstError.isError())
                    firstError = r < 0 ? ProbeError::fromErrno(err, what(plan, off)) : shortIo(plan, off, r);
                src.stop();
                break;
            }
            recorder.complete(t0, uint64_t(r)); // reads the completion time itself
        }
        std::lock_guard lock(mu);
        --running;
        cv.notify_all();
    };

    std::vector<std::thread> threads;
    threads.reserve(size_t(plan.queueDepth));
    for (int i = 0; i < plan.queueDepth; ++i)
        threads.emplace_back(worker, i);
    {
        // Threads and buffers are ready: the measured span starts as they are let go.
        std::unique_lock lock(mu);
        out.setupSec = double(IoMeter::nowNs() - setupStart) / 1e9;
        meter.begin();
        src.start();
        go = true;
        cv.notify_all();
        while (running > 0) {
            cv.wait_for(lock, std::chrono::milliseconds(20));
            lock.unlock();
            meter.tick();
            progress(src.progress());
            if (ctx.stopRequested()) {
                out.cancelled = true;
                src.stop();
            }
            if (src.timeUp() || (plan.enough && plan.enough()))
                src.stop();
            lock.lock();
        }
    }
    for (auto& t : threads)
        t.join();
    out.error = firstError;
    return out;
}

ProbeError prefill(int fd, int64_t fileSize, bool uniqueData, uint64_t seed, RunContext& ctx,
    const ProgressFn& progress, bool* cancelled)
{
    constexpr int64_t chunk = 1024 * 1024;
    AlignedBuffer buf { size_t(chunk) };
    if (uniqueData && buf.data)
        UniqueData::fillRandom(buf.data, buf.size, seed ^ 0x50524546494C4CULL);
    uint64_t sequence = UniqueData::kPrefillFlag;
    for (int64_t off = 0; off < fileSize; off += chunk) {
        if (ctx.stopRequested()) {
            *cancelled = true;
            return {};
        }
        const size_t n = size_t(std::min(chunk, fileSize - off));
        if (uniqueData)
            UniqueData::stamp(buf.data, n, seed, uint64_t(off), sequence++);
        const ssize_t r = ::pwrite(fd, buf.data, n, off_t(off));
        if (r < 0)
            return ProbeError::fromErrno(
                errno, QStringLiteral("preparing the test file at offset ") + QString::number(off));
        if (size_t(r) != n)
            return ProbeError::fromErrno(ENOSPC, QStringLiteral("preparing the test file: short write"));
        progress(double(off + int64_t(n)) / double(fileSize));
    }
    if (::fdatasync(fd) != 0)
        return ProbeError::fromErrno(errno, QStringLiteral("flushing the prepared test file"));
    return {};
}
