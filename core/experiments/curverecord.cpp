#include "core/experiments/curverecord.h"

#include "core/common/environment.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadgenerator.h"
#include "core/run/runcontext.h"
#include "core/sizing/curvefit.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace CurveRecord {

namespace {

double round4(double v)
{
    return std::round(v * 1e4) / 1e4;
}

} // namespace

RunRecord begin(const CurveSpec& spec)
{
    RunRecord rec;
    rec.kind = QStringLiteral("curve");
    rec.started = QDateTime::currentDateTime();
    rec.spec = spec.toJson();
    rec.environment = Environment::collect();
    if (const ProbeError e = spec.validate(); e.isError()) {
        rec.status = QStringLiteral("failed");
        rec.failure = e.message();
    }
    return rec;
}

QString seriesName(int index, int count, double target)
{
    return QStringLiteral("point %1/%2: %3 %").arg(index + 1).arg(count).arg(std::round(target * 1000.0) / 10.0);
}

RunRecord runPoint(
    RunRecord& rec, const LdapLoadSpec& load, const QString& series, RunContext& ctx, const QElapsedTimer& clock)
{
    // The measured phase starts after the warm-up: that is where the point's t = 0 goes on the sweep's time axis.
    const double offset = std::round((double(clock.nsecsElapsed()) / 1e9 + load.warmupSec) * 1000.0) / 1000.0;
    RunContext part(&ctx, series, offset);
    RunRecord r = Ldap::runLoad(load, part);
    for (const auto& v : std::as_const(r.intervals)) {
        QJsonObject o = v.toObject();
        o.insert(QStringLiteral("series"), series);
        o.insert(QStringLiteral("t"), std::round((o.value(QStringLiteral("t")).toDouble() + offset) * 1000.0) / 1000.0);
        rec.intervals.append(o);
    }
    for (const auto& w : std::as_const(r.warnings))
        rec.addWarning(w.code, series + QStringLiteral(": ") + w.message);
    if (rec.server.isNull())
        rec.server = r.server;
    return r;
}

std::optional<double> hitRatio(const LoadSummary& load, QJsonObject* details)
{
    const QJsonObject srv = load.server.toObject();
    const QJsonValue hits = srv.value(QStringLiteral("entry_cache_hits"));
    const QJsonValue tries = srv.value(QStringLiteral("entry_cache_tries"));
    if (!hits.isDouble() || !tries.isDouble())
        return std::nullopt;
    const QJsonValue serverSearches = srv.value(QStringLiteral("search_completed"));
    const double searches = serverSearches.isDouble() ? serverSearches.toDouble() : load.all.ops;
    const double h = hits.toDouble(), t = tries.toDouble();
    if (details) {
        details->insert(QStringLiteral("entry_cache_hits"), h);
        details->insert(QStringLiteral("entry_cache_tries"), t);
        details->insert(QStringLiteral("searches"), searches);
        details->insert(QStringLiteral("window_hit_ratio"), t > 0 ? QJsonValue(round4(h / t)) : QJsonValue());
        details->insert(
            QStringLiteral("lookups_per_search"), searches > 0 ? QJsonValue(round4(t / searches)) : QJsonValue());
    }
    if (searches <= 0 || t <= 0)
        return std::nullopt;
    return std::clamp(1.0 - (t - h) / searches, 0.0, 1.0);
}

void takeLoad(Point* p, const RunRecord& part)
{
    const LoadSummary s = LoadSummary::fromJson(part.summary);
    p->okPerSec = s.all.okPerS;
    p->opsPerSec = s.all.opsPerS;
    p->hitRatio = hitRatio(s, &p->details);
    p->details.insert(QStringLiteral("errors"), s.all.errors);
    p->details.insert(QStringLiteral("latency_ms"), s.all.latencyMs.toJson(true));
    p->details.insert(QStringLiteral("status"), part.status);
}

QMap<QString, double> readCacheGauges(LdapSession& session, const QString& monitorDn)
{
    QMap<QString, double> m;
    QList<LdapSession::Entry> out;
    const QList<QPair<const char*, const char*>> attrs { { "currententrycachecount", "count" },
        { "currententrycachesize", "size" }, { "maxentrycachesize", "max" } };
    QStringList names;
    for (const auto& a : attrs)
        names << QLatin1String(a.first);
    if (monitorDn.isEmpty()
        || session.search(monitorDn, LdapSession::Base, QStringLiteral("(objectClass=*)"), names, &out, 0, 5000)
               .isError()
        || out.isEmpty())
        return m;
    for (const auto& a : attrs) {
        bool ok = false;
        const double v = out.first().first(QLatin1String(a.first)).toDouble(&ok);
        if (ok)
            m.insert(QLatin1String(a.second), v);
    }
    return m;
}

void finish(RunRecord& rec, const QList<Point>& points, qint64 entries, const QString& access)
{
    QJsonArray arr;
    QList<CurvePoint> measured;
    for (const Point& p : points) {
        QJsonObject o = p.details;
        o.insert(QStringLiteral("target"), round4(p.target));
        o.insert(QStringLiteral("coverage"), round4(p.coverage));
        o.insert(QStringLiteral("hit_ratio"), p.hitRatio ? QJsonValue(round4(*p.hitRatio)) : QJsonValue());
        o.insert(QStringLiteral("ok_per_s"), p.okPerSec);
        o.insert(QStringLiteral("ops_per_s"), p.opsPerSec);
        o.insert(QStringLiteral("series"), p.series);
        arr.append(o);
        measured.append(CurvePoint { p.coverage, p.okPerSec, p.hitRatio });
    }
    QJsonObject& s = rec.summary;
    s.insert(QStringLiteral("points"), arr);
    s.insert(QStringLiteral("entries"), double(entries));
    s.insert(QStringLiteral("access"), access);

    QJsonValue tHit, tMiss, fitJson;
    CurveFitOptions o;
    o.entries = quint64(std::max<qint64>(entries, 1));
    if (const auto a = AccessDistribution::parse(access))
        o.access = *a;
    ProbeError err;
    const auto fit = points.size() >= 2 ? CurveFitter::fit(measured, o, &err) : std::nullopt;
    if (fit) {
        tHit = std::round(fit->tHit * 1e8) / 100.0; // µs, two decimals
        tMiss = std::round(fit->tMiss * 1e8) / 100.0;
        fitJson = fit->toJson();
    } else if (rec.status == u"ok") {
        rec.addWarning(QStringLiteral("fit"),
            QStringLiteral("the service-time model could not be fitted to these points: ")
                + (err.isError() ? err.detail : QStringLiteral("fewer than two points were measured")));
    }
    s.insert(QStringLiteral("t_hit_us"), tHit);
    s.insert(QStringLiteral("t_miss_us"), tMiss);
    s.insert(QStringLiteral("fit"), fitJson);
}

} // namespace CurveRecord
