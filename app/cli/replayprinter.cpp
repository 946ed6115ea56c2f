#include "app/cli/replayprinter.h"

#include "core/replay/replayspec.h"
#include "core/replay/replaysummary.h"
#include "core/workload/workload.h"

namespace Cli {

namespace {

QString number(const std::optional<double>& v, int decimals)
{
    return v ? QString::number(*v, 'f', decimals) : QStringLiteral("-");
}

} // namespace

void printReplayHeader(std::FILE* out, const ReplaySpec& spec, const Workload& workload)
{
    const QString timing = spec.timing == ReplaySpec::Timing::Speed
        ? QStringLiteral("speed ") + QString::number(spec.speed)
        : ReplaySpec::timingName(spec.timing);
    std::fprintf(out, "replay %s: %llu connections, %llu operations, %s, values %s, writes %s, against %s\n",
        qPrintable(spec.workloadPath), static_cast<unsigned long long>(workload.connections.size()),
        static_cast<unsigned long long>(workload.operationCount()), qPrintable(timing),
        qPrintable(ReplaySpec::valuesName(spec.values)),
        spec.allowWrites ? qPrintable(QStringLiteral("under ") + spec.writeBase) : "skipped",
        qPrintable(spec.target.uri));
}

void printFidelity(std::FILE* out, const RunRecord& rec)
{
    const ReplaySummary f = ReplaySummary::of(rec);
    if (!f.hasFidelity())
        return;
    std::fprintf(out, "fidelity: %s\n", qPrintable(f.countsLine()));
    std::fprintf(out, "  %-7s %8s %8s %7s %7s %5s %5s %8s %8s %8s %8s  %s\n", "kind", "logged", "replayed", "log %",
        "rep %", "rc l", "rc r", "etime50", "etime99", "lat50", "lat99", "template");
    for (const ReplayTemplateRow& t : f.rows)
        std::fprintf(out, "  %-7s %8.0f %8.0f %7s %7s %5s %5s %8s %8s %8s %8s  %s\n", qPrintable(t.kind), t.logged,
            t.replayed, qPrintable(number(t.loggedShare, 1)), qPrintable(number(t.replayedShare, 1)),
            qPrintable(t.loggedTopCode), qPrintable(t.replayedTopCode), qPrintable(number(t.etimeP50Ms, 3)),
            qPrintable(number(t.etimeP99Ms, 3)), qPrintable(number(t.latencyP50Ms, 3)),
            qPrintable(number(t.latencyP99Ms, 3)), qPrintable(t.templateText));
    for (const QString& d : f.drift)
        std::fprintf(out, "  drift: %s\n", qPrintable(d));
    if (f.drift.isEmpty())
        std::fprintf(out, "  no drift beyond %.0f percentage points\n", f.tolerancePp);
    for (const QString& line :
        { f.rateLine(), f.perSecondLine(), f.connectionsLine(), f.sendLagLine(), f.writesLine() })
        if (!line.isEmpty())
            std::fprintf(out, "  %s\n", qPrintable(line));
}

} // namespace Cli
