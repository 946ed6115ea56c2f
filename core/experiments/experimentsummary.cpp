#include "core/experiments/experimentsummary.h"

#include "core/common/jsonread.h"
#include "core/common/units.h"
#include "core/experiments/pointaxis.h"

#include <QJsonArray>

#include <algorithm>

namespace {

ExperimentPoint experimentPoint(const QJsonObject& p, const QString& axisKey)
{
    ExperimentPoint e;
    e.x = JsonRead::number(p, axisKey);
    e.okPerS = JsonRead::number(p, QStringLiteral("ok_per_s"));
    e.opsPerS = JsonRead::number(p, QStringLiteral("ops_per_s"));
    e.errors = JsonRead::number(p, QStringLiteral("errors"));
    e.latencyMs = LatencyFigures::fromJson(p.value(QLatin1String("latency_ms")).toObject());
    e.loadCpuUsPerOp = JsonRead::number(p, QStringLiteral("load_cpu_us_per_op"));
    e.clientCpuUsPerOp = JsonRead::number(p, QStringLiteral("client_cpu_us_per_op"));
    if (p.contains(QLatin1String("server_threads_running")))
        e.serverThreadsRunning = p.value(QLatin1String("server_threads_running")).toInt();
    e.status = p.value(QLatin1String("status")).toString();
    return e;
}

} // namespace

ExperimentSummary ExperimentSummary::of(const RunRecord& r, const QString& axisKey)
{
    const QJsonObject& s = r.summary;
    ExperimentSummary out;
    const QJsonArray pointsArray = s.value(QLatin1String("points")).toArray();
    for (const auto& v : pointsArray)
        out.points.append(experimentPoint(v.toObject(), axisKey));
    const QJsonObject ref = s.value(QLatin1String("reference")).toObject();
    out.hasReference = !ref.isEmpty();
    out.referenceSource = ref.value(QLatin1String("source")).toString();
    out.referenceNote = ref.value(QLatin1String("note")).toString();
    out.plainMsPerBind = s.value(QLatin1String("plain_ms_per_bind")).toDouble();
    out.tlsMsPerBind = s.value(QLatin1String("tls_ms_per_bind")).toDouble();
    out.tlsExtraMs = s.value(QLatin1String("tls_extra_ms")).toDouble();
    if (r.kind != u"tls-cost")
        out.answer = PointAxis::bestText(r);
    else if (out.plainMsPerBind > 0 && out.tlsMsPerBind > 0)
        out.answer = QStringLiteral("connect + bind: plain %1 ms, TLS %2 ms (+%3 ms)")
                         .arg(Units::formatNumber(out.plainMsPerBind, 3), Units::formatNumber(out.tlsMsPerBind, 3),
                             Units::formatNumber(out.tlsExtraMs, 3));
    return out;
}

bool ExperimentSummary::completed() const
{
    return std::any_of(points.begin(), points.end(), [](const ExperimentPoint& p) { return p.rateCompleted(); });
}
