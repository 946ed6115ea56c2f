#include "core/catalog/comparerecord.h"

#include "core/catalog/cloudverdict.h"

#include <QSet>

namespace CloudCatalog {

namespace {

void addVerdicts(RunRecord& rec, const Comparison& c, const QString& prefix)
{
    if (const auto v = ceilingVerdict(c, prefix))
        rec.verdicts << *v;
}

} // namespace

RunRecord compareRecord(const Catalog& catalog, const QList<Comparison>& comparisons, const QJsonObject& spec,
    const QString& measuredSource)
{
    RunRecord rec;
    rec.kind = QStringLiteral("cloud-compare");
    rec.started = QDateTime::currentDateTimeUtc();
    rec.spec = spec;
    rec.spec.insert(QStringLiteral("catalog"),
        QJsonObject { { QStringLiteral("origin"), catalog.origin },
            { QStringLiteral("schema_version"), catalog.schemaVersion },
            { QStringLiteral("compiled"), catalog.compiled } });
    QJsonArray sources;
    QSet<QString> seen;
    auto addSources = [&](const QJsonArray& a) {
        for (const auto& s : a)
            if (!seen.contains(s.toObject().value(QStringLiteral("url")).toString())) {
                seen.insert(s.toObject().value(QStringLiteral("url")).toString());
                sources.append(s);
            }
    };
    for (const auto& c : comparisons) {
        addSources(c.evaluation.toJson().value(QStringLiteral("sources")).toArray());
        for (const auto& f : c.flags)
            rec.warnings << RunWarning { f.code,
                comparisons.size() > 1 ? c.measured.label + QStringLiteral(": ") + f.message : f.message };
    }
    if (comparisons.size() == 1) {
        rec.summary = comparisons.first().summaryJson();
        addVerdicts(rec, comparisons.first(), QString());
    } else {
        QJsonArray cases;
        for (const auto& c : comparisons) {
            cases.append(c.summaryJson());
            addVerdicts(rec, c, c.measured.label + QStringLiteral(": "));
        }
        rec.summary.insert(QStringLiteral("cases"), cases);
    }
    rec.summary.insert(QStringLiteral("measured_source"), measuredSource);
    rec.extra.insert(QStringLiteral("sources"), sources);
    rec.extra.insert(QStringLiteral("attribution"), catalog.attribution);
    return rec;
}

} // namespace CloudCatalog
