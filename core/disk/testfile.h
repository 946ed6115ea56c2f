#pragma once

#include "core/common/proberror.h"

#include <QString>

#include <cstddef>
#include <memory>

// The test file: created in the chosen directory so that it never outlives the process. O_TMPFILE gives an
// unnamed inode that vanishes with the last descriptor, even on SIGKILL; where the file system refuses
// O_TMPFILE, a file is created and unlinked at once. Where O_DIRECT is refused (EINVAL), it falls back to
// buffered I/O and says so.
class TestFile
{
public:
    ~TestFile();
    TestFile(const TestFile&) = delete;
    TestFile& operator=(const TestFile&) = delete;

    static std::unique_ptr<TestFile> create(const QString& dir, bool direct, ProbeError* error);

    int fd() const { return m_fd; }
    bool direct() const { return m_direct; }
    bool directRefused() const { return m_directRefused; }
    bool anonymous() const { return m_anonymous; } // O_TMPFILE worked

private:
    TestFile() = default;
    int m_fd = -1;
    bool m_direct = false;
    bool m_directRefused = false;
    bool m_anonymous = false;
};

// Page-aligned memory for O_DIRECT.
struct AlignedBuffer
{
    explicit AlignedBuffer(size_t bytes);
    ~AlignedBuffer();
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;
    AlignedBuffer(AlignedBuffer&& o) noexcept
        : data(o.data)
        , size(o.size)
    {
        o.data = nullptr;
    }

    char* data = nullptr;
    size_t size = 0;
};

// Unique data: every 4 KiB chunk of every write is distinct and incompressible. A buffer is filled once with
// random bytes (setup, not timed); before each write, stamp() XORs each chunk's words with a key drawn from
// (seed, offset, sequence) and writes a 32-byte stamp at the chunk's start: the magic "DirBench", the chunk's
// byte offset in the file, the write's sequence number (top bit set for the prefill) and the run seed. Two chunks
// therefore never match byte for byte, and none is zeros. Cost: one pass of XORs over the buffer per write.
namespace UniqueData {
inline constexpr size_t kChunk = 4096;
inline constexpr uint64_t kMagic = 0x68636E6542726944ULL; // "DirBench" in little-endian bytes
inline constexpr uint64_t kPrefillFlag = 1ULL << 63;

uint64_t splitmix64(uint64_t x);
// Random bytes for the whole buffer, 8 at a time.
void fillRandom(char* data, size_t bytes, uint64_t seed);
// Refreshes `bytes` (a multiple of 8) at file offset `offset` for write number `sequence`.
void stamp(char* data, size_t bytes, uint64_t seed, uint64_t offset, uint64_t sequence);
} // namespace UniqueData
