// Cloud comparisons (kind "cloud-compare"): per case, the measured figure beside the disk's listed limit, the VM's
// cap and the reachable ceiling, which limit binds, and the flags with what they mean; the catalog's sources cited. The
// full evaluation stays in the record (JSON, HTML export of the history).
#include "core/catalog/cloudverdict.h"
#include "core/catalog/sources.h"
#include "core/common/reportformat.h"
#include "ui/report/reportsections.h"
#include "ui/report/reportsummary.h"

namespace ReportSections {

namespace {

// One case's evaluation: the disk, the VM, the test, the binding limit, the flags and notes; its sources cited.
void cloudCaseDetails(int i, const CloudCatalog::CloudCase& c, ReportSection& section, QStringList& sources)
{
    QList<QStringList> rows;
    rows.append({ QStringLiteral("disk"),
        c.diskLabel + QStringLiteral(" at ") + (c.sizeGib ? ReportFormat::number(*c.sizeGib) : QStringLiteral("n/a"))
            + QStringLiteral(" GiB") + (c.tier.isEmpty() ? QString() : QStringLiteral(" (") + c.tier + u')') });
    if (!c.vm.isEmpty())
        rows.append({ QStringLiteral("VM"), c.vm });
    rows.append({ QStringLiteral("test"), c.test });
    rows.append({ QStringLiteral("binding limit"), c.bindingText });
    for (const CloudCatalog::Flag& f : c.flags)
        rows.append({ f.code, f.message });
    for (const auto& n : c.notes)
        rows.append({ QStringLiteral("note"), n });
    section.blocks << ReportBlock::subheading(QString(QString::number(i + 1) + QStringLiteral(". ") + c.label));
    section.blocks << ReportBlock::keyValues(rows);
    for (const CloudCatalog::Source& s : c.sources)
        cite(sources, Sources::publishedPage(s.url, s.asOf));
}

} // namespace

void cloudCompare(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    const QList<CloudCatalog::CloudCase> judged = CloudCatalog::casesOf(r);
    const QString measuredSource = CloudCatalog::measuredSourceOf(r);
    if (!measuredSource.isEmpty())
        section.blocks << ReportBlock::paragraph(
            QString(u"Measured figures: " + ReportSummary::plain(Sources::readable(measuredSource)) + u'.'));
    section.blocks << ReportBlock::paragraph(QString(CloudCatalog::headline(r)
        + u". The verdict of a case: it delivers at least 80 % of its reachable ceiling, the least of the disk's, the "
          u"VM's and the queue depth's limits. Flags are warnings."));
    ReportTable overview;
    overview.header = { QStringLiteral("case"), QStringLiteral("verdict"), QStringLiteral("measured (MB/s)"),
        QStringLiteral("reachable ceiling (MB/s)"), QStringLiteral("80 % of it (MB/s)"),
        QStringLiteral("disk listed (MB/s)"), QStringLiteral("VM cap (MB/s)"), QStringLiteral("binds"),
        QStringLiteral("flags") };
    for (int i = 0; i < judged.size(); ++i) {
        const CloudCatalog::CloudCase& c = judged.at(i);
        QStringList flags;
        for (const CloudCatalog::Flag& f : c.flags)
            flags << f.code;
        const auto cell
            = [](const std::optional<double>& v) { return v ? ReportFormat::number(*v) : QStringLiteral("n/a"); };
        overview.rows.append({ QString(QString::number(i + 1) + u". " + c.label),
            !c.verdict ? QStringLiteral("not judged")
                       : (c.verdict->passed ? QStringLiteral("PASS") : QStringLiteral("FAIL")),
            QString((c.upperBound ? u"< " : u"") + ReportFormat::number(c.measuredMbps)), cell(c.ceilingMbps),
            c.verdict ? ReportFormat::number(c.verdict->threshold) : QStringLiteral("n/a"), cell(c.listedMbps),
            cell(c.vmCapMbps), c.binding, flags.isEmpty() ? QStringLiteral("none") : flags.join(u", ") });
    }
    section.blocks << ReportBlock::subheading(QStringLiteral("Cases"));
    section.blocks << ReportBlock::ofTable(overview);
    for (int i = 0; i < judged.size(); ++i)
        cloudCaseDetails(i, judged.at(i), section, sources);
}

} // namespace ReportSections
