#include "core/replay/replaysummary.h"

#include "core/common/jsonread.h"
#include "core/common/runrecord.h"
#include "core/common/units.h"

#include <QJsonArray>

namespace {

QJsonValue replayOrNull(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QString replayTopCode(const QJsonObject& codes)
{
    QString best = QStringLiteral("-");
    double most = -1;
    for (auto it = codes.begin(); it != codes.end(); ++it)
        if (it.value().toDouble() > most) {
            most = it.value().toDouble();
            best = it.key();
        }
    return best;
}

QString replayCount(double v)
{
    return Units::formatNumber(v, 0);
}

QString replayPct(const std::optional<double>& fraction)
{
    return fraction ? Units::formatNumber(100.0 * *fraction, 1) + QStringLiteral(" %") : QStringLiteral("-");
}

ReplayTemplateRow replayRowOf(const QJsonObject& t)
{
    ReplayTemplateRow r;
    r.templateText = t.value(QStringLiteral("template")).toString();
    r.kind = t.value(QStringLiteral("kind")).toString();
    r.logged = t.value(QStringLiteral("logged")).toDouble();
    r.replayed = t.value(QStringLiteral("replayed")).toDouble();
    r.skippedWrites = t.value(QStringLiteral("skipped_writes")).toDouble();
    r.loggedShare = JsonRead::number(t.value(QStringLiteral("logged_share")));
    r.replayedShare = JsonRead::number(t.value(QStringLiteral("replayed_share")));
    const QJsonObject codes = t.value(QStringLiteral("result_codes")).toObject();
    r.loggedTopCode = replayTopCode(codes.value(QStringLiteral("logged")).toObject());
    r.replayedTopCode = replayTopCode(codes.value(QStringLiteral("replayed")).toObject());
    const QJsonObject et = t.value(QStringLiteral("etime_ms")).toObject();
    r.etimeP50Ms = JsonRead::number(et.value(QStringLiteral("logged_p50")));
    r.etimeP99Ms = JsonRead::number(et.value(QStringLiteral("logged_p99")));
    r.latencyP50Ms = JsonRead::number(et.value(QStringLiteral("replay_latency_p50")));
    r.latencyP99Ms = JsonRead::number(et.value(QStringLiteral("replay_latency_p99")));
    return r;
}

void readReplayFidelity(const QJsonObject& f, ReplaySummary* s)
{
    s->loggedOps = f.value(QStringLiteral("logged_ops")).toDouble();
    s->replayedOps = f.value(QStringLiteral("replayed_ops")).toDouble();
    s->skippedWrites = f.value(QStringLiteral("skipped_writes")).toDouble();
    s->notReplayable = f.value(QStringLiteral("not_replayable")).toDouble();
    s->bindsWithoutPassword = f.value(QStringLiteral("binds_without_password")).toDouble();
    s->cutByDuration = f.value(QStringLiteral("cut_by_duration")).toDouble();
    s->tolerancePp = f.value(QStringLiteral("tolerance_pp")).toDouble(ReplayFidelity::kTolerancePp);
    const QJsonArray rows = f.value(QStringLiteral("by_template")).toArray();
    for (const auto& v : rows)
        s->rows << replayRowOf(v.toObject());
    const QJsonArray drift = f.value(QStringLiteral("drift")).toArray();
    for (const auto& v : drift)
        s->drift << v.toString();
    if (const QJsonValue rate = f.value(QStringLiteral("rate")); rate.isObject())
        s->rate = ReplayFidelity::RateFidelity::fromJson(rate.toObject());
    s->spreadWithinSecond = f.value(QStringLiteral("spread_within_second")).toBool();
}

} // namespace

ReplaySummary ReplaySummary::fromJson(const QJsonObject& summary)
{
    ReplaySummary s;
    s.load = LoadSummary::fromJson(summary);
    readReplayFidelity(summary.value(QStringLiteral("fidelity")).toObject(), &s);
    const QJsonObject c = summary.value(QStringLiteral("connections")).toObject();
    s.connectionsLogged = c.value(QStringLiteral("logged")).toDouble();
    s.connectionsOpened = c.value(QStringLiteral("opened")).toDouble();
    s.connectionsFailed = c.value(QStringLiteral("failed")).toDouble();
    s.unbinds = c.value(QStringLiteral("unbinds")).toDouble();
    s.passwords = summary.value(QStringLiteral("passwords")).toString();
    if (const QJsonValue u = summary.value(QStringLiteral("writes_undone")); u.isObject()) {
        const QJsonObject o = u.toObject();
        ReplayUndo undo;
        undo.restored = o.value(QStringLiteral("restored")).toInt();
        undo.removed = o.value(QStringLiteral("removed")).toInt();
        const QJsonArray failures = o.value(QStringLiteral("failures")).toArray();
        for (const auto& v : failures)
            undo.failures << v.toString();
        s.undo = undo;
    }
    return s;
}

ReplaySummary ReplaySummary::of(const RunRecord& record)
{
    return fromJson(record.summary);
}

QString ReplaySummary::countsLine() const
{
    QString line = replayCount(loggedOps) + QStringLiteral(" operations logged, ") + replayCount(replayedOps)
        + QStringLiteral(" replayed");
    if (skippedWrites > 0)
        line += QStringLiteral(", ") + replayCount(skippedWrites) + QStringLiteral(" writes skipped");
    if (bindsWithoutPassword > 0)
        line += QStringLiteral(", ") + replayCount(bindsWithoutPassword) + QStringLiteral(" binds without a password");
    if (notReplayable > 0)
        line += QStringLiteral(", ") + replayCount(notReplayable) + QStringLiteral(" not replayable");
    return line;
}

QString ReplaySummary::rateLine() const
{
    if (!rate)
        return QStringLiteral("Rate: closed loop (as fast as possible), not compared with the log's");
    return QStringLiteral("Rate: %1 operations/s answered (%2 sent), %3 logged: difference %4, %5 (within %6 %)")
        .arg(Units::formatNumber(rate->achievedOpsPerS, 2), Units::formatNumber(rate->sentOpsPerS, 2),
            Units::formatNumber(rate->loggedOpsPerS, 2), replayPct(rate->difference()),
            rate->passed() ? QStringLiteral("passed") : QStringLiteral("FAILED"),
            Units::formatNumber(ReplayFidelity::kRateTolerance * 100.0, 0));
}

QString ReplaySummary::perSecondLine() const
{
    if (!rate)
        return {};
    QString line
        = QStringLiteral("Per second, |answered - logged| / logged: p50 %1, p99 %2, max %3 over %4 s (%5 "
                         "without logged operations)")
              .arg(replayPct(rate->perSecondP50), replayPct(rate->perSecondP99), replayPct(rate->perSecondMax),
                  replayCount(double(rate->seconds - rate->quietSeconds)), replayCount(double(rate->quietSeconds)));
    if (spreadWithinSecond)
        line += QStringLiteral("; whole-second log times spread over each second (seed in the spec)");
    return line;
}

QString ReplaySummary::connectionsLine() const
{
    const QString binds = passwords == u"none" || passwords.isEmpty()
        ? QStringLiteral("binds not sent (no password source)")
        : QStringLiteral("bind passwords from the ") + QString(passwords).replace(u'-', u' ');
    return QStringLiteral("Connections: %1 logged, %2 opened, %3 failed, %4 unbinds; %5")
        .arg(replayCount(connectionsLogged), replayCount(connectionsOpened), replayCount(connectionsFailed),
            replayCount(unbinds), binds);
}

QString ReplaySummary::sendLagLine() const
{
    if (!load.sendLagMs.p50)
        return {};
    return QStringLiteral("Send lag (scheduled time to send): p50 %1 ms, p99 %2 ms")
        .arg(Units::formatNumber(*load.sendLagMs.p50, 3), Units::formatNumber(load.sendLagMs.p99.value_or(0), 3));
}

QString ReplaySummary::writesLine() const
{
    if (!undo)
        return skippedWrites > 0 ? QStringLiteral("Writes: not replayed (skipped and counted)") : QString();
    QString line = QStringLiteral("Writes: undone at the end: %1 entries restored, %2 added entries removed")
                       .arg(replayCount(undo->restored), replayCount(undo->removed));
    if (!undo->failures.isEmpty())
        line += QStringLiteral("; NOT undone: ") + undo->failures.join(QStringLiteral("; "));
    return line;
}

QStringList ReplaySummary::lines() const
{
    QStringList out;
    for (const QString& l :
        { countsLine(), rateLine(), perSecondLine(), connectionsLine(), sendLagLine(), writesLine() })
        if (!l.isEmpty())
            out << l;
    return out;
}

void ReplayIntervalExtra::writeTo(QJsonObject* interval) const
{
    interval->insert(QStringLiteral("connects"), connects);
    interval->insert(QStringLiteral("unbinds"), unbinds);
    if (sendLagP50Ms)
        interval->insert(QStringLiteral("send_lag_ms"),
            QJsonObject { { QStringLiteral("p50"), replayOrNull(sendLagP50Ms) },
                { QStringLiteral("p99"), replayOrNull(sendLagP99Ms) } });
    if (scheduledOpsPerS)
        interval->insert(QStringLiteral("scheduled_ops_per_s"), *scheduledOpsPerS);
}

ReplayIntervalExtra ReplayIntervalExtra::fromJson(const QJsonObject& interval)
{
    ReplayIntervalExtra e;
    e.connects = interval.value(QStringLiteral("connects")).toDouble();
    e.unbinds = interval.value(QStringLiteral("unbinds")).toDouble();
    const QJsonObject lag = interval.value(QStringLiteral("send_lag_ms")).toObject();
    e.sendLagP50Ms = JsonRead::number(lag.value(QStringLiteral("p50")));
    e.sendLagP99Ms = JsonRead::number(lag.value(QStringLiteral("p99")));
    e.scheduledOpsPerS = JsonRead::number(interval.value(QStringLiteral("scheduled_ops_per_s")));
    return e;
}
