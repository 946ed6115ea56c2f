// Cloud comparisons (kind "cloud-compare"): per case, the measured figure beside the disk's listed limit, the VM's
// cap and the reachable ceiling, which limit binds, and the flags with what they mean; the catalog's sources cited. The
// full evaluation stays in the record (JSON, HTML export of the history).
#include "core/catalog/sources.h"
#include "ui/report/reportformat.h"
#include "ui/report/reportsections.h"

#include <QJsonArray>

namespace ReportSections {

namespace {

QString mbps(const QJsonValue& v)
{
    return v.isDouble() ? ReportFormat::value(v) + QStringLiteral(" MB/s") : QStringLiteral("n/a");
}

} // namespace

void cloudCompare(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    const QJsonArray cases = r.summary.value(QStringLiteral("cases")).toArray();
    const QString measuredSource = r.summary.value(QStringLiteral("measured_source")).toString();
    if (!measuredSource.isEmpty())
        section.blocks << ReportBlock::paragraph(
            QString(u"Measured figures: " + Sources::readable(measuredSource) + u'.'));
    ReportTable overview;
    overview.header
        = { QStringLiteral("case"), QStringLiteral("measured"), QStringLiteral("disk listed"), QStringLiteral("VM cap"),
              QStringLiteral("reachable ceiling"), QStringLiteral("binds"), QStringLiteral("flags") };
    for (int i = 0; i < cases.size(); ++i) {
        const QJsonObject c = cases.at(i).toObject();
        QStringList flags;
        const QJsonArray flagsList = c.value(QStringLiteral("flags")).toArray();
        for (const auto& f : flagsList)
            flags << f.toObject().value(QStringLiteral("code")).toString();
        const QString upper
            = c.value(QStringLiteral("measured_is_upper_bound")).toBool() ? QStringLiteral("< ") : QString();
        overview.rows.append(
            { QString::number(i + 1) + QStringLiteral(". ") + c.value(QStringLiteral("label")).toString(),
                upper + mbps(c.value(QStringLiteral("measured_mb_per_s"))),
                mbps(c.value(QStringLiteral("listed_mb_per_s"))), mbps(c.value(QStringLiteral("vm_cap_mb_per_s"))),
                mbps(c.value(QStringLiteral("ceiling_mb_per_s"))), c.value(QStringLiteral("binding")).toString(),
                flags.isEmpty() ? QStringLiteral("none") : flags.join(u", ") });
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
                o.value(QStringLiteral("url")).toString()
                    + (o.value(QStringLiteral("as_of")).toString().isEmpty()
                            ? QString()
                            : QStringLiteral(" (") + o.value(QStringLiteral("as_of")).toString() + u')'));
        }
    }
}

} // namespace ReportSections
