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

    void fill(bool random, uint64_t seed);
    char* data = nullptr;
    size_t size = 0;
};
