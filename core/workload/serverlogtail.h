#pragma once

#include "core/common/histogram.h"
#include "core/common/sample.h"
#include "core/workload/logparser.h"

#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

// Follows a server's access log while a load runs, for the live view: each poll() reads what the server appended
// since the last one (whole lines only; a line still being written waits for the next poll), parses it with the
// format's parser (kept across polls, so a request and its result joined even when they fall in two polls), and
// gives the server's etime of the operations whose result was logged since. A preview: the record's own view is
// made after the load from the same bytes (ServerLogView::read), on the load's own intervals.
class ServerLogTail final : public WorkloadSink
{
public:
    // What the server logged between two polls.
    struct Slice
    {
        uint64_t fromEpochNs = 0, toEpochNs = 0; // the results' times: first and last in this slice
        uint64_t ops = 0;
        double etimeP50Ms = 0, etimeP99Ms = 0;

        static constexpr const char* kSeries = "status: server-log"; // a status sample: never in the history
        Sample toSample() const;
        static std::optional<Slice> fromSample(const Sample& s);
    };

    ServerLogTail(QString path, qint64 offset);
    std::optional<Slice> poll(); // nothing when the server answered nothing new (or the log cannot be read)

    void connectionOpened(uint64_t, uint64_t, std::string_view) override { }
    void connectionClosed(uint64_t, uint64_t) override { }
    void operation(const JoinedOp& op) override;

private:
    void feed(std::string_view line);

    QString m_path;
    qint64 m_pos;
    std::string m_partial; // a line without its newline yet
    std::vector<std::string> m_head; // the first lines, until the format is known
    std::unique_ptr<LogParser> m_parser;
    LatencyHistogram m_etime; // ns, this slice
    uint64_t m_from = 0, m_to = 0;
};
