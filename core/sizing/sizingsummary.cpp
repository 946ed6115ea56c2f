#include "core/sizing/sizingsummary.h"

#include "core/common/jsonread.h"
#include "core/sizing/serversizing.h"

namespace {

const QString kSizingAutotuneKey = QStringLiteral("autotune");

} // namespace

std::optional<SizingAutotune> SizingAutotune::of(const SizingResult& result)
{
    const QJsonObject a = result.extra.value(kSizingAutotuneKey).toObject();
    if (a.isEmpty())
        return std::nullopt;
    const QJsonObject vs = a.value(QLatin1String("vs_need")).toObject();
    SizingAutotune t;
    t.ramMb = a.value(QLatin1String("ram_mb")).toDouble();
    t.ramOrigin = a.value(QLatin1String("ram_origin")).toString();
    t.dbcacheMb = a.value(QLatin1String("dbcache_mb")).toDouble();
    t.entryCacheTotalMb = a.value(QLatin1String("entry_cache_total_mb")).toDouble();
    t.threadsRhds12 = a.value(QLatin1String("threads_rhds12")).toInt();
    t.threadsRhds11 = a.value(QLatin1String("threads_rhds11")).toInt();
    t.threadsGuide = a.value(QLatin1String("threads_guide")).toInt();
    t.neededMb = vs.value(QLatin1String("needed_mb")).toDouble();
    t.coverage = vs.value(QLatin1String("coverage")).toDouble();
    t.guideRelativeThroughput = vs.value(QLatin1String("guide_relative_throughput")).toDouble();
    return t;
}

QString SizingAutotune::text() const
{
    return QStringLiteral("389 autotune on %1 MB RAM (%2): dbcache %3 MB, entry cache %4 MB, threads %5 (RHDS 12+) / "
                          "%6 (RHDS 11) vs %7 (guide)\n  need %8 MB of entry cache: autotune covers %9 % -> %10 % of "
                          "the fully cached rate on the guide's test bed (uniform access)\n")
        .arg(SizingText::num(ramMb, 0), ramOrigin, SizingText::num(dbcacheMb, 1), SizingText::num(entryCacheTotalMb, 1),
            QString::number(threadsRhds12), QString::number(threadsRhds11), QString::number(threadsGuide),
            SizingText::num(neededMb, 1))
        .arg(SizingText::num(coverage * 100, 1), SizingText::num(guideRelativeThroughput * 100, 1));
}

SizingSummary SizingSummary::of(const RunRecord& record)
{
    SizingSummary s;
    if (auto r = ServerSizing::resultOf(record))
        s.result = *r;
    s.applyNote = record.summary.value(QLatin1String("apply")).toObject().value(QLatin1String("note")).toString();
    s.ldif = record.summary.value(QLatin1String("ldif")).toObject();
    return s;
}

QJsonObject SizingSummary::termsShown() const
{
    QJsonObject o = result.terms;
    for (auto it = result.extra.begin(); it != result.extra.end(); ++it)
        if (it.key() != kSizingAutotuneKey)
            o.insert(it.key(), it.value());
    return o;
}

QJsonObject SizingSummary::autotuneBlock() const
{
    return result.extra.value(kSizingAutotuneKey).toObject();
}

std::optional<double> SizingSummary::totalRamMb(const SizingResult& result)
{
    return JsonRead::number(result.terms, "total_ram_mb");
}

std::optional<SizingServer> SizingSummary::serverOfSpec(const QJsonObject& spec)
{
    return SizingInput::serverFromName(spec.value(QLatin1String("server")).toString());
}
