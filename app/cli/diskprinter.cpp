#include "app/cli/diskprinter.h"

#include "app/cli/ldapprinter.h"
#include "core/catalog/sources.h"
#include "core/catalog/verdicttext.h"
#include "core/common/units.h"
#include "core/disk/diskrecordfacts.h"
#include "core/disk/diskresult.h"
#include "core/experiments/diskunderloadsummary.h"

#include <QJsonObject>
#include <QPair>

namespace Cli {

namespace {

QString cell(const std::optional<double>& v, int decimals = 1)
{
    return v ? Units::formatNumber(*v, decimals) : QStringLiteral("-");
}

// "seq-write: steady from 8 s: 201.3 MB/s (5 s window)", or why not.
void printSteady(std::FILE* out, const QString& name, const std::optional<DiskSteadyState>& st)
{
    if (!st)
        return;
    if (!st->evaluated)
        std::fprintf(
            out, "%s: steady state not evaluated (fewer than %d rounds of 1 s)\n", qPrintable(name), st->windowS);
    else if (!st->reached)
        std::fprintf(out, "%s: not steady in %d s\n", qPrintable(name), st->rounds);
    else
        std::fprintf(out, "%s: steady from %s s: %s %s (%d s window)\n", qPrintable(name), qPrintable(cell(st->atS, 0)),
            qPrintable(cell(st->value, st->rate == DiskRate::Iops ? 0 : 1)),
            st->rate == DiskRate::Iops ? "IOPS" : "MB/s", st->windowS);
}

using Rows = QList<QPair<QString, DiskSummary>>;

void printRows(std::FILE* out, const Rows& rows)
{
    std::fprintf(out, "\n%-16s %10s %10s %10s %10s %10s %10s %9s\n", "test", "MB/s", "IOPS", "p50 us", "p99 us",
        "p99.9 us", "max us", "seconds");
    for (const auto& [name, s] : rows)
        std::fprintf(out, "%-16s %10s %10s %10s %10s %10s %10s %9s\n", qPrintable(name), qPrintable(cell(s.mbPerS)),
            qPrintable(cell(s.iops)), qPrintable(cell(s.latencyUs.p50)), qPrintable(cell(s.latencyUs.p99)),
            qPrintable(cell(s.latencyUs.p999)), qPrintable(cell(s.latencyUs.max)), qPrintable(cell(s.seconds, 2)));
    for (const auto& [name, s] : rows)
        printSteady(out, name, s.steadyState);
}

void printVerdicts(std::FILE* out, const QList<Verdict>& verdicts)
{
    if (verdicts.isEmpty())
        return;
    std::fprintf(out, "\nverdicts:\n");
    for (const auto& v : verdicts) {
        std::fprintf(out, "  %s  %s\n", v.passed ? "PASS" : "FAIL", qPrintable(VerdictText::sentence(v)));
        std::fprintf(out, "        source: %s\n", qPrintable(Sources::ofVerdict(v)));
    }
}

// The witness device's bytes in the interval, and their ratio to the test's: "  device vda 515.9 MB (1.00x)".
QString witnessCell(const DiskInterval& v)
{
    for (const DiskDeviceFigures& d : v.devices.value_or(DiskDevices {})) {
        if (!d.isWitness() || !d.writeBytes)
            continue;
        const double bytes = *d.writeBytes + d.readBytes.value_or(0);
        return QStringLiteral("  device ") + d.name + u' ' + Units::formatNumber(bytes / 1e6) + QStringLiteral(" MB")
            + (v.bytes > 0 ? QStringLiteral(" (") + Units::formatNumber(bytes / v.bytes, 2) + QStringLiteral("x)")
                           : QString());
    }
    return QString();
}

} // namespace

void printDiskSummary(std::FILE* out, const RunRecord& rec)
{
    Rows rows;
    const DiskSummary sum = DiskSummary::fromJson(rec.summary);
    for (const DiskSummary& t : sum.tests)
        rows.append({ t.test, t });
    if (!sum.isSuite() && sum.hasRates())
        rows.append({ sum.test, sum });
    printRows(out, rows);
    if (const DiskRecordFacts facts = DiskRecordFacts::of(rec); facts.hasEngine)
        std::fprintf(out, "engine: %s\n", qPrintable(facts.engineText()));
    if (const QString headline = sum.headlineText(); !headline.isEmpty())
        std::fprintf(out, "headline: %s\n", qPrintable(headline)); // as the report and the history word it
    printVerdicts(out, rec.verdicts);
    if (!rec.warnings.isEmpty()) {
        std::fprintf(out, "\nwarnings:\n");
        for (const auto& w : rec.warnings)
            std::fprintf(out, "  [%s] %s\n", qPrintable(w.code), qPrintable(w.message));
    }
    if (rec.status != u"ok")
        std::fprintf(out, "\nstatus: %s%s%s\n", qPrintable(rec.status), rec.failure.isEmpty() ? "" : ": ",
            qPrintable(rec.failure));
}

void printDiskUnderLoadSummary(std::FILE* out, const RunRecord& rec)
{
    Rows rows;
    const DiskUnderLoadSummary s = DiskUnderLoadSummary::of(rec);
    if (s.idle)
        rows.append({ QStringLiteral("disk (idle)"), *s.idle });
    rows.append({ QStringLiteral("disk (loaded)"), s.loaded });
    printRows(out, rows);
    if (s.hasChange)
        std::fprintf(out, "change under LDAP load: MB/s %s %%, IOPS %s %%, p99 latency %s %%\n",
            qPrintable(cell(s.mbPerSPct)), qPrintable(cell(s.iopsPct)), qPrintable(cell(s.p99Pct)));
    std::fprintf(out, "\nLDAP load during the loaded test:");
    printLoadSummary(out, DiskUnderLoadSummary::ldapRecordOf(rec));
}

void printDiskInterval(std::FILE* out, const Sample& s)
{
    const DiskInterval i = DiskInterval::fromSample(s);
    std::fprintf(out, "%-14s t=%7.2f s  %10s MB/s  %10s IOPS  p50 %9s us  p99 %9s us%s\n",
        qPrintable(s.series.isEmpty() ? QStringLiteral("-") : s.series), s.t, qPrintable(Units::formatNumber(i.mbPerS)),
        qPrintable(Units::formatNumber(i.iops)), qPrintable(cell(i.latencyUs.p50)), qPrintable(cell(i.latencyUs.p99)),
        qPrintable(witnessCell(i)));
    std::fflush(out);
}

} // namespace Cli
