// Sizing records: every recommendation with its formula, the numbers put in, its inputs and source, and the change
// ready to apply (DirBench never applies it).
#include "core/catalog/sources.h"
#include "core/common/reportformat.h"
#include "core/sizing/recommendation.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"
#include "ui/report/reportsummary.h"

namespace ReportSections {

void sizing(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    const QJsonObject& s = r.summary;
    section.blocks << ReportBlock::paragraph(
        QString(u"Server kind: " + ReportSummary::serverKindName(s.value(QStringLiteral("server")).toString())
            + u". Sizes in MB are 10^6 bytes."));
    const QJsonArray recs = s.value(QStringLiteral("recommendations")).toArray();
    ReportTable overview;
    overview.header
        = { QStringLiteral("setting"), QStringLiteral("now"), QStringLiteral("proposed"), QStringLiteral("change") };
    for (const auto& v : recs) {
        const Recommendation rec = Recommendation::fromJson(v.toObject());
        overview.rows.append({ rec.name, SizingText::currentText(rec), SizingText::withUnit(rec.value, rec.unit),
            rec.isSetting ? (rec.current ? rec.change() : QStringLiteral("unknown")) : QStringLiteral("computed") });
    }
    section.blocks << ReportBlock::subheading(QStringLiteral("Recommendations"));
    section.blocks << ReportBlock::ofTable(overview);
    for (const auto& v : recs) {
        const QJsonObject o = v.toObject();
        const Recommendation rec = Recommendation::fromJson(o);
        section.blocks << ReportBlock::subheading(rec.name + QStringLiteral(": ") + SizingText::proposal(rec));
        QList<QStringList> rows;
        rows.append({ QStringLiteral("formula"), o.value(QStringLiteral("formula")).toString() });
        rows.append({ QStringLiteral("computed"), o.value(QStringLiteral("computation")).toString() });
        QStringList inputs;
        const QJsonArray inputsList = o.value(QStringLiteral("inputs")).toArray();
        for (const auto& iv : inputsList) {
            const QJsonObject i = iv.toObject();
            const QString unit = i.value(QStringLiteral("unit")).toString();
            inputs << QString(i.value(QStringLiteral("name")).toString() + u" = "
                + ReportFormat::value(i.value(QStringLiteral("value"))) + (unit.isEmpty() ? QString() : u' ' + unit)
                + u" (" + i.value(QStringLiteral("origin")).toString() + u')');
        }
        rows.append({ QStringLiteral("inputs"), inputs.join(QStringLiteral("; ")) });
        rows.append({ QStringLiteral("source"), Sources::readable(o.value(QStringLiteral("source")).toString()) });
        if (!o.value(QStringLiteral("note")).toString().isEmpty())
            rows.append({ QStringLiteral("note"), o.value(QStringLiteral("note")).toString() });
        section.blocks << ReportBlock::keyValues(rows);
        cite(sources, o.value(QStringLiteral("source")).toString());
    }
    QJsonObject terms = s;
    for (const char16_t* k : { u"recommendations", u"apply", u"server", u"ldif", u"autotune" })
        terms.remove(QString::fromUtf16(k));
    if (!terms.isEmpty()) {
        section.blocks << ReportBlock::subheading(QStringLiteral("Terms of the formula"));
        section.blocks << ReportBlock::keyValues(ReportJson::keyValueRows(terms));
    }
    for (const char16_t* k : { u"autotune", u"ldif" }) {
        const QJsonObject o = s.value(QString::fromUtf16(k)).toObject();
        if (o.isEmpty())
            continue;
        section.blocks << ReportBlock::subheading(QStringView(k) == u"autotune"
                ? QStringLiteral("389 autotune for comparison")
                : QStringLiteral("LDIF statistics"));
        section.blocks << ReportBlock::keyValues(ReportJson::keyValueRows(o));
        for (const auto& [title, table] : ReportJson::tablesOf(o)) {
            section.blocks << ReportBlock::subheading(title);
            section.blocks << ReportBlock::ofTable(table);
        }
    }
    const QJsonObject apply = s.value(QStringLiteral("apply")).toObject();
    const QString text = apply.value(QStringLiteral("text")).toString();
    if (!text.isEmpty()) {
        section.blocks << ReportBlock::subheading(
            QString(u"The change to apply (" + apply.value(QStringLiteral("format")).toString() + u")"));
        section.blocks << ReportBlock::code(text);
        section.blocks << ReportBlock::paragraph(apply.value(QStringLiteral("note")).toString());
    }
}

} // namespace ReportSections
