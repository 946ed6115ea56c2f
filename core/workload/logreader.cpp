#include "core/workload/logreader.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>
#include <zlib.h>

namespace {

constexpr size_t kRawSize = size_t(1) << 20;

QString errnoText(int e)
{
    return QString::fromLocal8Bit(std::strerror(e));
}

// Bytes of one file, inflated when it is gzip'd (magic 1f 8b; concatenated members too).
class ByteSource
{
public:
    explicit ByteSource(int fd)
        : m_fd(fd)
        , m_raw(kRawSize)
    { }
    ~ByteSource()
    {
        if (m_gzip)
            inflateEnd(&m_zs);
        if (m_fd > 0)
            ::close(m_fd);
    }
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Reads the first raw bytes and decides plain or gzip. False with errno on a read error.
    bool start(uint64_t* rawDone)
    {
        if (!fillRaw(rawDone))
            return false;
        if (m_rawLen >= 2 && uint8_t(m_raw[0]) == 0x1f && uint8_t(m_raw[1]) == 0x8b) {
            m_gzip = true;
            std::memset(&m_zs, 0, sizeof m_zs);
            if (inflateInit2(&m_zs, 15 + 32) != Z_OK)
                return false;
        }
        return true;
    }

    // Up to `cap` bytes into `dst`: >0 bytes, 0 at the end, -1 on an error (`what`).
    ptrdiff_t read(char* dst, size_t cap, uint64_t* rawDone, QString* what)
    {
        return m_gzip ? readGzip(dst, cap, rawDone, what) : readPlain(dst, cap, rawDone, what);
    }

private:
    bool fillRaw(uint64_t* rawDone)
    {
        m_rawPos = 0;
        m_rawLen = 0;
        for (;;) {
            const ssize_t n = ::read(m_fd, m_raw.data(), m_raw.size());
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return false;
            m_rawLen = size_t(n);
            m_eof = n == 0;
            *rawDone += uint64_t(n);
            return true;
        }
    }

    ptrdiff_t readPlain(char* dst, size_t cap, uint64_t* rawDone, QString* what)
    {
        if (m_rawPos < m_rawLen) { // what start() read first
            const size_t n = std::min(cap, m_rawLen - m_rawPos);
            std::memcpy(dst, m_raw.data() + m_rawPos, n);
            m_rawPos += n;
            return ptrdiff_t(n);
        }
        for (;;) {
            const ssize_t n = ::read(m_fd, dst, cap);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                *what = errnoText(errno);
                return -1;
            }
            *rawDone += uint64_t(n);
            return n;
        }
    }

    ptrdiff_t readGzip(char* dst, size_t cap, uint64_t* rawDone, QString* what)
    {
        m_zs.next_out = reinterpret_cast<Bytef*>(dst);
        m_zs.avail_out = uInt(cap);
        while (m_zs.avail_out == cap) {
            if (m_rawPos >= m_rawLen) {
                if (m_eof) {
                    if (m_inMember && m_zs.avail_out == cap) {
                        *what = QStringLiteral("gzip data cut short");
                        return -1;
                    }
                    break;
                }
                if (!fillRaw(rawDone)) {
                    *what = errnoText(errno);
                    return -1;
                }
                continue;
            }
            m_zs.next_in = reinterpret_cast<Bytef*>(m_raw.data() + m_rawPos);
            m_zs.avail_in = uInt(m_rawLen - m_rawPos);
            m_inMember = true;
            const int rc = inflate(&m_zs, Z_NO_FLUSH);
            m_rawPos = m_rawLen - m_zs.avail_in;
            if (rc == Z_STREAM_END) {
                m_inMember = false;
                inflateReset(&m_zs); // another member may follow (cat a.gz b.gz)
            } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                *what = QStringLiteral("gzip data is corrupt (%1)").arg(QString::fromLatin1(m_zs.msg ? m_zs.msg : "?"));
                return -1;
            }
        }
        return ptrdiff_t(cap - m_zs.avail_out);
    }

    int m_fd;
    std::vector<char> m_raw;
    size_t m_rawPos = 0, m_rawLen = 0;
    bool m_eof = false;
    bool m_gzip = false;
    bool m_inMember = false;
    z_stream m_zs {};
};

int openPath(const QString& path)
{
    if (path == u"-")
        return ::dup(STDIN_FILENO);
    return ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
}

// "access.20261201-100000.gz" -> "access"; "access.3" -> "access"; "slapd.log.1.gz" -> "slapd.log".
QString familyOf(const QString& path)
{
    static const QRegularExpression suffix(QStringLiteral("(\\.gz)?$"));
    static const QRegularExpression rotation(QStringLiteral("[.-](\\d{8}(-\\d{4,6})?|\\d{1,4}|\\d{10,})$"));
    QString name = path;
    name.remove(suffix);
    name.remove(rotation);
    return name;
}

} // namespace

LogReader::LogReader(QStringList paths)
    : m_paths(std::move(paths))
{ }

QString LogReader::checkReadable(const QStringList& paths)
{
    for (const QString& p : paths) {
        if (p == u"-")
            continue;
        const int fd = openPath(p);
        if (fd < 0)
            return QStringLiteral("%1: %2").arg(p, errnoText(errno));
        struct stat st
        {
        };
        const bool dir = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
        ::close(fd);
        if (dir)
            return QStringLiteral("%1: is a directory").arg(p);
    }
    return {};
}

std::optional<std::string> LogReader::firstLine(const QString& path)
{
    const int fd = openPath(path);
    if (fd < 0)
        return std::nullopt;
    ByteSource src(fd);
    uint64_t done = 0;
    if (!src.start(&done))
        return std::nullopt;
    std::string line;
    std::vector<char> buf(64 * 1024);
    QString what;
    while (line.size() < buf.size()) {
        const ptrdiff_t n = src.read(buf.data(), buf.size(), &done, &what);
        if (n <= 0)
            break;
        const auto* nl = static_cast<const char*>(std::memchr(buf.data(), '\n', size_t(n)));
        line.append(buf.data(), nl ? size_t(nl - buf.data()) : size_t(n));
        if (nl)
            break;
    }
    if (line.empty())
        return std::nullopt;
    return line;
}

QStringList LogReader::orderRotated(const QStringList& paths, const TimeOfLine& timeOf)
{
    // Families in order of their first file; each family's files by first-line time (stable).
    std::vector<QString> families;
    std::map<QString, std::vector<std::pair<uint64_t, QString>>> members;
    for (const QString& p : paths) {
        const QString fam = p == u"-" ? QStringLiteral("-\n%1").arg(families.size()) : familyOf(p);
        if (!members.count(fam))
            families.push_back(fam);
        uint64_t t = 0;
        if (p != u"-")
            if (const auto line = firstLine(p))
                t = timeOf(*line).value_or(0);
        members[fam].emplace_back(t, p);
    }
    QStringList out;
    for (const QString& fam : families) {
        auto& list = members[fam];
        const bool allTimed = std::all_of(list.begin(), list.end(), [](const auto& m) { return m.first != 0; });
        if (allTimed)
            std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& m : list)
            out << m.second;
    }
    return out;
}

uint64_t LogReader::totalBytes() const
{
    uint64_t total = 0;
    for (const QString& p : m_paths) {
        if (p == u"-")
            return 0;
        struct stat st
        {
        };
        if (::stat(QFile::encodeName(p).constData(), &st) != 0 || !S_ISREG(st.st_mode))
            return 0;
        total += uint64_t(st.st_size);
    }
    return total;
}

bool LogReader::run(const LineFn& onLine, QString* error)
{
    m_total = totalBytes();
    m_done = 0;
    for (const QString& p : m_paths)
        if (!readOne(p, onLine, error))
            return false;
    if (m_progress)
        m_progress(m_done, m_total);
    return true;
}

bool LogReader::readOne(const QString& path, const LineFn& onLine, QString* error)
{
    const QString name = path == u"-" ? QStringLiteral("standard input") : path;
    const int fd = openPath(path);
    if (fd < 0) {
        *error = QStringLiteral("%1: %2").arg(name, errnoText(errno));
        return false;
    }
    ByteSource src(fd);
    if (!src.start(&m_done)) {
        *error = QStringLiteral("%1: %2").arg(name, errnoText(errno));
        return false;
    }
    std::unique_ptr<char[]> buf(new char[BufferSize]);
    size_t have = 0;
    bool skipping = false; // inside a line cut at the buffer's size: drop up to its newline
    for (;;) {
        QString what;
        const ptrdiff_t n = src.read(buf.get() + have, BufferSize - have, &m_done, &what);
        if (n < 0) {
            *error = QStringLiteral("%1: %2").arg(name, what);
            return false;
        }
        if (n == 0)
            break;
        have += size_t(n);
        const char* p = buf.get();
        const char* end = p + have;
        while (p < end) {
            const auto* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
            if (!nl)
                break;
            if (!skipping) {
                const char* e = (nl > p && nl[-1] == '\r') ? nl - 1 : nl;
                onLine(std::string_view(p, size_t(e - p)));
            }
            skipping = false;
            p = nl + 1;
        }
        have = size_t(end - p);
        if (have == BufferSize) { // one line fills the buffer: hand out its start, drop the rest
            if (!skipping) {
                onLine(std::string_view(buf.get(), have));
                ++m_cutLines;
            }
            skipping = true;
            have = 0;
        } else if (have && p != buf.get()) {
            std::memmove(buf.get(), p, have);
        }
        if (m_progress)
            m_progress(m_done, m_total);
        if (m_stop && m_stop()) {
            m_stopped = true;
            *error = QStringLiteral("stopped");
            return false;
        }
    }
    if (have && !skipping)
        onLine(std::string_view(buf.get(), have));
    return true;
}
