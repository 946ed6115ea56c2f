// The write load's part of the replication record's summary: the load's own summary, the write rates, and after a
// ramp the lag per step and consumer and the knee.
#include "core/experiments/replicationknee.h"
#include "core/experiments/replicationload.h"
#include "core/experiments/replicationwatch.h"

#include <algorithm>
#include <cmath>

namespace {

QJsonValue orNull(const std::optional<double>& v)
{
    return v ? QJsonValue(std::round(*v * 1000.0) / 1000.0) : QJsonValue(QJsonValue::Null);
}

QJsonObject consumerStep(const ReplicationKnee::StepLag& l, bool knee)
{
    return { { QStringLiteral("p50_ms"), orNull(l.p50Ms) }, { QStringLiteral("p99_ms"), orNull(l.p99Ms) },
        { QStringLiteral("p50_from_send_ms"), orNull(l.p50FromSendMs) },
        { QStringLiteral("p99_from_send_ms"), orNull(l.p99FromSendMs) },
        { QStringLiteral("slope_ms_per_s"), orNull(l.slopeMsPerS) }, { QStringLiteral("markers"), l.markers },
        { QStringLiteral("unseen"), l.unseen }, { QStringLiteral("p99_at_least"), l.p99AtLeast },
        { QStringLiteral("knee"), knee } };
}

} // namespace

// One entry per step the load reached: its target, the measured write rate (load + markers) and, per consumer, the
// lag of the markers acknowledged in it. *knee: {step, write_rate, target_rate, consumer} of the earliest knee.
QJsonArray ReplicationLoad::Runner::steps(
    const Marks& marks, const std::vector<Seen>& seen, double floorMs, QJsonObject* knee) const
{
    const std::vector<qint64>& acks = marks.acks;
    int count = 0;
    for (const LoadInterval& iv : m_intervals)
        count = std::max(count, iv.step.value_or(0) + 1);
    const auto stepNs = qint64(m_ramp.stepSeconds * 1e9);
    std::vector<std::vector<ReplicationKnee::StepLag>> lags(seen.size());
    std::vector<double> rates;
    rates.reserve(size_t(count));
    for (int s = 0; s < count; ++s) {
        const qint64 begin = m_t0 + s * stepNs;
        double loadWrites = 0;
        for (const LoadInterval& iv : m_intervals)
            if (iv.step.value_or(0) == s)
                loadWrites += ReplicationLoad::writeOkPerS(iv.all, iv.byOperation, m_spec) * iv.seconds;
        const auto markers = double(std::count_if(
            acks.begin(), acks.end(), [&](qint64 a) { return a > 0 && a >= begin && a < begin + stepNs; }));
        rates.push_back((loadWrites + markers) / m_ramp.stepSeconds);
        for (size_t c = 0; c < seen.size(); ++c)
            lags[c].push_back(
                ReplicationKnee::stepLag(acks, marks.sends, seen[c].seen, begin, begin + stepNs, marks.watchEndNs));
    }
    std::optional<size_t> first;
    std::vector<std::optional<size_t>> knees;
    knees.reserve(seen.size());
    for (size_t c = 0; c < seen.size(); ++c) {
        knees.push_back(ReplicationKnee::kneeStep(lags[c], floorMs));
        if (knees.back() && (!first || *knees.back() < *first)) {
            first = knees.back();
            knee->insert(QStringLiteral("consumer"), seen[c].uri);
        }
    }
    QJsonArray out;
    for (int s = 0; s < count; ++s) {
        QJsonObject consumers;
        for (size_t c = 0; c < seen.size(); ++c)
            consumers.insert(seen[c].uri, consumerStep(lags[c][size_t(s)], knees[c] && int(*knees[c]) == s));
        QJsonObject step { { QStringLiteral("step"), s },
            { QStringLiteral("write_rate"), std::round(rates[size_t(s)] * 10.0) / 10.0 },
            { QStringLiteral("consumers"), consumers } };
        if (m_ramp.what == LoadRamp::What::Rate)
            step.insert(QStringLiteral("target_rate"), m_ramp.values.value(s));
        else
            step.insert(QStringLiteral("outstanding"), m_ramp.values.value(s));
        out.append(step);
    }
    if (first) {
        const QJsonObject k = out.at(int(*first)).toObject();
        knee->insert(QStringLiteral("step"), int(*first));
        knee->insert(QStringLiteral("write_rate"), k.value(QStringLiteral("write_rate")));
        knee->insert(QStringLiteral("target_rate"), k.value(QStringLiteral("target_rate")));
    }
    return out;
}

void ReplicationLoad::Runner::summariseSeen(
    RunRecord& rec, const Marks& marks, const std::vector<Seen>& seen, double floorMs)
{
    QJsonObject load = m_rec.summary;
    load.insert(QStringLiteral("status"), m_rec.status);
    load.insert(QStringLiteral("failure"), m_rec.failure.isEmpty() ? QJsonValue() : QJsonValue(m_rec.failure));
    load.insert(QStringLiteral("write_ok_per_s"), std::round(writeOkPerS() * 10.0) / 10.0);
    rec.summary.insert(QStringLiteral("load"), load);
    const double marker = rec.summary.value(QStringLiteral("write_ok_per_s")).toDouble();
    rec.summary.insert(QStringLiteral("marker_write_ok_per_s"), marker);
    rec.summary.insert(QStringLiteral("load_write_ok_per_s"), writeOkPerS());
    rec.summary.insert(QStringLiteral("write_ok_per_s"), marker + writeOkPerS());
    if (rec.server.isNull())
        rec.server = m_rec.server;
    for (const RunWarning& w : m_rec.warnings)
        rec.addWarning(w.code, QStringLiteral("the write load: ") + w.message);
    if (m_late)
        rec.addWarning(QStringLiteral("load-start-late"),
            QStringLiteral("the write load's connections took longer than its 1 s lead: its intervals began after "
                           "the probe's (a longer warm-up gives them time)"));
    if (m_ramp.what == LoadRamp::What::None)
        return;
    QJsonObject knee;
    rec.summary.insert(QStringLiteral("steps"), steps(marks, seen, floorMs, &knee));
    for (const char* key : { "step", "write_rate", "target_rate", "consumer" }) {
        const QJsonValue v = knee.value(QLatin1String(key));
        rec.summary.insert(QStringLiteral("knee_") + QLatin1String(key), v.isUndefined() ? QJsonValue() : v);
    }
}
