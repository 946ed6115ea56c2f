#include "core/experiments/replicationsummary.h"

#include "core/common/jsonread.h"
#include "core/common/reportformat.h"
#include "core/common/units.h"

#include <QJsonArray>

namespace ReplicationFigures {

namespace {

// Issue 13: the server's own lag beside the measured one (" vendor 1,000.0 ms", "(disagrees)" when they disagree).
QString replicationVendorLag(const QJsonObject& o)
{
    if (!o.value(QLatin1String("lag_ms")).isDouble())
        return {};
    return QStringLiteral(" vendor %1 ms%2%3")
        .arg(Units::formatNumber(o.value(QLatin1String("lag_ms")).toDouble(), 1),
            o.value(QLatin1String("lag_source")).toString() == u"last-reading" ? QStringLiteral(" (last reading)")
                                                                               : QString(),
            o.value(QLatin1String("vendor_disagrees")).toBool() ? QStringLiteral(" (disagrees)") : QString());
}

QList<ConsumerFigures> replicationConsumers(const QJsonObject& holder)
{
    QList<ConsumerFigures> out;
    const QJsonObject consumers = holder.value(QLatin1String("consumers")).toObject();
    for (auto it = consumers.begin(); it != consumers.end(); ++it)
        out.append(ConsumerFigures::fromJson(it.key(), it.value().toObject()));
    return out;
}

RampStep replicationRampStep(const QJsonObject& st)
{
    RampStep step { st.value(QLatin1String("step")).toInt(), JsonRead::number(st, "target_rate"),
        JsonRead::number(st, "write_rate"), {} };
    const QJsonObject consumers = st.value(QLatin1String("consumers")).toObject();
    for (auto it = consumers.begin(); it != consumers.end(); ++it) {
        const QJsonObject c = it.value().toObject();
        step.consumers.append({ it.key(), JsonRead::number(c, "p50_ms"), JsonRead::number(c, "p99_ms"),
            JsonRead::number(c, "slope_ms_per_s"), c.value(QLatin1String("unseen")).toInt(),
            c.value(QLatin1String("knee")).toBool() });
    }
    return step;
}

void replicationReadLoad(const QJsonObject& s, Summary* out)
{
    if (s.value(QLatin1String("load")).isObject())
        out->load = LoadSummary::fromJson(s.value(QLatin1String("load")).toObject());
    out->loadWriteOkPerS = JsonRead::number(s, "load_write_ok_per_s");
    out->ramped = s.value(QLatin1String("steps")).isArray();
    const QJsonArray stepsArray = s.value(QLatin1String("steps")).toArray();
    for (const auto& v : stepsArray)
        out->steps.append(replicationRampStep(v.toObject()));
    out->kneeWriteRate = kneeRate(s);
    out->kneeTargetRate = JsonRead::number(s, "knee_target_rate");
    out->kneeStep = s.value(QLatin1String("knee_step")).toInt();
    out->kneeConsumer = s.value(QLatin1String("knee_consumer")).toString();
}

} // namespace

ConsumerFigures ConsumerFigures::fromJson(const QString& uri, const QJsonObject& c)
{
    ConsumerFigures f;
    f.uri = uri;
    f.lag = lagOf(c.value(QLatin1String("lag_ms")));
    f.lagFromSend = lagOf(c.value(QLatin1String("lag_from_send_ms")));
    f.lagFigures = ReplicationLag::Figures::fromJson(c.value(QLatin1String("lag_ms")));
    f.lagFromSendFigures = ReplicationLag::Figures::fromJson(c.value(QLatin1String("lag_from_send_ms")));
    f.markersSeen = JsonRead::number(c, "markers_seen");
    f.unseen = JsonRead::number(c, "unseen");
    f.behindForAtLeastS = JsonRead::number(c, "behind_for_at_least_s");
    f.seenBeforeAck = JsonRead::number(c, "seen_before_ack");
    f.behind = c.value(QLatin1String("behind")).toDouble();
    f.oldestUnseenS = c.value(QLatin1String("oldest_unseen_s")).toDouble();
    f.reachable = c.value(QLatin1String("reachable")).toBool(true);
    f.method = c.value(QLatin1String("method")).toString();
    f.vendor = vendorText(c.value(QLatin1String("vendor")));
    f.vendorLag = replicationVendorLag(c.value(QLatin1String("vendor")).toObject());
    return f;
}

QString lagTriple(const std::optional<ReplicationLag::Figures>& f)
{
    if (!f)
        return QStringLiteral("-");
    return ReplicationLag::text(f->p50, f->p50AtLeast) + u'/' + ReplicationLag::text(f->p99, f->p99AtLeast) + u'/'
        + ReplicationLag::text(f->max, f->maxAtLeast);
}

QString cell(const std::optional<double>& v)
{
    return v ? ReportFormat::number(*v) : QStringLiteral("n/a");
}

Summary Summary::fromJson(const QJsonObject& s)
{
    Summary out;
    out.markersWritten = JsonRead::number(s, "markers_written");
    out.writeErrors = JsonRead::number(s, "write_errors");
    out.markersMissed = JsonRead::number(s, "markers_missed");
    out.writeOkPerS = JsonRead::number(s, "write_ok_per_s");
    out.markerWriteOkPerS = JsonRead::number(s, "marker_write_ok_per_s");
    out.method = s.value(QLatin1String("method")).toString();
    out.consumers = replicationConsumers(s);
    const QJsonArray discoveredConsumersArray = s.value(QLatin1String("discovered_consumers")).toArray();
    for (const auto& v : discoveredConsumersArray)
        out.discoveredConsumers.append(v.toString());
    replicationReadLoad(s, &out);
    return out;
}

const ConsumerFigures* Summary::consumer(const QString& uri) const
{
    for (const ConsumerFigures& c : consumers)
        if (c.uri == uri)
            return &c;
    return nullptr;
}

Interval Interval::fromJson(const QJsonObject& interval)
{
    return { interval.value(QLatin1String("t")).toDouble(), interval.value(QLatin1String("write_ok_per_s")).toDouble(),
        interval.value(QLatin1String("markers_missed")).toDouble(), replicationConsumers(interval) };
}

QString supplierUri(const RunRecord& r)
{
    return r.spec.value(QLatin1String("supplier")).toObject().value(QLatin1String("uri")).toString();
}

} // namespace ReplicationFigures
