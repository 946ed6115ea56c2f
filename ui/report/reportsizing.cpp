// Sizing records: every recommendation with its formula, the numbers put in, its inputs and source, and the change
// ready to apply (DirBench never applies it).
#include "core/catalog/sources.h"
#include "core/common/reportformat.h"
#include "core/sizing/recommendation.h"
#include "core/sizing/sizingsummary.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"
#include "ui/report/reportsummary.h"

namespace ReportSections {

namespace {

// One recommendation's reasoning: its formula, the numbers put in, its inputs and their origins, its source.
QList<QStringList> sizingReasonRows(const Recommendation& rec)
{
    QList<QStringList> rows;
    rows.append({ QStringLiteral("formula"), rec.formula });
    rows.append({ QStringLiteral("computed"), rec.computation });
    QStringList inputs;
    for (const SizingInputUsed& i : rec.inputs)
        inputs << QString(i.name + u" = " + ReportFormat::number(i.value)
            + (i.unit.isEmpty() ? QString() : u' ' + i.unit) + u" (" + i.origin + u')');
    rows.append({ QStringLiteral("inputs"), inputs.join(QStringLiteral("; ")) });
    rows.append({ QStringLiteral("source"), Sources::readable(rec.source) });
    if (!rec.note.isEmpty())
        rows.append({ QStringLiteral("note"), rec.note });
    return rows;
}

void sizingBlock(ReportSection& section, const QString& title, const QJsonObject& o)
{
    if (o.isEmpty())
        return;
    section.blocks << ReportBlock::subheading(title);
    section.blocks << ReportBlock::keyValues(ReportJson::keyValueRows(o));
    for (const auto& [tableTitle, table] : ReportJson::tablesOf(o)) {
        section.blocks << ReportBlock::subheading(tableTitle);
        section.blocks << ReportBlock::ofTable(table);
    }
}

} // namespace

void sizing(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    const SizingSummary s = SizingSummary::of(r);
    const SizingResult& result = s.result;
    section.blocks << ReportBlock::paragraph(
        QString(u"Server kind: " + ReportSummary::serverKindName(result.server) + u". Sizes in MB are 10^6 bytes."));
    ReportTable overview;
    overview.header
        = { QStringLiteral("setting"), QStringLiteral("now"), QStringLiteral("proposed"), QStringLiteral("change") };
    for (const Recommendation& rec : result.recommendations)
        overview.rows.append({ rec.name, SizingText::currentText(rec), SizingText::withUnit(rec.value, rec.unit),
            rec.isSetting ? (rec.current ? rec.change() : QStringLiteral("unknown")) : QStringLiteral("computed") });
    section.blocks << ReportBlock::subheading(QStringLiteral("Recommendations"));
    section.blocks << ReportBlock::ofTable(overview);
    for (const Recommendation& rec : result.recommendations) {
        section.blocks << ReportBlock::subheading(rec.name + QStringLiteral(": ") + SizingText::proposal(rec));
        section.blocks << ReportBlock::keyValues(sizingReasonRows(rec));
        cite(sources, rec.source);
    }
    if (const QJsonObject terms = s.termsShown(); !terms.isEmpty()) {
        section.blocks << ReportBlock::subheading(QStringLiteral("Terms of the formula"));
        section.blocks << ReportBlock::keyValues(ReportJson::keyValueRows(terms));
    }
    sizingBlock(section, QStringLiteral("389 autotune for comparison"), s.autotuneBlock());
    sizingBlock(section, QStringLiteral("LDIF statistics"), s.ldif);
    if (!result.apply.isEmpty()) {
        section.blocks << ReportBlock::subheading(QString(u"The change to apply (" + result.applyFormat + u")"));
        section.blocks << ReportBlock::code(result.apply);
        section.blocks << ReportBlock::paragraph(s.applyNote);
    }
}

} // namespace ReportSections
