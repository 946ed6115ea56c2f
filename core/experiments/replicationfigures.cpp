#include "core/experiments/replicationfigures.h"

#include "core/common/jsonread.h"
#include "core/common/reportformat.h"

#include <QJsonArray>

namespace ReplicationFigures {

namespace {

using JsonRead::number;

QJsonObject consumerOf(const QJsonObject& holder, const QString& uri)
{
    return holder.value(QStringLiteral("consumers")).toObject().value(uri).toObject();
}

} // namespace

Lag lagOf(const QJsonValue& lagMs)
{
    const QJsonObject o = lagMs.toObject();
    return { number(o, QStringLiteral("p50")), number(o, QStringLiteral("p99")), number(o, QStringLiteral("max")),
        o.value(QStringLiteral("p50_at_least")).toBool(), o.value(QStringLiteral("p99_at_least")).toBool(),
        o.value(QStringLiteral("max_at_least")).toBool() };
}

QString lagValue(const std::optional<double>& ms, bool atLeast)
{
    if (!ms)
        return QStringLiteral("n/a");
    return atLeast ? QString(u"> " + ReportFormat::number(*ms)) : ReportFormat::number(*ms);
}

QStringList consumerUris(const RunRecord& r)
{
    QStringList uris = r.summary.value(QStringLiteral("consumers")).toObject().keys();
    if (!uris.isEmpty())
        return uris;
    const QJsonArray consumersList = r.spec.value(QStringLiteral("consumers")).toArray();
    for (const auto& c : consumersList)
        if (const QString uri = c.toObject().value(QStringLiteral("uri")).toString(); !uri.isEmpty())
            uris << uri;
    if (!uris.isEmpty())
        return uris;
    for (const auto& i : r.intervals)
        for (const QString& uri : i.toObject().value(QStringLiteral("consumers")).toObject().keys())
            if (!uris.contains(uri))
                uris << uri;
    return uris;
}

QString methodOf(const RunRecord& r, const QString& uri)
{
    for (const QString& m : { consumerOf(r.summary, uri).value(QStringLiteral("method")).toString(),
             r.summary.value(QStringLiteral("method")).toString(), r.spec.value(QStringLiteral("method")).toString() })
        if (!m.isEmpty())
            return m;
    return QStringLiteral("poll");
}

std::optional<double> kneeRate(const QJsonObject& summary)
{
    return number(summary, QStringLiteral("knee_write_rate"));
}

std::optional<double> rampTopRate(const QJsonObject& summary)
{
    const QJsonArray steps = summary.value(QStringLiteral("steps")).toArray();
    if (steps.isEmpty())
        return std::nullopt;
    return number(steps.last().toObject(), QStringLiteral("write_rate"));
}

// "contextCSN lag p99 1.2 ms, max 3.4 ms; agreement green; 0 conflicts" (389-ds: "RUV lag ..."), and when the
// server's figure and the markers' disagree, says so; empty when the record has no vendor figures.
QString vendorText(const QJsonValue& vendor)
{
    const QJsonObject o = vendor.toObject();
    if (o.isEmpty())
        return {};
    const QString what = o.value(QStringLiteral("kind")).toString() == u"389ds" ? QStringLiteral("RUV lag")
                                                                                : QStringLiteral("contextCSN lag");
    QStringList parts;
    const auto ms = [](double v) { return QString(ReportFormat::number(v) + QStringLiteral(" ms")); };
    const std::optional<double> p99 = number(o, QStringLiteral("lag_p99_ms"));
    const std::optional<double> max = number(o, QStringLiteral("lag_max_ms"));
    const std::optional<double> now = number(o, QStringLiteral("lag_ms"));
    if (p99) {
        QString lag = what + QStringLiteral(" p99 ") + ms(*p99);
        if (max)
            lag += QStringLiteral(", max ") + ms(*max);
        parts << lag;
    } else if (now) {
        parts << QString(what + u' ' + ms(*now));
    }
    const QJsonObject agreement = o.value(QStringLiteral("agreement")).toObject();
    if (const QString state = agreement.value(QStringLiteral("state")).toString(); !state.isEmpty()) {
        const QString message = agreement.value(QStringLiteral("message")).toString();
        parts << QString(u"agreement " + state + (message.isEmpty() ? QString() : u": " + message));
    }
    if (const auto conflicts = number(o, QStringLiteral("conflicts")))
        parts << ReportFormat::number(*conflicts) + QStringLiteral(" conflicts");
    if (const auto readings = number(o, QStringLiteral("readings")); readings && *readings > 0)
        parts << QString(ReportFormat::number(number(o, QStringLiteral("disagreeing_readings")).value_or(0)) + u" of "
            + ReportFormat::number(*readings) + u" readings disagree with the markers");
    else if (o.value(QStringLiteral("vendor_disagrees")).toBool())
        parts << QStringLiteral("disagrees with the markers");
    return parts.join(QStringLiteral("; "));
}

bool hasVerdictSentences(const RunRecord& r)
{
    return r.summary.value(QStringLiteral("verdict_sentences")).isArray();
}

QStringList specConsumerUris(const RunRecord& r)
{
    QStringList uris;
    const QJsonArray consumersList = r.spec.value(QStringLiteral("consumers")).toArray();
    for (const auto& c : consumersList)
        uris << c.toObject().value(QStringLiteral("uri")).toString();
    return uris;
}

QStringList verdictSentences(const RunRecord& r)
{
    QStringList out;
    const QJsonArray verdictSentencesList = r.summary.value(QStringLiteral("verdict_sentences")).toArray();
    for (const auto& v : verdictSentencesList)
        if (v.isString())
            out << v.toString();
    return out;
}

QString headline(const RunRecord& r)
{
    const QStringList uris = consumerUris(r);
    std::optional<double> worst;
    bool worstAtLeast = false;
    qint64 unseen = 0;
    for (const QString& uri : uris) {
        const QJsonObject c = consumerOf(r.summary, uri);
        const Lag lag = lagOf(c.value(QStringLiteral("lag_ms")));
        // A lower bound outranks an exact figure: the consumer behind it never showed some markers.
        const bool worse = lag.p99
            && (!worst || (lag.p99AtLeast && !worstAtLeast) || (lag.p99AtLeast == worstAtLeast && *lag.p99 > *worst));
        if (worse) {
            worst = lag.p99;
            worstAtLeast = lag.p99AtLeast;
        }
        unseen += qint64(c.value(QStringLiteral("unseen")).toDouble());
    }
    if (uris.isEmpty() || r.summary.isEmpty())
        return {};
    const QString consumers
        = uris.size() == 1 ? QStringLiteral("1 consumer") : QString(QString::number(uris.size()) + u" consumers");
    const QString lag = worst
        ? QString(u"p99 lag " + lagValue(worst, worstAtLeast) + u" ms (worst of " + consumers + u')')
        : QString(u"no marker seen on " + consumers);
    return QString(lag + u", " + QString::number(unseen) + u" unseen, "
        + ReportFormat::number(r.summary.value(QStringLiteral("write_ok_per_s")).toDouble()) + u" writes/s");
}

void addInterval(const QJsonObject& interval, const QString& uri, ConsumerSeries* out)
{
    const double t = interval.value(QStringLiteral("t")).toDouble();
    const QJsonObject c = consumerOf(interval, uri);
    if (c.isEmpty())
        return;
    const Lag lag = lagOf(c.value(QStringLiteral("lag_ms")));
    if (lag.p50)
        out->p50.append({ t, *lag.p50 });
    if (lag.p99)
        out->p99.append({ t, *lag.p99 });
    const double behind = c.value(QStringLiteral("behind")).toDouble() > 0
        ? c.value(QStringLiteral("oldest_unseen_s")).toDouble() * 1000
        : 0.0;
    out->everBehind = out->everBehind || behind > 0;
    out->behindMs.append({ t, behind });
}

ConsumerSeries seriesOf(const QJsonArray& intervals, const QString& uri)
{
    ConsumerSeries s;
    for (const auto& v : intervals)
        addInterval(v.toObject(), uri, &s);
    return s;
}

QList<QPointF> writeRate(const QJsonArray& intervals)
{
    QList<QPointF> out;
    double previous = 0;
    for (const auto& v : intervals) {
        const QJsonObject i = v.toObject();
        const double t = i.value(QStringLiteral("t")).toDouble();
        if (const auto w = number(i, QStringLiteral("write_ok_per_s")); w && rateSpanOk(previous, t))
            out.append({ t, *w });
        previous = t;
    }
    return out;
}

QString edirectoryNote()
{
    return QStringLiteral(
        "The eDirectory article begins with replication failing: \"Errors -625 and -626 are seen in ndstrace and "
        "ndsrepair during synchronization due to NCP timing out\" - a slow cloud disk made the servers time out. "
        "Lag measured here is the delay before it comes to that; the disk tests (the commit profile: small "
        "synchronous writes, as a directory's transaction log makes them) show whether the disk is why.");
}

} // namespace ReplicationFigures
