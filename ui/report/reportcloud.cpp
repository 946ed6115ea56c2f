// Cloud comparisons (kind "cloud-compare"): per case, the measured figure beside the disk's listed limit, the VM's
// cap and the reachable ceiling, which limit binds, and the flags with what they mean; the catalog's sources cited. The
// full evaluation stays in the record (JSON, HTML export of the history).
#include "core/catalog/cloudverdict.h"
#include "core/catalog/sources.h"
#include "core/common/reportformat.h"
#include "ui/report/reportsections.h"
#include "ui/report/reportsummary.h"

#include <QJsonArray>

namespace ReportSections {

void cloudCompare(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    // A single comparison holds its case at the top of summary; the seed's table in summary.cases.
    QJsonArray cases = r.summary.value(QStringLiteral("cases")).toArray();
    if (cases.isEmpty() && r.summary.contains(QStringLiteral("measured_mb_per_s")))
        cases.append(r.summary);
    const QList<CloudCatalog::CloudCase> judged = CloudCatalog::casesOf(r);
    const QString measuredSource = r.summary.value(QStringLiteral("measured_source")).toString();
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
    for (int i = 0; i < cases.size(); ++i) {
        const QJsonObject c = cases.at(i).toObject();
        const QJsonObject e = c.value(QStringLiteral("evaluation")).toObject();
        QList<QStringList> rows;
        rows.append({ QStringLiteral("disk"),
            e.value(QStringLiteral("disk_label")).toString() + QStringLiteral(" at ")
                + ReportFormat::value(e.value(QStringLiteral("size_gib"))) + QStringLiteral(" GiB")
                + (e.value(QStringLiteral("tier")).toString().isEmpty()
                        ? QString()
                        : QStringLiteral(" (") + e.value(QStringLiteral("tier")).toString() + u')') });
        if (e.value(QStringLiteral("vm")).isString())
            rows.append({ QStringLiteral("VM"), e.value(QStringLiteral("vm")).toString() });
        rows.append({ QStringLiteral("test"), c.value(QStringLiteral("test")).toString() });
        rows.append({ QStringLiteral("binding limit"), e.value(QStringLiteral("binding_text")).toString() });
        const QJsonArray flagsList = c.value(QStringLiteral("flags")).toArray();
        for (const auto& f : flagsList)
            rows.append({ f.toObject().value(QStringLiteral("code")).toString(),
                f.toObject().value(QStringLiteral("message")).toString() });
        const QJsonArray notesList = e.value(QStringLiteral("notes")).toArray();
        for (const auto& n : notesList)
            rows.append({ QStringLiteral("note"), n.toString() });
        section.blocks << ReportBlock::subheading(
            QString(QString::number(i + 1) + QStringLiteral(". ") + c.value(QStringLiteral("label")).toString()));
        section.blocks << ReportBlock::keyValues(rows);
        const QJsonArray sourcesList = e.value(QStringLiteral("sources")).toArray();
        for (const auto& s : sourcesList) {
            const QJsonObject o = s.toObject();
            cite(sources,
                Sources::publishedPage(
                    o.value(QStringLiteral("url")).toString(), o.value(QStringLiteral("as_of")).toString()));
        }
    }
}

} // namespace ReportSections
