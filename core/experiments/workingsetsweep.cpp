#include "core/experiments/workingsetsweep.h"

#include "core/common/units.h"
#include "core/experiments/curverecord.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/monitorreader.h"
#include "core/ldap/serverconnect.h"
#include "core/ldap/serveridentity.h"
#include "core/run/runcontext.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kMinCachedForEstimate = 100; // entries in the cache before its size per entry means anything
constexpr double kAssumedCacheShare = 0.1; // the cache a working-set sweep assumes where the server shows none

} // namespace

namespace Experiments {

RunRecord runWorkingSetSweep(const CurveSpec& spec, RunContext& ctx)
{
    RunRecord rec = CurveRecord::begin(spec);
    if (rec.status != u"ok")
        return rec;
    QElapsedTimer clock;
    clock.start();
    const qint64 n = spec.keyCount();
    QList<CurveRecord::Point> points;
    QJsonObject extra;
    auto done = [&]() -> RunRecord& {
        CurveRecord::finish(rec, points, n, spec.load.access);
        rec.summary.insert(QStringLiteral("mode"), CurveSpec::modeName(spec.mode));
        for (auto it = extra.begin(); it != extra.end(); ++it)
            rec.summary.insert(it.key(), it.value());
        ctx.setProgress(1.0);
        return rec;
    };
    auto fail = [&](const QString& why) -> RunRecord& {
        rec.status = ctx.stopRequested() ? QStringLiteral("cancelled") : QStringLiteral("failed");
        rec.failure = ctx.stopRequested() ? QString() : why;
        return done();
    };

    ctx.setPhase(QStringLiteral("connecting"));
    LdapSession s;
    IdentifiedServer server;
    if (const ProbeError e = ServerConnect::connectAndIdentify(s, spec.load.target, &server); e.isError())
        return fail(e.message());
    const ServerIdentity& id = server.identity;
    rec.server = server.json;

    // How many entries the cache holds: as given, or what a 389-ds entry cache can hold at its current size.
    double cache = double(spec.cacheEntries);
    QString source = QStringLiteral("given (--cache-entries)");
    if (cache <= 0) {
        MonitorReader monitor(id.kind);
        ProbeError me;
        const auto m = monitor.supported() ? monitor.read(s, &me) : QMap<QString, double>();
        const double count = m.value(QStringLiteral("entry_cache_count"));
        const double size = m.value(QStringLiteral("entry_cache_size"));
        const double max = m.value(QStringLiteral("entry_cache_max_size"));
        if (m.contains(QStringLiteral("entry_cache_max_size")) && (count < kMinCachedForEstimate || size <= 0))
            return fail(ProbeError::invalid(QStringLiteral("cache-entries"),
                QStringLiteral("the server's entry cache holds %1 entries, too few to tell how many fit: warm it "
                               "up first, or give the cache's size in entries")
                    .arg(count))
                            .message());
        if (max > 0 && count >= kMinCachedForEstimate && size > 0) {
            cache = std::floor(max / (size / count));
            source = QStringLiteral(
                "server monitor: maxentrycachesize / (currententrycachesize / currententrycachecount)");
        } else {
            // No entry cache to size by (OpenLDAP back-mdb caches in the page cache): the sweep still runs, over
            // working sets from the whole range down to a tenth of it, and says what it assumed.
            cache = std::max(1.0, std::floor(double(n) * kAssumedCacheShare));
            source = QStringLiteral("assumed: %1 % of the filter's range (the server shows no entry cache)")
                         .arg(kAssumedCacheShare * 100);
            rec.addWarning(QStringLiteral("cache-entries-assumed"),
                QStringLiteral("%1 shows no entry cache size: the points take a cache of %2 entries (%3 % of the "
                               "filter's %4 keys), so they are working sets from all the keys down to a tenth of "
                               "them; give the entries the server's cache holds (back-mdb: the page cache) for a "
                               "coverage that is the cache's")
                    .arg(id.kind.isEmpty() ? QStringLiteral("the server") : id.kind)
                    .arg(cache)
                    .arg(kAssumedCacheShare * 100)
                    .arg(n));
        }
    }
    if (cache >= double(n))
        return fail(ProbeError::invalid(QStringLiteral("cache-entries"),
            QStringLiteral("the cache holds %1 entries, all %2 keys of the filter's range: every point would be 100 %")
                .arg(cache)
                .arg(n))
                        .message());
    extra.insert(QStringLiteral("cache_entries"), cache);
    extra.insert(QStringLiteral("cache_entries_source"), source);

    QStringList clamped;
    for (int i = 0; i < spec.points.size(); ++i) {
        if (ctx.stopRequested())
            return fail({});
        const double target = spec.points[i];
        const QString series = CurveRecord::seriesName(i, int(spec.points.size()), target);
        // The cache holds `target` of the keys the load touches: round(C / target) of them, at most all N.
        qint64 keys = n;
        if (target > 0 && cache / target <= double(n))
            keys = std::clamp<qint64>(std::llround(cache / target), 1, n);
        const double coverage = std::min(1.0, cache / double(keys));
        if (std::abs(coverage - target) > 0.005)
            clamped << Units::formatNumber(target * 100, 1) + QStringLiteral(" % (measured at ")
                    + Units::formatNumber(coverage * 100, 1) + QStringLiteral(" %)");
        LdapLoadSpec load = spec.load;
        load.filter = *cutRange(spec.load.filter, keys);
        load.readServerCounters = true;
        ctx.setPhase(series + QStringLiteral(": ") + load.filter);
        const RunRecord part = CurveRecord::runPoint(rec, load, series, ctx, clock);

        CurveRecord::Point p;
        p.target = target;
        p.coverage = coverage;
        p.series = series;
        CurveRecord::takeLoad(&p, part);
        p.details.insert(QStringLiteral("working_set"), double(keys));
        p.details.insert(QStringLiteral("filter"), load.filter);
        if (part.status != u"ok")
            return fail(series + QStringLiteral(": ") + part.failure);
        points << p;
        ctx.setProgress(double(i + 1) / double(spec.points.size()));
    }
    if (!clamped.isEmpty())
        rec.addWarning(QStringLiteral("coverage-clamped"),
            QStringLiteral("the filter's range has %1 keys, so a cache of %2 entries holds at least %3 % of it: %4")
                .arg(n)
                .arg(cache)
                .arg(Units::formatNumber(100.0 * cache / double(n), 1), clamped.join(QStringLiteral(", "))));
    return done();
}

} // namespace Experiments
