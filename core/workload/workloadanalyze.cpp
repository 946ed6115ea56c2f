#include "core/workload/workloadanalyze.h"

#include "core/workload/analysis.h"
#include "core/workload/logquality.h"
#include "core/workload/logreader.h"
#include "core/workload/parse389.h"
#include "core/workload/parseaccesslogldif.h"
#include "core/workload/parseopenldap.h"
#include "core/workload/workloadbuilder.h"

#include <QElapsedTimer>
#include <QJsonArray>

namespace {

constexpr int kSniffLines = 1000;
// Holds the first lines until their format is known, then hands them and the rest to that format's parser.
class Sniffer
{
public:
    Sniffer(LogFormat format, WorkloadSink* sink)
        : m_format(format)
        , m_sink(sink)
    {
        if (format != LogFormat::Auto)
            m_parser = LogParser::create(format, sink);
    }
    void line(std::string_view l)
    {
        if (m_failed)
            return;
        if (m_parser) {
            m_parser->line(l);
            return;
        }
        m_held.emplace_back(l);
        const LogFormat f = LogParser::detect(m_held);
        if (f != LogFormat::Auto)
            start(f);
        else if (m_held.size() >= size_t(kSniffLines))
            m_failed = true, m_held.clear();
    }
    void finish()
    {
        if (!m_parser && !m_held.empty()) {
            const LogFormat f = LogParser::detect(m_held);
            if (f == LogFormat::Auto) {
                m_failed = true;
                return;
            }
            start(f);
        }
        if (m_parser)
            m_parser->finish();
    }
    LogParser* parser() const { return m_parser.get(); }
    LogFormat format() const { return m_format; }
    bool failed() const { return m_failed; }

private:
    void start(LogFormat f)
    {
        m_format = f;
        m_parser = LogParser::create(f, m_sink);
        for (const std::string& h : m_held)
            m_parser->line(h);
        m_held.clear();
    }
    LogFormat m_format;
    WorkloadSink* m_sink;
    std::unique_ptr<LogParser> m_parser;
    std::vector<std::string> m_held;
    bool m_failed = false;
};

} // namespace

namespace WorkloadAnalyze {

std::optional<uint64_t> timeOfAnyFormat(std::string_view line)
{
    if (auto t
        = Parse389::parseStamp(line.substr(0, line.find(']') == std::string_view::npos ? 0 : line.find(']') + 1)))
        return t;
    ParseAccesslogLdif ldif(nullptr);
    if (auto t = ldif.timeOf(line))
        return t;
    ParseOpenLdap ol(nullptr);
    return ol.timeOf(line);
}

AnalyzeResult run(const AnalyzeOptions& options, const std::function<void(uint64_t, uint64_t)>& progress)
{
    AnalyzeResult r;
    QElapsedTimer clock;
    clock.start();
    const QStringList files = LogReader::orderRotated(options.logs, timeOfAnyFormat);
    TemplateTable table;
    WorkloadAnalysis analysis(&table);
    std::optional<WorkloadBuilder> builder;
    std::vector<ShapedSink*> sinks { &analysis };
    if (options.buildWorkload) {
        builder.emplace(&table, options.keepValues);
        sinks.push_back(&*builder);
    }
    WorkloadPipeline pipeline(options.filter, &table, sinks);
    Sniffer sniffer(options.format, &pipeline);
    LogReader reader(files);
    if (progress)
        reader.setProgress(progress);
    if (options.stopRequested)
        reader.setStop(options.stopRequested);
    QString error;
    uint64_t lines = 0;
    const bool ok = reader.run(
        [&sniffer, &lines](std::string_view l) {
            ++lines;
            sniffer.line(l);
        },
        &error);
    r.bytes = reader.bytesRead();
    if (!ok) {
        r.error = error;
        r.stopped = reader.stopped();
        return r;
    }
    sniffer.finish();
    ParseStats stats = sniffer.parser() ? sniffer.parser()->stats() : ParseStats {};
    if (sniffer.failed() || !sniffer.parser())
        stats.lines = lines;
    if (const auto none = LogQuality::noOperations(stats, files, LogReader::firstLine(files.value(0)))) {
        r.error = *none;
        r.unrecognised = true;
        return r;
    }
    const LogParser& parser = *sniffer.parser();
    stats.cutLines += reader.cutLines();
    if (const auto warning = LogQuality::notUnderstood(stats))
        r.warnings.append(*warning);
    WorkloadAnalysis::Source src { logFormatName(sniffer.format()), files, stats.firstNs, stats.lastNs,
        stats.subSecond };
    QStringList gaps = parser.gaps();
    if (table.overflowed())
        gaps << QStringLiteral("more than %1 templates: %2 operations without one")
                    .arg(TemplateTable::MaxTemplates)
                    .arg(table.overflowed());
    r.analysis = analysis.toJson(src, stats, gaps, options.filter);
    QJsonArray warnings;
    for (const QString& w : std::as_const(r.warnings))
        warnings.append(QJsonObject {
            { QStringLiteral("code"), QStringLiteral("log-not-understood") }, { QStringLiteral("message"), w } });
    r.analysis.insert(QStringLiteral("warnings"), warnings);
    if (builder) {
        WorkloadSource ws;
        ws.format = src.format;
        ws.files = files;
        ws.first = WorkloadAnalysis::isoTime(stats.firstNs, stats.subSecond);
        ws.last = WorkloadAnalysis::isoTime(stats.lastNs, stats.subSecond);
        r.workload = builder->finish(ws, gaps, r.analysis);
    }
    r.seconds = double(clock.nsecsElapsed()) / 1e9;
    return r;
}

} // namespace WorkloadAnalyze
