#include "core/workload/workloadsummary.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

double workloadSummaryNumber(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toDouble();
}

QJsonObject workloadSummaryObject(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toObject();
}

std::optional<double> workloadSummaryOptional(const QJsonValue& v)
{
    return v.isUndefined() ? std::nullopt : std::optional<double>(v.toDouble(-1));
}

QList<QPair<QString, double>> workloadSummaryCounts(const QJsonObject& o)
{
    QList<QPair<QString, double>> out;
    for (auto it = o.begin(); it != o.end(); ++it)
        out.append({ it.key(), it.value().toDouble() });
    return out;
}

WorkloadChurn workloadSummaryChurn(const QJsonObject& c)
{
    WorkloadChurn w;
    w.connects = workloadSummaryNumber(c, "connects");
    w.connectsPerS = workloadSummaryNumber(c, "connects_per_s");
    w.closes = workloadSummaryNumber(c, "closes");
    w.openAtStart = workloadSummaryNumber(c, "open_at_start");
    w.openAtEnd = workloadSummaryNumber(c, "open_at_end");
    const QJsonObject binds = workloadSummaryObject(c, "binds_per_connection");
    const QJsonObject ops = workloadSummaryObject(c, "ops_per_connection");
    w.bindsPerConnMean = workloadSummaryNumber(binds, "mean");
    w.bindsPerConnMax = workloadSummaryNumber(binds, "max");
    w.opsPerConnMean = workloadSummaryNumber(ops, "mean");
    w.opsPerConnP99 = workloadSummaryNumber(ops, "p99");
    const QJsonObject life = workloadSummaryObject(c, "lifetime_s");
    w.hasLifetime = !life.isEmpty();
    w.lifetimeP50S = workloadSummaryNumber(life, "p50");
    w.lifetimeP99S = workloadSummaryNumber(life, "p99");
    w.lifetimeMaxS = workloadSummaryNumber(life, "max");
    return w;
}

WorkloadConcurrency workloadSummaryConcurrency(const QJsonObject& c)
{
    return { workloadSummaryNumber(c, "mean_in_flight"), workloadSummaryNumber(c, "p99_in_flight"),
        workloadSummaryNumber(c, "max_in_flight"), c.value(QLatin1String("method")).toString() };
}

} // namespace

std::optional<QJsonObject> WorkloadSummary::analysisIn(const QByteArray& bytes)
{
    const QJsonDocument doc = QJsonDocument::fromJson(bytes);
    if (!doc.isObject() || doc.object().value(QStringLiteral("schema")).toString() != u"dirbench.workload/1")
        return std::nullopt;
    return doc.object();
}

WorkloadSkew WorkloadSkew::fromJson(const QJsonObject& o)
{
    return { o.value(QLatin1String("model")).toString(), workloadSummaryNumber(o, "alpha"),
        workloadSummaryNumber(o, "keys_pct"), workloadSummaryNumber(o, "ops_pct") };
}

QString WorkloadSkew::shortText() const
{
    if (model == u"zipf")
        return QStringLiteral("zipf a=%1").arg(alpha, 0, 'f', 2);
    if (model == u"hot")
        return QStringLiteral("hot %1%/%2%").arg(keysPct, 0, 'f', 1).arg(opsPct, 0, 'f', 1);
    return model;
}

WorkloadTemplateRow WorkloadTemplateRow::fromJson(const QJsonObject& o)
{
    WorkloadTemplateRow t;
    t.text = o.value(QLatin1String("template")).toString();
    t.kind = o.value(QLatin1String("kind")).toString();
    t.count = workloadSummaryNumber(o, "count");
    t.share = workloadSummaryNumber(o, "share");
    t.resultCodes = workloadSummaryCounts(workloadSummaryObject(o, "result_codes"));
    t.entriesMean = workloadSummaryOptional(workloadSummaryObject(o, "entries").value(QLatin1String("mean")));
    t.unindexedShare = workloadSummaryOptional(o.value(QLatin1String("unindexed_share")));
    const QJsonObject etime = workloadSummaryObject(o, "etime_ms");
    t.hasEtime = !etime.isEmpty();
    t.etimeP50Ms = workloadSummaryOptional(etime.value(QLatin1String("p50")));
    t.etimeP99Ms = workloadSummaryOptional(etime.value(QLatin1String("p99")));
    t.skew = WorkloadSkew::fromJson(workloadSummaryObject(o, "skew"));
    return t;
}

WorkloadSummary WorkloadSummary::fromJson(const QJsonObject& a)
{
    WorkloadSummary w;
    const QJsonObject src = workloadSummaryObject(a, "source");
    w.format = src.value(QLatin1String("format")).toString();
    w.files = src.value(QLatin1String("files")).toArray().size();
    w.first = src.value(QLatin1String("first")).toString();
    w.last = src.value(QLatin1String("last")).toString();
    w.durationS = workloadSummaryNumber(a, "duration_s");
    w.operations = workloadSummaryCounts(workloadSummaryObject(a, "operations"));
    w.operationsTotal = workloadSummaryNumber(a, "operations_total");
    w.connections = workloadSummaryNumber(a, "connections");
    const QJsonArray templatesArray = a.value(QLatin1String("templates")).toArray();
    for (const auto& t : templatesArray)
        w.templates.append(WorkloadTemplateRow::fromJson(t.toObject()));
    const QJsonArray gapsArray = a.value(QLatin1String("gaps")).toArray();
    for (const auto& g : gapsArray)
        w.gaps.append(g.toString());
    w.bucketWidthS = workloadSummaryNumber(a, "per_second_width_s");
    const QStringList kinds = w.operationKinds();
    const QJsonArray perSecondArray = a.value(QLatin1String("per_second")).toArray();
    for (const auto& v : perSecondArray) {
        const QJsonObject b = v.toObject();
        WorkloadBucket bucket { workloadSummaryNumber(b, "t"), {}, workloadSummaryNumber(b, "in_flight") };
        for (const QString& k : kinds)
            bucket.byKind.append(b.value(k).toDouble());
        w.buckets.append(bucket);
    }
    w.churn = workloadSummaryChurn(workloadSummaryObject(a, "churn"));
    w.concurrency = workloadSummaryConcurrency(workloadSummaryObject(a, "concurrency"));
    return w;
}

QStringList WorkloadSummary::operationKinds() const
{
    QStringList kinds;
    for (const auto& [kind, count] : operations)
        kinds.append(kind);
    return kinds;
}
