#include "core/sizing/edirsizing.h"

#include <algorithm>

namespace EdirSizing {

namespace {

using SizingText::num;
constexpr auto used = SizingText::input;

} // namespace

QString source()
{
    return QStringLiteral("Novell Cool Solutions, eDirectory cache tuning (http://www.novell.com/coolsolutions/"
                          "feature/5701.html); _ndsdb.ini syntax: http://support.novell.com/techcenter/tips/"
                          "ant20001102.html, https://support.microfocus.com/kb/doc.php?id=7002682");
}

std::optional<SizingResult> compute(const SizingInput& in, ProbeError* error)
{
    SizingResult r;
    r.server = QStringLiteral("edirectory");
    double dibMb = 0;
    QString dibOrigin;
    if (in.dbSizeMb) {
        dibMb = *in.dbSizeMb;
        dibOrigin = in.originOf(QStringLiteral("db_size_mb"));
    } else if (in.ldifTotalEntryBytes) {
        dibMb = *in.ldifTotalEntryBytes / 1e6;
        dibOrigin = QStringLiteral("ldif");
        r.addWarning(QStringLiteral("estimate"),
            QStringLiteral("DIB size estimated from the LDIF's entry bytes: a lower bound; give the size of the DIB "
                           "directory for an exact figure"));
    } else {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("db-size-mb"),
                QStringLiteral("give %1 (the size of the DIB) or %2")
                    .arg(ProbeError::ref(QStringLiteral("db-size-mb")), ProbeError::ref(QStringLiteral("ldif"))));
        return std::nullopt;
    }
    const bool small = dibMb < kSmallDibMb;
    const auto dibInput = used("dib_mb", dibMb, "MB", dibOrigin);

    Recommendation block;
    block.name = QStringLiteral("block cache");
    block.unit = QStringLiteral("MB");
    block.value = dibMb;
    block.formula = small ? QStringLiteral("DIB under 250 MB: cache all of it (block = DIB)")
                          : QStringLiteral("block cache = DIB × 1.0   (block : DIB ≈ 1:1)");
    block.computation = QStringLiteral("%1 MB").arg(num(block.value));
    block.inputs << dibInput;
    block.source = source();

    Recommendation entry;
    entry.name = QStringLiteral("entry cache");
    entry.unit = QStringLiteral("MB");
    entry.value = small ? dibMb : dibMb * kEntryRatio;
    entry.formula = small ? QStringLiteral("DIB under 250 MB: cache all of it (entry = DIB)")
                          : QStringLiteral("entry cache = DIB × 0.5   (entry : DIB ≈ 1:2 .. 1:4, more is better)");
    entry.computation = small ? QStringLiteral("%1 MB").arg(num(entry.value))
                              : QStringLiteral("%1 × 0.5 = %2 MB").arg(num(dibMb), num(entry.value));
    entry.inputs << dibInput;
    entry.source = source();
    if (!small)
        entry.note = QStringLiteral("the floor is DIB × 0.25 = %1 MB").arg(num(dibMb * kEntryRatioFloor));

    Recommendation cache;
    cache.name = QStringLiteral("cache");
    cache.unit = QStringLiteral("MB");
    cache.value = 2 * std::max(block.value, entry.value);
    cache.formula = QStringLiteral("cache = 2 × max(block, entry)   (the default split gives each half)");
    cache.computation
        = QStringLiteral("2 × max(%1, %2) = %3 MB").arg(num(block.value), num(entry.value), num(cache.value));
    cache.inputs << used("block_cache_mb", block.value, "MB", QStringLiteral("derived"))
                 << used("entry_cache_mb", entry.value, "MB", QStringLiteral("derived"));
    cache.source = source();
    cache.note = QStringLiteral("block + entry alone would be %1 MB if the block-cache share were set to match; the "
                                "_ndsdb.ini key for that share was not verified (FLAIM's uiBlockCachePercentage)")
                     .arg(num(block.value + entry.value));
    const qint64 bytes = SizingText::mbToBytes(cache.value);
    cache.apply = QStringLiteral("cache=%1").arg(bytes);

    r.recommendations << block << entry << cache;
    r.terms = QJsonObject { { QStringLiteral("total_ram_mb"), QJsonValue(QJsonValue::Null) },
        { QStringLiteral("cache_mb"), cache.value }, { QStringLiteral("dib_mb"), dibMb },
        { QStringLiteral("block_cache_mb"), block.value }, { QStringLiteral("entry_cache_mb"), entry.value },
        { QStringLiteral("block_plus_entry_mb"), block.value + entry.value },
        { QStringLiteral("formula"), cache.formula }, { QStringLiteral("computation"), cache.computation } };
    r.addWarning(QStringLiteral("ram-not-sized"),
        QStringLiteral("the eDirectory rules size the cache only; add the OS and the ndsd process to it for the "
                       "host's RAM"));
    // _ndsdb.ini takes no comments that we could verify: the change is the line itself, ending with a newline.
    r.apply = cache.apply + u'\n';
    r.applyFormat = QStringLiteral("_ndsdb.ini");
    return r;
}

} // namespace EdirSizing
