#include "core/sizing/ds389sizing.h"

#include "core/sizing/ds389autotune.h"
#include "core/sizing/referencecurve.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace Ds389Sizing {

namespace {

using SizingText::num;

QString mb(double v)
{
    return num(v, 2);
}

constexpr auto used = SizingText::input;

// The guide's 500k-entry end points under uniform access: the share of the fully cached rate at coverage c.
double guideRelativeThroughput(double coverage)
{
    const CurveFit cal = ReferenceCurve::calibration(*ReferenceCurve::row(500000));
    return cal.opsAt(std::clamp(coverage, 0.0, 1.0)) * cal.tHit;
}

QJsonObject coverageBlock(double haveMb, double needMb)
{
    const double c = needMb > 0 ? std::min(1.0, haveMb / needMb) : 1.0;
    return QJsonObject { { QStringLiteral("entry_cache_mb"), haveMb }, { QStringLiteral("needed_mb"), needMb },
        { QStringLiteral("shortfall_mb"), std::max(0.0, needMb - haveMb) }, { QStringLiteral("coverage"), c },
        { QStringLiteral("guide_relative_throughput"), guideRelativeThroughput(c) },
        { QStringLiteral("guide_relative_throughput_note"),
            QStringLiteral("share of the fully cached rate on the guide's test bed (Table 5, 500k entries) at this "
                           "coverage under uniform access; skewed access loses less") } };
}

} // namespace

QString guidePage(int page)
{
    return QStringLiteral("HP-UX Directory Server 8.1 Performance Tuning and Sizing Guidelines (HP technical white "
                          "paper), page %1")
        .arg(page);
}

Terms terms(int threads, double dbcacheMb, double entryCachesMb, double importCacheMb, double entryFactor)
{
    Terms t;
    t.baseMb = kBaseMb + threads * kPerThreadMb;
    t.dbcacheMb = dbcacheMb;
    t.entryCachesMb = entryCachesMb;
    t.importCacheMb = importCacheMb;
    t.entryFactor = entryFactor;
    return t;
}

double equation2Mb(qint64 entries, double bytesPerEntry)
{
    return double(entries) * bytesPerEntry / 1e6;
}

std::optional<SizingResult> compute(const SizingInput& in, ProbeError* error)
{
    auto fail = [&](const char* field, const QString& why) -> std::optional<SizingResult> {
        if (error)
            *error = ProbeError::invalid(QLatin1String(field), why);
        return std::nullopt;
    };
    SizingResult r;
    r.server = QStringLiteral("389ds");
    const QString inst = in.instance;
    const QString be = in.backendName;

    // threads
    int threads = 0;
    Recommendation th;
    th.name = QStringLiteral("nsslapd-threadnumber");
    th.unit = QStringLiteral("threads");
    th.source = guidePage(6);
    if (in.threads) {
        threads = *in.threads;
        th.formula = QStringLiteral("threads as given");
        th.computation = QString::number(threads);
        th.inputs << used("threads", threads, "threads", in.originOf(QStringLiteral("threads")));
    } else if (in.cpus) {
        threads = *in.cpus;
        th.formula
            = QStringLiteral("threads ≈ CPU count (best exact-search throughput with threads close to the CPUs)");
        th.computation = QStringLiteral("%1 CPUs -> %1 threads").arg(threads);
        th.inputs << used("cpus", threads, "CPUs", in.originOf(QStringLiteral("cpus")));
    } else {
        return fail("threads",
            QStringLiteral("give %1, or %2 to derive them (threads ≈ CPU count)")
                .arg(ProbeError::ref(QStringLiteral("threads")), ProbeError::ref(QStringLiteral("cpus"))));
    }
    th.value = threads;
    th.apply = QStringLiteral("dsconf %1 config replace nsslapd-threadnumber=%2").arg(inst).arg(threads);

    // dbcache (Equation 1)
    Recommendation db;
    db.name = QStringLiteral("nsslapd-dbcachesize");
    db.unit = QStringLiteral("MB");
    db.source = guidePage(8) + QStringLiteral(" (Equation 1)");
    if (in.dbcacheMb) {
        db.value = *in.dbcacheMb;
        db.formula = QStringLiteral("dbcache as given");
        db.computation = mb(db.value) + QStringLiteral(" MB");
        db.inputs << used("dbcache_mb", db.value, "MB", in.originOf(QStringLiteral("dbcache_mb")));
    } else if (in.dbSizeMb) {
        db.value = *in.dbSizeMb;
        db.formula = QStringLiteral("dbcachesize = Σ size(db4 files your operations need)   (Equation 1)");
        db.computation = QStringLiteral("Σ db files = %1 MB").arg(mb(db.value));
        db.inputs << used("db_size_mb", db.value, "MB", in.originOf(QStringLiteral("db_size_mb")));
        db.note = QStringLiteral("a rough estimate by the guide's own words: count only the index files your "
                                 "searches use (page 8: 354 MB instead of 685 MB for exact searches on cn)");
    } else if (in.ldifTotalEntryBytes) {
        db.value = *in.ldifTotalEntryBytes / 1e6;
        db.formula = QStringLiteral("dbcachesize ≥ size(id2entry) ≈ Σ LDIF entry bytes   (Equation 1, entries only)");
        db.computation = QStringLiteral("%1 bytes = %2 MB").arg(num(*in.ldifTotalEntryBytes, 0), mb(db.value));
        db.inputs << used("ldif_total_entry_bytes", *in.ldifTotalEntryBytes, "bytes", QStringLiteral("ldif"));
        db.note = QStringLiteral("lower bound: the index files come on top; measure the db directory "
                                 "(du -sb of the back end's db files) and give the DB files' size");
        r.addWarning(QStringLiteral("estimate"),
            QStringLiteral("dbcache estimated from the LDIF (id2entry only, no index files): a lower bound"));
    } else {
        return fail("dbcache-mb",
            QStringLiteral("give %1, or %2 (Σ of the db files: Equation 1), or %3")
                .arg(ProbeError::ref(QStringLiteral("dbcache-mb")), ProbeError::ref(QStringLiteral("db-size-mb")),
                    ProbeError::ref(QStringLiteral("ldif"))));
    }

    // entry caches (Equation 2)
    Recommendation ec;
    ec.name = QStringLiteral("nsslapd-cachememsize");
    ec.unit = QStringLiteral("MB");
    ec.source = guidePage(10) + QStringLiteral(" (Equation 2)");
    if (in.entryCacheMb) {
        ec.value = *in.entryCacheMb;
        ec.formula = QStringLiteral("Σ entry caches in use as given");
        ec.computation = mb(ec.value) + QStringLiteral(" MB");
        ec.inputs << used("entry_cache_mb", ec.value, "MB", in.originOf(QStringLiteral("entry_cache_mb")));
    } else {
        if (!in.entries)
            return fail("entries",
                QStringLiteral("give %1, or %2 with %3 (Equation 2), or %4")
                    .arg(ProbeError::ref(QStringLiteral("entry-cache-mb")), ProbeError::ref(QStringLiteral("entries")),
                        ProbeError::ref(QStringLiteral("entry-cache-bytes-per-entry")),
                        ProbeError::ref(QStringLiteral("ldif"))));
        double bpe = 0;
        if (in.entryCacheBytesPerEntry) {
            bpe = *in.entryCacheBytesPerEntry;
            ec.formula = QStringLiteral("cachememsize = entries × currententrycachesize / currententrycachecount   "
                                        "(Equation 2)");
            ec.inputs << used("entry_cache_bytes_per_entry", bpe, "bytes",
                in.originOf(QStringLiteral("entry_cache_bytes_per_entry")));
        } else if (in.ldifMeanEntryBytes) {
            bpe = *in.ldifMeanEntryBytes * in.ldifCacheFactor;
            ec.formula = QStringLiteral("cachememsize = entries × (LDIF mean entry bytes × %1)   (Equation 2 with "
                                        "an estimated bytes/entry)")
                             .arg(num(in.ldifCacheFactor));
            ec.inputs << used("ldif_mean_entry_bytes", *in.ldifMeanEntryBytes, "bytes", QStringLiteral("ldif"))
                      << used("ldif_cache_factor", in.ldifCacheFactor, "",
                             in.originOf(QStringLiteral("ldif_cache_factor")));
            ec.note = QStringLiteral("bytes/entry estimated from the LDIF with Sun ONE 5.2's cachememsize ≈ 3.8 × "
                                     "id2entry. Prime the cache and read currententrycachesize / "
                                     "currententrycachecount for Equation 2 (guide page 10, steps 1-4)");
            r.addWarning(QStringLiteral("estimate"),
                QStringLiteral(
                    "entry-cache bytes per entry estimated from the LDIF: measure it after priming the cache"));
        } else {
            return fail("entry-cache-bytes-per-entry",
                QStringLiteral("Equation 2 needs the bytes one cached entry takes (currententrycachesize / "
                               "currententrycachecount), or %1 to estimate it")
                    .arg(ProbeError::ref(QStringLiteral("ldif"))));
        }
        ec.value = equation2Mb(*in.entries, bpe);
        ec.computation
            = QStringLiteral("%1 × %2 bytes = %3 MB").arg(QString::number(*in.entries), num(bpe, 1), mb(ec.value));
        ec.inputs.prepend(used("entries", double(*in.entries), "entries", in.originOf(QStringLiteral("entries"))));
    }
    const double perBackendMb = ec.value / in.backends;
    ec.apply = QStringLiteral("dsconf %1 backend suffix set --cache-memsize=%2 %3")
                   .arg(inst, QString::number(SizingText::mbToBytes(perBackendMb)), be);
    if (in.backends > 1)
        ec.note += (ec.note.isEmpty() ? QString() : QStringLiteral("; "))
            + QStringLiteral("split over %1 back ends (%2 MB each here; weight by each back end's size)")
                  .arg(in.backends)
                  .arg(mb(perBackendMb));

    // import cache
    const double importMb = in.importCacheMb.value_or(0.0);
    Recommendation im;
    im.name = QStringLiteral("nsslapd-import-cachesize");
    im.unit = QStringLiteral("MB");
    im.value = importMb;
    im.source = guidePage(5);
    im.formula = in.importCacheMb ? QStringLiteral("import cache as given")
                                  : QStringLiteral("0 when you only import offline (the import cache can share the "
                                                   "dbcache memory)");
    im.computation = mb(importMb) + QStringLiteral(" MB");
    im.inputs << used("import_cache_mb", importMb, "MB", in.originOf(QStringLiteral("import_cache_mb")));
    if (importMb > 0)
        im.apply = QStringLiteral("dsconf %1 backend config set --import-cache-autosize=0 --import-cachesize=%2")
                       .arg(inst, QString::number(SizingText::mbToBytes(importMb)));

    db.apply = QStringLiteral("dsconf %1 backend config set --cache-autosize=0 --dbcachesize=%2")
                   .arg(inst, QString::number(SizingText::mbToBytes(db.value)));

    // what the server has now (read from it): every setting as current -> proposed, a lower one said and explained
    const auto now = [](const auto& v) { return v ? std::optional<double>(double(*v)) : std::nullopt; };
    th.compareWithCurrent(now(in.currentThreads),
        QStringLiteral("threads as given or ≈ the CPUs; threads beyond the CPUs only queue (guide page 5)"));
    db.compareWithCurrent(now(in.currentDbcacheMb),
        QStringLiteral("Equation 1 needs no more than the db files; the difference is RAM the entry cache can use"));
    ec.compareWithCurrent(now(in.currentEntryCacheMb),
        QStringLiteral("Equation 2 needs no more for these entries; keep the current size if the directory grows"));

    // the formula
    const Terms t = terms(threads, db.value, ec.value, importMb, in.entryFactor);
    Recommendation base;
    base.name = QStringLiteral("base RAM");
    base.isSetting = false;
    base.unit = QStringLiteral("MB");
    base.value = t.baseMb;
    base.formula = QStringLiteral("base = 27 MB + threads × 0.25 MB");
    base.computation = QStringLiteral("27 + %1 × 0.25 = %2 MB").arg(threads).arg(mb(t.baseMb));
    base.inputs << used("threads", threads, "threads", th.inputs.first().origin);
    base.source = guidePage(5);

    Recommendation total;
    total.name = QStringLiteral("total RAM");
    total.isSetting = false;
    total.unit = QStringLiteral("MB");
    total.value = t.totalMb();
    total.formula = QStringLiteral("Total RAM = 1.2 × (27 MB + threads × 0.25 MB + dbcache + %1 × Σ entry caches in "
                                   "use + import cache)")
                        .arg(num(in.entryFactor));
    total.computation = QStringLiteral("1.2 × (%1 + %2 + %3 × %4 + %5) = 1.2 × %6 = %7 MB")
                            .arg(mb(t.baseMb), mb(t.dbcacheMb), num(in.entryFactor), mb(t.entryCachesMb),
                                mb(t.importCacheMb), mb(t.baseMb + t.cachesMb()), mb(t.totalMb()));
    total.inputs << used("base_mb", t.baseMb, "MB", QStringLiteral("derived"))
                 << used("dbcache_mb", t.dbcacheMb, "MB", db.inputs.first().origin)
                 << used("entry_caches_mb", t.entryCachesMb, "MB", ec.inputs.first().origin)
                 << used("entry_factor", in.entryFactor, "", in.originOf(QStringLiteral("entry_factor")))
                 << used("import_cache_mb", t.importCacheMb, "MB", im.inputs.first().origin);
    total.source = guidePage(5)
        + QStringLiteral("; the seed text shows the factor cut to 2, the printed page says 2.3 and adds the import "
                         "cache");
    total.note = QStringLiteral("1.2 = 20 % headroom for operations; 2.3 applies to the entry caches only");

    r.recommendations << th << db << ec << im << base << total;
    r.terms = QJsonObject { { QStringLiteral("total_ram_mb"), t.totalMb() }, { QStringLiteral("base_mb"), t.baseMb },
        { QStringLiteral("dbcache_mb"), t.dbcacheMb }, { QStringLiteral("entry_caches_mb"), t.entryCachesMb },
        { QStringLiteral("entry_caches_term_mb"), t.entryFactor * t.entryCachesMb },
        { QStringLiteral("import_cache_mb"), t.importCacheMb }, { QStringLiteral("caches_mb"), t.cachesMb() },
        { QStringLiteral("entry_factor"), t.entryFactor }, { QStringLiteral("headroom_factor"), kHeadroom },
        { QStringLiteral("threads"), threads }, { QStringLiteral("formula"), total.formula },
        { QStringLiteral("computation"), total.computation } };

    // autotune: what the server would give itself on a host with this RAM
    if (in.ramMb) {
        Ds389AutotuneInput ai;
        ai.ramTotalBytes = *in.ramMb * 1e6;
        if (in.ramAvailableMb)
            ai.ramAvailableBytes = *in.ramAvailableMb * 1e6;
        ai.autosizePercent = in.autosizePercent;
        ai.splitPercent = in.autosizeSplitPercent;
        ai.backends = in.backends;
        const Ds389AutotuneResult a = Ds389Autotune::compute(ai);
        QJsonObject o = a.toJson();
        o.insert(QStringLiteral("ram_mb"), *in.ramMb);
        o.insert(QStringLiteral("ram_origin"), in.originOf(QStringLiteral("ram_mb")));
        o.insert(QStringLiteral("source"), Ds389Autotune::source());
        o.insert(QStringLiteral("vs_need"), coverageBlock(a.entryCacheTotalBytes() / 1e6, ec.value));
        o.insert(QStringLiteral("dbcache_shortfall_mb"), std::max(0.0, db.value - a.dbcacheBytesWritten / 1e6));
        if (in.cpus) {
            bool exact = false;
            const int t11 = Ds389Autotune::threadsRhds11(*in.cpus, &exact);
            o.insert(QStringLiteral("threads_rhds12"), Ds389Autotune::threadsRhds12(*in.cpus));
            o.insert(QStringLiteral("threads_rhds11"), t11);
            o.insert(QStringLiteral("threads_rhds11_exact_row"), exact);
            o.insert(QStringLiteral("threads_guide"), *in.cpus);
            o.insert(QStringLiteral("threads_source"), Ds389Autotune::threadsSource());
        }
        r.extra.insert(QStringLiteral("autotune"), o);
        if (a.entryCacheTotalBytes() / 1e6 < ec.value)
            r.addWarning(QStringLiteral("autotune-short"),
                QStringLiteral("autotune would give the entry cache %1 MB of the %2 MB needed (coverage %3 %): "
                               "autotune is conservative, not maximising (389-ds issue #5757)")
                    .arg(mb(a.entryCacheTotalBytes() / 1e6), mb(ec.value))
                    .arg(100.0 * a.entryCacheTotalBytes() / 1e6 / ec.value, 0, 'f', 1));
    }
    if (in.currentEntryCacheMb)
        r.extra.insert(QStringLiteral("current"), coverageBlock(*in.currentEntryCacheMb, ec.value));

    // the change, ready to apply (never applied by DirBench)
    QStringList cmds;
    cmds << QStringLiteral("# 389 Directory Server: review, then run; restart the instance for cache sizes to take "
                           "effect.")
         << QStringLiteral("# Autosizing is turned off, else the server replaces manual sizes at each start.");
    for (const auto* rec : { &th, &db, &ec, &im })
        if (!rec->apply.isEmpty())
            cmds << rec->apply;
    cmds << QString() << QStringLiteral("# The same as LDIF for cn=config (ldapmodify -D \"cn=Directory Manager\" -W):")
         << QStringLiteral("dn: cn=config") << QStringLiteral("changetype: modify")
         << QStringLiteral("replace: nsslapd-threadnumber") << QStringLiteral("nsslapd-threadnumber: %1").arg(threads)
         << QString() << QStringLiteral("dn: cn=config,cn=ldbm database,cn=plugins,cn=config")
         << QStringLiteral("changetype: modify") << QStringLiteral("replace: nsslapd-cache-autosize")
         << QStringLiteral("nsslapd-cache-autosize: 0") << QStringLiteral("-")
         << QStringLiteral("replace: nsslapd-dbcachesize")
         << QStringLiteral("nsslapd-dbcachesize: %1").arg(SizingText::mbToBytes(db.value));
    if (importMb > 0)
        cmds << QStringLiteral("-") << QStringLiteral("replace: nsslapd-import-cache-autosize")
             << QStringLiteral("nsslapd-import-cache-autosize: 0") << QStringLiteral("-")
             << QStringLiteral("replace: nsslapd-import-cachesize")
             << QStringLiteral("nsslapd-import-cachesize: %1").arg(SizingText::mbToBytes(importMb));
    cmds << QString() << QStringLiteral("dn: cn=%1,cn=ldbm database,cn=plugins,cn=config").arg(be)
         << QStringLiteral("changetype: modify") << QStringLiteral("replace: nsslapd-cachememsize")
         << QStringLiteral("nsslapd-cachememsize: %1").arg(SizingText::mbToBytes(perBackendMb));
    r.apply = cmds.join(u'\n') + u'\n';
    r.applyFormat = QStringLiteral("dsconf+ldif");
    return r;
}

} // namespace Ds389Sizing
