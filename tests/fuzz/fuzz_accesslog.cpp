// The access-log parsers (389-ds, OpenLDAP stats, slapo-accesslog LDIF) on arbitrary bytes, through the whole
// analysis (shapes, templates, key summaries, JSON) and the saved workload's builder; and the same bytes as a file
// through LogReader (plain or, with the gzip magic, inflated; cut or corrupt gzip must be an error, not a crash).
// data[0] picks the format. Lines are what the reader makes of the bytes, so truncated lines and garbage reach the
// parsers as they would from a real file.
#include "core/workload/analysis.h"
#include "core/workload/filtershape.h"
#include "core/workload/logparser.h"
#include "core/workload/logreader.h"
#include "core/workload/workloadbuilder.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
        return 0;
    static const LogFormat formats[] = { LogFormat::Ds389, LogFormat::OpenLdap, LogFormat::AccesslogLdif };
    const LogFormat format = formats[data[0] % 3];
    const int fd = memfd_create("fuzz_accesslog", 0);
    if (fd < 0)
        return 0;
    if (write(fd, data + 1, size - 1) != ssize_t(size - 1)) {
        close(fd);
        return 0;
    }
    lseek(fd, 0, SEEK_SET);
    const QString path = QStringLiteral("/proc/self/fd/%1").arg(fd);

    TemplateTable table;
    WorkloadAnalysis analysis(&table);
    WorkloadBuilder builder(&table, data[0] & 4);
    WorkloadFilter filter;
    if (data[0] & 8)
        filter.kinds = 1u << unsigned(WorkloadOpKind::Search);
    WorkloadPipeline pipeline(filter, &table, { &analysis, &builder });
    const auto parser = LogParser::create(format, &pipeline);
    LogReader reader({ path });
    QString error;
    reader.run([&](std::string_view line) { parser->line(line); }, &error);
    parser->finish();
    (void)parser->gaps();
    // The per-second series of a log whose stamps span years is long (and slow under the sanitizers): only the
    // JSON of spans up to a day is made here.
    const ParseStats& st = parser->stats();
    const bool shortSpan = st.lastNs - st.firstNs <= 86400ull * 1000000000ull;
    const QJsonObject json = !shortSpan ? QJsonObject()
                                        : analysis.toJson({ logFormatName(format), { path }, parser->stats().firstNs,
                                                              parser->stats().lastNs, parser->stats().subSecond },
                                            parser->stats(), parser->gaps(), filter);
    const Workload w = builder.finish({}, parser->gaps(), json);
    if (w.operationCount() > analysis.operations())
        __builtin_trap();
    close(fd);

    // Filters and DNs of the raw bytes: a shape's slots fill back into a filter of the same shape.
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const Shape s = FilterShape::ofFilter(text);
    if (s.ok) {
        const Shape again = FilterShape::ofFilter(FilterShape::fill(s.text, s.values));
        if (!again.ok || again.text != s.text)
            __builtin_trap();
    }
    (void)FilterShape::ofDn(text);
    return 0;
}
