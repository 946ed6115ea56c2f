#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

// Streams the lines of access logs: several files in the order given ("-" is standard input), plain or gzip'd
// (told by the magic bytes, inflated in chunks), in bounded memory: one read buffer of BufferSize bytes (and the
// inflate state), whatever the file's size. A line longer than the buffer is cut there (cutLines()). Lines are
// handed out as views into the buffer, without their "\n" or "\r\n", valid only during the call.
class LogReader
{
public:
    static constexpr size_t BufferSize = size_t(4) << 20;
    using LineFn = std::function<void(std::string_view line)>;
    // Bytes read from the files so far (compressed bytes for gzip'd ones) and their total size (0 when unknown:
    // standard input, a pipe).
    using ProgressFn = std::function<void(uint64_t done, uint64_t total)>;
    // The wall-clock time (ns since the epoch) a line was logged at, if the line has one.
    using TimeOfLine = std::function<std::optional<uint64_t>(std::string_view line)>;

    explicit LogReader(QStringList paths);

    // The files in the order to read them: as given, except that the files of one rotation family ("access",
    // "access.20261201-100000", "access.1.gz": the same name once a rotation suffix and ".gz" are taken off) are
    // sorted by the time of their first line, at the place of the family's first file. Files whose first line
    // has no time keep their place in the family. Standard input is never reordered.
    static QStringList orderRotated(const QStringList& paths, const TimeOfLine& timeOf);
    // The first line of a file (gzip'd or not), or nothing when it cannot be read or is empty.
    static std::optional<std::string> firstLine(const QString& path);
    // A file that cannot be opened as "FILE: why", or empty when all can (standard input always can).
    static QString checkReadable(const QStringList& paths);

    void setProgress(ProgressFn fn) { m_progress = std::move(fn); }
    // Asked after each buffer (4 MiB) read: true stops the read (run() returns false, stopped() is true).
    void setStop(std::function<bool()> fn) { m_stop = std::move(fn); }
    // Reads every file, calling onLine for each line; false with `error` ("FILE: why") on a read or gzip error,
    // or with "stopped" when the stop function asked.
    bool run(const LineFn& onLine, QString* error);

    uint64_t totalBytes() const; // the files' sizes on disk, 0 when one of them is standard input
    uint64_t cutLines() const { return m_cutLines; }
    uint64_t bytesRead() const { return m_done; }
    bool stopped() const { return m_stopped; }

private:
    bool readOne(const QString& path, const LineFn& onLine, QString* error);

    QStringList m_paths;
    ProgressFn m_progress;
    std::function<bool()> m_stop;
    bool m_stopped = false;
    uint64_t m_total = 0;
    uint64_t m_done = 0;
    uint64_t m_cutLines = 0;
};
