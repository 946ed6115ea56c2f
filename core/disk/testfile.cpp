#include "core/disk/testfile.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

TestFile::~TestFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

std::unique_ptr<TestFile> TestFile::create(const QString& dir, bool direct, ProbeError* error)
{
    std::unique_ptr<TestFile> f(new TestFile);
    const QByteArray d = QFile::encodeName(dir);
    const int base = O_RDWR | O_CLOEXEC;
    auto fail = [&](int err, const QString& what) {
        if (error)
            *error = ProbeError::fromErrno(err, what);
        return nullptr;
    };

    int fd = ::open(d.constData(), O_TMPFILE | base | (direct ? O_DIRECT : 0), 0600);
    if (fd < 0 && direct && errno == EINVAL) {
        // Either O_DIRECT or O_TMPFILE is refused: find out which.
        fd = ::open(d.constData(), O_TMPFILE | base, 0600);
        if (fd >= 0) {
            f->m_directRefused = true;
            direct = false;
        }
    }
    if (fd >= 0) {
        f->m_fd = fd;
        f->m_anonymous = true;
        f->m_direct = direct;
        return f;
    }
    if (errno == EACCES || errno == EPERM || errno == EROFS || errno == ENOSPC || errno == EDQUOT)
        return fail(errno, QStringLiteral("cannot create a test file in ") + dir);

    // No O_TMPFILE here: create a named file and unlink it at once.
    QByteArray tmpl = d + "/.dirbench-test-XXXXXX";
    fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd < 0)
        return fail(errno, QStringLiteral("cannot create a test file in ") + dir);
    ::unlink(tmpl.constData());
    f->m_fd = fd;
    if (direct) {
        const int fl = ::fcntl(fd, F_GETFL);
        if (::fcntl(fd, F_SETFL, fl | O_DIRECT) != 0) {
            f->m_directRefused = true;
            direct = false;
        }
    }
    f->m_direct = direct;
    return f;
}

AlignedBuffer::AlignedBuffer(size_t bytes)
    : size(bytes)
{
    void* p = nullptr;
    if (::posix_memalign(&p, 4096, bytes ? bytes : 4096) != 0)
        p = nullptr;
    data = static_cast<char*>(p);
    if (data)
        std::memset(data, 0, size);
}

AlignedBuffer::~AlignedBuffer()
{
    std::free(data);
}

namespace UniqueData {

uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

void fillRandom(char* data, size_t bytes, uint64_t seed)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (size_t i = 0; i + 8 <= bytes; i += 8) {
        const uint64_t z = splitmix64(x);
        x += 0x9E3779B97F4A7C15ULL;
        std::memcpy(data + i, &z, 8);
    }
}

namespace {

// data[0, words*8) ^= key, 16 bytes at a time (SSE2 is baseline on x86-64; elsewhere the compiler splits it).
void xorWords(char* data, size_t words, uint64_t key)
{
    using V = uint64_t __attribute__((vector_size(16)));
    const V k = { key, key };
    size_t i = 0;
    for (; i + 2 <= words; i += 2) {
        V v;
        std::memcpy(&v, data + i * 8, 16);
        v ^= k;
        std::memcpy(data + i * 8, &v, 16);
    }
    for (; i < words; ++i) {
        uint64_t w;
        std::memcpy(&w, data + i * 8, 8);
        w ^= key;
        std::memcpy(data + i * 8, &w, 8);
    }
}

} // namespace

void stamp(char* data, size_t bytes, uint64_t seed, uint64_t offset, uint64_t sequence)
{
    for (size_t at = 0; at < bytes; at += kChunk) {
        const size_t n = std::min(kChunk, bytes - at) / 8;
        const uint64_t where = offset + at;
        const uint64_t key = splitmix64(seed ^ splitmix64(where ^ (sequence * 0xD1B54A32D192ED03ULL)));
        xorWords(data + at, n, key);
        const uint64_t head[4] = { kMagic, where, sequence, seed };
        std::memcpy(data + at, head, std::min(sizeof head, n * 8));
    }
}

} // namespace UniqueData
