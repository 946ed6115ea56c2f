#include "core/workload/serverlogtail.h"

#include <QFile>

#include <cmath>

namespace {

constexpr int kSniffLines = 20;
constexpr qint64 kMaxReadBytes = qint64(64) << 20; // one poll reads at most this much; the rest, next time

double ms(uint64_t ns)
{
    return std::round(double(ns) / 1e3) / 1e3;
}

} // namespace

ServerLogTail::ServerLogTail(QString path, qint64 offset)
    : m_path(std::move(path))
    , m_pos(offset)
{ }

std::optional<ServerLogTail::Slice> ServerLogTail::poll()
{
    QFile f(m_path);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(m_pos))
        return std::nullopt;
    const QByteArray bytes = f.read(kMaxReadBytes);
    m_pos += bytes.size();
    qsizetype from = 0;
    for (qsizetype nl = bytes.indexOf('\n'); nl >= 0; nl = bytes.indexOf('\n', from)) {
        m_partial.append(bytes.constData() + from, size_t(nl - from));
        feed(m_partial);
        m_partial.clear();
        from = nl + 1;
    }
    m_partial.append(bytes.constData() + from, size_t(bytes.size() - from));
    if (!m_etime.count())
        return std::nullopt;
    Slice s { m_from, m_to, m_etime.count(), ms(m_etime.percentile(0.5)), ms(m_etime.percentile(0.99)) };
    m_etime = LatencyHistogram();
    m_from = m_to = 0;
    return s;
}

void ServerLogTail::feed(std::string_view line)
{
    if (!m_parser) {
        m_head.emplace_back(line);
        const LogFormat format = LogParser::detect(m_head);
        if (format != LogFormat::Auto)
            m_parser = LogParser::create(format, this);
        if (!m_parser) {
            if (int(m_head.size()) >= kSniffLines)
                m_head.erase(m_head.begin()); // a log that starts with lines no parser knows: keep looking
            return;
        }
        for (const std::string& held : std::exchange(m_head, {}))
            m_parser->line(held);
        return;
    }
    m_parser->line(line);
}

void ServerLogTail::operation(const JoinedOp& op)
{
    if (!op.haveResult || !op.endNs || op.etimeMs < 0 || op.isMonitorRead())
        return;
    m_etime.record(uint64_t(std::llround(op.etimeMs * 1e6)));
    m_from = m_from ? std::min(m_from, op.endNs) : op.endNs;
    m_to = std::max(m_to, op.endNs);
}

Sample ServerLogTail::Slice::toSample() const
{
    Sample s;
    s.series = QLatin1String(kSeries);
    s.values = { { QStringLiteral("from_epoch_ms"), std::floor(double(fromEpochNs) / 1e6) },
        { QStringLiteral("to_epoch_ms"), std::floor(double(toEpochNs) / 1e6) }, { QStringLiteral("ops"), double(ops) },
        { QStringLiteral("etime_p50_ms"), etimeP50Ms }, { QStringLiteral("etime_p99_ms"), etimeP99Ms } };
    return s;
}

std::optional<ServerLogTail::Slice> ServerLogTail::Slice::fromSample(const Sample& s)
{
    if (s.series != QLatin1String(kSeries))
        return std::nullopt;
    const auto n = [&s](const char* k) { return s.values.value(QLatin1String(k)).toDouble(); };
    return Slice { uint64_t(n("from_epoch_ms")) * 1000000, uint64_t(n("to_epoch_ms")) * 1000000, uint64_t(n("ops")),
        n("etime_p50_ms"), n("etime_p99_ms") };
}
