#include "core/experiments/curve.h"

#include "core/experiments/cachesweep.h"
#include "core/experiments/workingsetsweep.h"
#include "core/ldap/valuepattern.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>

namespace {

// The first [A-B] range that is not escaped (\[ is a literal bracket).
const QRegularExpression& rangeRe()
{
    static const QRegularExpression re(QStringLiteral("(?<!\\\\)\\[([0-9]+)-([0-9]+)\\]"));
    return re;
}

} // namespace

QString CurveSpec::modeName(Mode m)
{
    return m == Mode::CacheSweep ? QStringLiteral("cache-sweep") : QStringLiteral("working-set");
}

std::optional<CurveSpec::Mode> CurveSpec::parseMode(const QString& text, ProbeError* error)
{
    if (text == u"cache-sweep")
        return Mode::CacheSweep;
    if (text == u"working-set")
        return Mode::WorkingSet;
    if (error)
        *error = ProbeError::invalid(
            QStringLiteral("mode"), QStringLiteral("must be cache-sweep or working-set, not '") + text + u'\'');
    return std::nullopt;
}

std::optional<QList<double>> CurveSpec::parsePoints(const QString& text, ProbeError* error)
{
    auto bad = [error](const QString& why) -> std::optional<QList<double>> {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("points"), why);
        return std::nullopt;
    };
    QList<double> out;
    for (const QString& part : text.split(u',')) {
        bool ok = false;
        const double pct = part.trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(pct) || pct < 0 || pct > 100)
            return bad(QStringLiteral("'") + part.trimmed()
                + QStringLiteral("' is not a percentage from 0 to 100 (the list is comma-separated: 0,10,25,50,100)"));
        const double f = pct / 100.0;
        for (double p : std::as_const(out))
            if (std::abs(p - f) < 1e-9)
                return bad(QStringLiteral("%1 % is given twice").arg(pct));
        out << f;
    }
    if (out.size() < 2)
        return bad(QStringLiteral("at least two points are needed to fit the curve"));
    return out;
}

qint64 CurveSpec::keyCount() const
{
    if (entries > 0)
        return entries;
    const auto p = ValuePattern::parse(load.filter, QStringLiteral("filter"));
    return p && p->rangeCount() == 1 ? qint64(p->keyCount(0)) : 0;
}

ProbeError CurveSpec::validate() const
{
    if (points.size() < 2)
        return ProbeError::invalid(QStringLiteral("points"), QStringLiteral("at least two points are needed"));
    for (double p : points)
        if (!(p >= 0 && p <= 1))
            return ProbeError::invalid(QStringLiteral("points"), QStringLiteral("each must be from 0 to 100 %"));
    if (!(load.durationSec >= 0.5 && load.durationSec <= 3600))
        return ProbeError::invalid(
            QStringLiteral("seconds-per-point"), QStringLiteral("must be from 0.5 to 3600 seconds"));
    if (!(load.warmupSec >= 0 && load.warmupSec <= 3600))
        return ProbeError::invalid(QStringLiteral("warmup"), QStringLiteral("must be from 0 to 3600 seconds"));
    if (load.mix.size() != 1 || load.mix.first().first != LdapOpKind::Search)
        return ProbeError::invalid(QStringLiteral("mix"), QStringLiteral("a curve measures searches only"));
    if (entries < 0 || cacheEntries < 0)
        return ProbeError::invalid(entries < 0 ? QStringLiteral("entries") : QStringLiteral("cache-entries"),
            QStringLiteral("must be a positive number"));
    if (mode == Mode::WorkingSet) {
        if (restart)
            return ProbeError::invalid(QStringLiteral("restart"),
                QStringLiteral("only with %1 cache-sweep (a working-set sweep leaves the server as it is)")
                    .arg(ProbeError::ref(QStringLiteral("mode"))));
        const auto pattern = ValuePattern::parse(load.filter, QStringLiteral("filter"));
        if (!pattern || pattern->rangeCount() != 1 || !Experiments::cutRange(load.filter, 1))
            return ProbeError::invalid(QStringLiteral("filter"),
                QStringLiteral("needs exactly one [A-B] range (e.g. uid=user[0-99999]): the working set is cut from "
                               "its keys"));
        if (entries > qint64(pattern->keyCount(0)))
            return ProbeError::invalid(QStringLiteral("entries"),
                QStringLiteral("is larger than the filter's range (%1 keys)").arg(pattern->keyCount(0)));
    } else {
        if (cacheEntries > 0)
            return ProbeError::invalid(QStringLiteral("cache-entries"),
                QStringLiteral("only with %1 working-set (a cache sweep sets the cache size itself)")
                    .arg(ProbeError::ref(QStringLiteral("mode"))));
        if (keyCount() <= 0)
            return ProbeError::invalid(QStringLiteral("entries"),
                QStringLiteral("the filter has no single [A-B] range to count the entries by: give %1")
                    .arg(ProbeError::ref(QStringLiteral("entries"))));
    }
    if (!sandboxDir.isEmpty() && !restart)
        return ProbeError::invalid(QStringLiteral("sandbox-dir"),
            QStringLiteral("only with %1").arg(ProbeError::ref(QStringLiteral("restart"))));
    if (mode == Mode::WorkingSet && cacheEntries > 0 && cacheEntries >= keyCount())
        return ProbeError::invalid(QStringLiteral("cache-entries"),
            QStringLiteral("the cache holds all %1 keys of the filter's range: every point would be 100 %; use a "
                           "larger range")
                .arg(keyCount()));
    ProbeError e;
    if (!CompiledLoad::compile(load, &e))
        return e;
    return {};
}

QJsonObject CurveSpec::toJson() const
{
    QJsonArray pts;
    for (double p : points)
        pts.append(std::round(p * 1e6) / 1e4);
    return QJsonObject { { QStringLiteral("mode"), modeName(mode) }, { QStringLiteral("points_pct"), pts },
        { QStringLiteral("seconds_per_point"), load.durationSec }, { QStringLiteral("warmup_s"), load.warmupSec },
        { QStringLiteral("restart"), restart },
        { QStringLiteral("sandbox_dir"), sandboxDir.isEmpty() ? QJsonValue() : QJsonValue(sandboxDir) },
        { QStringLiteral("entries"), entries > 0 ? QJsonValue(double(entries)) : QJsonValue() },
        { QStringLiteral("cache_entries"), cacheEntries > 0 ? QJsonValue(double(cacheEntries)) : QJsonValue() },
        { QStringLiteral("load"), load.toJson() } };
}

namespace Experiments {

std::optional<QString> cutRange(const QString& filter, qint64 keys)
{
    auto it = rangeRe().globalMatch(filter);
    if (!it.hasNext() || keys < 1)
        return std::nullopt;
    const auto m = it.next();
    if (it.hasNext())
        return std::nullopt;
    const QString a = m.captured(1);
    bool ok = false;
    const qint64 first = a.toLongLong(&ok);
    if (!ok || m.captured(2).toLongLong() < first)
        return std::nullopt;
    const int width = a.size() > 1 && a.startsWith(u'0') ? int(a.size()) : 0;
    const QString last = QStringLiteral("%1").arg(first + keys - 1, width, 10, QChar(u'0'));
    return filter.left(m.capturedStart()) + u'[' + a + u'-' + last + u']' + filter.mid(m.capturedEnd());
}

RunRecord runCurve(const CurveSpec& spec, RunContext& ctx)
{
    return spec.mode == CurveSpec::Mode::CacheSweep ? runCacheSweep(spec, ctx) : runWorkingSetSweep(spec, ctx);
}

} // namespace Experiments
