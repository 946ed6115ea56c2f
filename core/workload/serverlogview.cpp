#include "core/workload/serverlogview.h"

#include "core/common/histogram.h"
#include "core/workload/logparser.h"
#include "core/workload/logquality.h"

#include <QFile>

#include <cmath>
#include <vector>

namespace {

struct Times
{
    LatencyHistogram etime, wtime, optime, qtime; // ns
    uint64_t ops = 0;

    void add(const JoinedOp& op)
    {
        ++ops;
        const auto put = [](LatencyHistogram& h, double ms) {
            if (ms >= 0)
                h.record(uint64_t(std::llround(ms * 1e6)));
        };
        put(etime, op.etimeMs);
        put(wtime, op.wtimeMs);
        put(optime, op.optimeMs);
        put(qtime, op.qtimeMs);
    }
};

QJsonValue ms(double ns)
{
    return std::round(ns / 1e3) / 1e3;
}

QJsonObject figures(const LatencyHistogram& h)
{
    if (!h.count())
        return {};
    return { { QStringLiteral("count"), double(h.count()) }, { QStringLiteral("mean"), ms(h.mean()) },
        { QStringLiteral("p50"), ms(double(h.percentile(0.50))) },
        { QStringLiteral("p99"), ms(double(h.percentile(0.99))) }, { QStringLiteral("max"), ms(double(h.max())) } };
}

QJsonObject timesJson(const Times& t)
{
    QJsonObject o { { QStringLiteral("ops"), double(t.ops) } };
    const std::pair<const char*, const LatencyHistogram*> parts[]
        = { { "etime_ms", &t.etime }, { "wtime_ms", &t.wtime }, { "optime_ms", &t.optime }, { "qtime_ms", &t.qtime } };
    for (const auto& [key, h] : parts)
        if (h->count())
            o.insert(QLatin1String(key), figures(*h));
    return o;
}

// Each answered operation into the interval its result was logged in (the load's intervals end at window start
// + t seconds).
class IntervalSink final : public WorkloadSink
{
public:
    explicit IntervalSink(const ServerLogView::Window& w)
        : m_w(w)
    {
        for (const auto& v : w.intervals)
            m_endsNs.push_back(
                w.startEpochNs + uint64_t(std::llround(v.toObject().value(QLatin1String("t")).toDouble() * 1e9)));
        m_times.resize(m_endsNs.size());
    }

    void connectionOpened(uint64_t, uint64_t, std::string_view) override { }
    void connectionClosed(uint64_t, uint64_t) override { }
    void operation(const JoinedOp& op) override
    {
        if (!op.haveResult || !op.endNs || op.etimeMs < 0)
            return;
        ++m_logged;
        if (op.endNs < m_w.startEpochNs || op.endNs > m_w.endEpochNs) {
            ++m_outside;
            return;
        }
        if (op.isMonitorRead()) {
            ++m_monitor;
            return;
        }
        size_t i = 0;
        while (i < m_endsNs.size() && op.endNs > m_endsNs[i])
            ++i;
        if (i < m_times.size())
            m_times[i].add(op);
        m_all.add(op);
    }

    QJsonArray intervalsJson() const
    {
        QJsonArray out;
        for (size_t i = 0; i < m_times.size(); ++i) {
            const QJsonObject client = m_w.intervals.at(qsizetype(i)).toObject();
            QJsonObject o = timesJson(m_times[i]);
            o.insert(QStringLiteral("t"), client.value(QLatin1String("t")));
            o.insert(QStringLiteral("client_latency_ms"), client.value(QLatin1String("latency_ms")));
            out.append(o);
        }
        return out;
    }

    const Times& all() const { return m_all; }
    uint64_t logged() const { return m_logged; }
    uint64_t outside() const { return m_outside; }
    uint64_t monitorReads() const { return m_monitor; }

private:
    const ServerLogView::Window& m_w;
    std::vector<uint64_t> m_endsNs;
    std::vector<Times> m_times;
    Times m_all;
    uint64_t m_logged = 0, m_outside = 0, m_monitor = 0;
};

std::vector<std::string> firstLines(const QByteArray& bytes, int n)
{
    std::vector<std::string> out;
    qsizetype from = 0;
    while (int(out.size()) < n && from < bytes.size()) {
        qsizetype nl = bytes.indexOf('\n', from);
        if (nl < 0)
            nl = bytes.size();
        out.emplace_back(bytes.constData() + from, size_t(nl - from));
        from = nl + 1;
    }
    return out;
}

} // namespace

namespace ServerLogView {

std::optional<Window> windowOf(const QJsonObject& summary, const QJsonArray& intervals)
{
    const QJsonObject w = summary.value(QLatin1String("window_epoch_ns")).toObject();
    Window out { w.value(QLatin1String("start")).toString().toULongLong(),
        w.value(QLatin1String("end")).toString().toULongLong(), intervals };
    if (!out.startEpochNs || out.endEpochNs <= out.startEpochNs)
        return std::nullopt;
    return out;
}

std::optional<QJsonObject> read(const QString& path, qint64 offset, const Window& window, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(offset)) {
        *error = path + QStringLiteral(": ") + f.errorString();
        return std::nullopt;
    }
    const QByteArray bytes = f.readAll(); // what the server wrote during one load: a few MB a minute
    const LogFormat format = LogParser::detect(firstLines(bytes, 50));
    IntervalSink sink(window);
    const std::unique_ptr<LogParser> parser = format == LogFormat::Auto ? nullptr : LogParser::create(format, &sink);
    const std::vector<std::string> head = firstLines(bytes, 1);
    const std::optional<std::string> first = head.empty() ? std::nullopt : std::optional<std::string>(head.front());
    if (!parser) {
        ParseStats none;
        none.lines = uint64_t(bytes.count('\n'));
        *error = LogQuality::noOperations(none, { path }, first).value_or(QString());
        return std::nullopt;
    }
    qsizetype from = 0;
    while (from < bytes.size()) {
        qsizetype nl = bytes.indexOf('\n', from);
        if (nl < 0)
            nl = bytes.size();
        parser->line(std::string_view(bytes.constData() + from, size_t(nl - from)));
        from = nl + 1;
    }
    parser->finish();
    if (const auto none = LogQuality::noOperations(parser->stats(), { path }, first)) {
        *error = *none;
        return std::nullopt;
    }
    QJsonObject summary = timesJson(sink.all());
    summary.insert(QStringLiteral("outside_window"), double(sink.outside()));
    summary.insert(QStringLiteral("monitor_reads_excluded"), double(sink.monitorReads()));
    return QJsonObject { { QStringLiteral("path"), path }, { QStringLiteral("format"), logFormatName(format) },
        { QStringLiteral("from_byte"), double(offset) }, { QStringLiteral("operations_logged"), double(sink.logged()) },
        { QStringLiteral("summary"), summary }, { QStringLiteral("intervals"), sink.intervalsJson() },
        { QStringLiteral("not_understood"), LogQuality::notUnderstood(parser->stats()).value_or(QString()) },
        { QStringLiteral("note"),
            QStringLiteral(
                "the server's own times per operation, by the interval the server logged its result in; "
                "read after the load from the part of the log written during it; a server that "
                "buffers its log shows fewer operations (389-ds: nsslapd-accesslog-logbuffering; then the warning "
                "server-log-lags)") } };
}

} // namespace ServerLogView
