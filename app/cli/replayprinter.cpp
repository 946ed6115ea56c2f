#include "app/cli/replayprinter.h"

#include "core/replay/replayfidelity.h"
#include "core/replay/replayspec.h"
#include "core/workload/workload.h"

#include <QJsonArray>

namespace Cli {

namespace {

QString number(const QJsonValue& v, int decimals)
{
    return v.isDouble() ? QString::number(v.toDouble(), 'f', decimals) : QStringLiteral("-");
}

QString topCode(const QJsonObject& codes)
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

QString pct(const std::optional<double>& v)
{
    return v ? QString::number(100.0 * *v, 'f', 1) + QStringLiteral(" %") : QStringLiteral("-");
}

// Open loop: the achieved rate against the log's (summary.fidelity.rate).
void printRate(std::FILE* out, const QJsonObject& fidelity)
{
    const QJsonValue v = fidelity.value(QStringLiteral("rate"));
    if (!v.isObject()) {
        std::fprintf(out, "  rate: closed loop, not compared with the log's\n");
        return;
    }
    const auto r = ReplayFidelity::RateFidelity::fromJson(v.toObject());
    std::fprintf(out,
        "  rate: %.2f operations/s answered (%.2f sent), %.2f logged (difference %s, %s: within %.0f %%)\n",
        r.achievedOpsPerS, r.sentOpsPerS, r.loggedOpsPerS, qPrintable(pct(r.difference())),
        r.passed() ? "passed" : "FAILED", ReplayFidelity::kRateTolerance * 100.0);
    std::fprintf(out,
        "  rate per second, |answered - logged| / logged: p50 %s, p99 %s, max %s over %llu s (%llu without "
        "logged operations)\n",
        qPrintable(pct(r.perSecondP50)), qPrintable(pct(r.perSecondP99)), qPrintable(pct(r.perSecondMax)),
        static_cast<unsigned long long>(r.seconds - r.quietSeconds), static_cast<unsigned long long>(r.quietSeconds));
    if (fidelity.value(QStringLiteral("spread_within_second")).toBool())
        std::fprintf(out, "  whole-second log times spread over each second (seed in the record's spec)\n");
}

} // namespace

void printReplayHeader(std::FILE* out, const ReplaySpec& spec, const Workload& workload)
{
    const QString timing = spec.timing == ReplaySpec::Timing::Speed
        ? QStringLiteral("speed ") + QString::number(spec.speed)
        : ReplaySpec::timingName(spec.timing);
    std::fprintf(out, "replay %s: %llu connections, %llu operations, %s, values %s, writes %s, against %s\n",
        qPrintable(spec.workloadPath), static_cast<unsigned long long>(workload.connections.size()),
        static_cast<unsigned long long>(workload.operationCount()), qPrintable(timing),
        qPrintable(ReplaySpec::valuesName(spec.values)),
        spec.allowWrites ? qPrintable(QStringLiteral("under ") + spec.writeBase) : "skipped",
        qPrintable(spec.target.uri));
}

void printFidelity(std::FILE* out, const RunRecord& rec)
{
    const QJsonObject f = rec.summary.value(QStringLiteral("fidelity")).toObject();
    if (f.isEmpty())
        return;
    std::fprintf(out, "fidelity: %.0f operations logged, %.0f replayed, %.0f writes skipped\n",
        f.value(QStringLiteral("logged_ops")).toDouble(), f.value(QStringLiteral("replayed_ops")).toDouble(),
        f.value(QStringLiteral("skipped_writes")).toDouble());
    std::fprintf(out, "  %-7s %8s %8s %7s %7s %5s %5s %8s %8s %8s %8s  %s\n", "kind", "logged", "replayed", "log %",
        "rep %", "rc l", "rc r", "etime50", "etime99", "lat50", "lat99", "template");
    const QJsonArray rows = f.value(QStringLiteral("by_template")).toArray();
    for (const auto& v : rows) {
        const QJsonObject t = v.toObject();
        const QJsonObject rc = t.value(QStringLiteral("result_codes")).toObject();
        const QJsonObject et = t.value(QStringLiteral("etime_ms")).toObject();
        std::fprintf(out, "  %-7s %8.0f %8.0f %7s %7s %5s %5s %8s %8s %8s %8s  %s\n",
            qPrintable(t.value(QStringLiteral("kind")).toString()), t.value(QStringLiteral("logged")).toDouble(),
            t.value(QStringLiteral("replayed")).toDouble(),
            qPrintable(number(t.value(QStringLiteral("logged_share")), 1)),
            qPrintable(number(t.value(QStringLiteral("replayed_share")), 1)),
            qPrintable(topCode(rc.value(QStringLiteral("logged")).toObject())),
            qPrintable(topCode(rc.value(QStringLiteral("replayed")).toObject())),
            qPrintable(number(et.value(QStringLiteral("logged_p50")), 3)),
            qPrintable(number(et.value(QStringLiteral("logged_p99")), 3)),
            qPrintable(number(et.value(QStringLiteral("replay_latency_p50")), 3)),
            qPrintable(number(et.value(QStringLiteral("replay_latency_p99")), 3)),
            qPrintable(t.value(QStringLiteral("template")).toString()));
    }
    const QJsonArray drift = f.value(QStringLiteral("drift")).toArray();
    for (const auto& d : drift)
        std::fprintf(out, "  drift: %s\n", qPrintable(d.toString()));
    if (drift.isEmpty())
        std::fprintf(
            out, "  no drift beyond %.0f percentage points\n", f.value(QStringLiteral("tolerance_pp")).toDouble());
    printRate(out, f);
}

} // namespace Cli
