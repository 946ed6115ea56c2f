#include "core/replay/replayfidelity.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <map>

namespace ReplayFidelity {

namespace {

double round2(double v)
{
    return std::round(v * 100.0) / 100.0;
}

struct Logged
{
    uint64_t ops = 0;
    std::map<int, uint64_t> codes;
    int64_t entries = 0;
    std::vector<double> etimes;
};

QJsonValue percentile(std::vector<double>& v, double q)
{
    if (v.empty())
        return QJsonValue::Null;
    std::sort(v.begin(), v.end());
    const size_t rank = size_t(std::ceil(q * double(v.size())));
    return std::round(v[std::min(v.size() - 1, rank > 0 ? rank - 1 : 0)] * 1000.0) / 1000.0;
}

QJsonValue ms(const LatencyHistogram& h, double q)
{
    return h.count() ? QJsonValue(std::round(double(h.percentile(q)) / 1e3) / 1e3) : QJsonValue(QJsonValue::Null);
}

QJsonObject codesJson(const std::map<int, uint64_t>& codes)
{
    QJsonObject o;
    for (const auto& [code, n] : codes)
        o.insert(QString::number(code), double(n));
    return o;
}

std::vector<Logged> loggedByTemplate(const ReplayPlan& plan)
{
    std::vector<Logged> out(plan.templates.size());
    for (const auto& c : plan.connections)
        for (const auto& op : c.ops) {
            if (op.action == ReplayOp::Action::Unbind || op.templateId < 0 || size_t(op.templateId) >= out.size())
                continue;
            Logged& l = out[size_t(op.templateId)];
            ++l.ops;
            if (op.loggedCode)
                ++l.codes[*op.loggedCode];
            l.entries += op.loggedEntries.value_or(0);
            if (op.loggedEtimeMs)
                l.etimes.push_back(*op.loggedEtimeMs);
        }
    return out;
}

QString pct(double v)
{
    return QString::number(v, 'f', 1) + QStringLiteral(" %");
}

void codeDrift(const QString& tpl, const Logged& l, const LoadCounts& r, QStringList& out)
{
    if (l.codes.empty() || r.ops() == 0)
        return;
    uint64_t loggedWithCode = 0;
    for (const auto& [code, n] : l.codes)
        loggedWithCode += n;
    std::map<int, bool> all;
    for (const auto& [code, n] : l.codes)
        all[code] = true;
    for (const auto& [code, n] : r.resultCodes)
        all[code] = true;
    for (const auto& [code, unused] : all) {
        const auto li = l.codes.find(code);
        const auto ri = r.resultCodes.find(code);
        const double ls = 100.0 * double(li == l.codes.end() ? 0 : li->second) / double(loggedWithCode);
        const double rs = 100.0 * double(ri == r.resultCodes.end() ? 0 : ri->second) / double(r.ops());
        if (std::abs(ls - rs) > kTolerancePp)
            out << tpl
                    + QStringLiteral(": result code %1 in %2 of the replayed operations, %3 logged")
                          .arg(code)
                          .arg(pct(rs), pct(ls));
    }
}

} // namespace

QJsonObject compute(
    const ReplayPlan& plan, const std::vector<LoadCounts>& byTemplate, uint64_t replayedOps, double seconds)
{
    std::vector<Logged> logged = loggedByTemplate(plan);
    uint64_t loggedAll = 0, replayedAll = 0;
    for (size_t i = 0; i < logged.size(); ++i) {
        loggedAll += logged[i].ops;
        replayedAll += i < byTemplate.size() ? byTemplate[i].ops() : 0;
    }
    QJsonArray rows;
    QStringList drift;
    for (size_t i = 0; i < logged.size(); ++i) {
        Logged& l = logged[i];
        const LoadCounts empty;
        const LoadCounts& r = i < byTemplate.size() ? byTemplate[i] : empty;
        if (l.ops == 0 && r.ops() == 0)
            continue;
        const QString tpl = plan.templates[i].text;
        const double ls = loggedAll ? 100.0 * double(l.ops) / double(loggedAll) : 0;
        const double rs = replayedAll ? 100.0 * double(r.ops()) / double(replayedAll) : 0;
        rows.append(QJsonObject { { QStringLiteral("template"), tpl },
            { QStringLiteral("kind"), workloadOpName(plan.templates[i].kind) },
            { QStringLiteral("logged"), double(l.ops) }, { QStringLiteral("replayed"), double(r.ops()) },
            { QStringLiteral("skipped_writes"), double(plan.byTemplate[i].skippedWrites) },
            { QStringLiteral("logged_share"), round2(ls) }, { QStringLiteral("replayed_share"), round2(rs) },
            { QStringLiteral("result_codes"),
                QJsonObject { { QStringLiteral("logged"), codesJson(l.codes) },
                    { QStringLiteral("replayed"), codesJson(r.resultCodes) } } },
            { QStringLiteral("entries"),
                QJsonObject { { QStringLiteral("logged"), double(l.entries) },
                    { QStringLiteral("replayed"), double(r.entries) } } },
            { QStringLiteral("etime_ms"),
                QJsonObject { { QStringLiteral("logged_p50"), percentile(l.etimes, 0.5) },
                    { QStringLiteral("logged_p99"), percentile(l.etimes, 0.99) },
                    { QStringLiteral("replay_latency_p50"), ms(r.latency, 0.5) },
                    { QStringLiteral("replay_latency_p99"), ms(r.latency, 0.99) } } } });
        if (std::abs(ls - rs) > kTolerancePp)
            drift << tpl + QStringLiteral(": %1 of the replayed operations, %2 logged").arg(pct(rs), pct(ls));
        codeDrift(tpl, l, r, drift);
    }
    const double loggedSpan = double(plan.spanNs) / 1e9;
    QJsonObject out { { QStringLiteral("logged_ops"), double(plan.total.logged) },
        { QStringLiteral("replayed_ops"), double(replayedOps) },
        { QStringLiteral("skipped_writes"), double(plan.total.skippedWrites) },
        { QStringLiteral("not_replayable"), double(plan.total.notReplayable) },
        { QStringLiteral("binds_without_password"), double(plan.total.noPassword) },
        { QStringLiteral("cut_by_duration"), double(plan.cutByDuration) },
        { QStringLiteral("tolerance_pp"), kTolerancePp }, { QStringLiteral("by_template"), rows },
        { QStringLiteral("drift"), QJsonArray::fromStringList(drift) }, { QStringLiteral("mapping"), plan.mapping } };
    const double logSpan = double(plan.loggedSpanNs) / 1e9;
    out.insert(QStringLiteral("logged_ops_per_s"),
        logSpan > 0 ? QJsonValue(round2(double(plan.total.logged) / logSpan)) : QJsonValue(QJsonValue::Null));
    out.insert(QStringLiteral("scheduled_ops_per_s"),
        loggedSpan > 0 && !plan.closedLoop ? QJsonValue(round2(double(plan.total.send) / loggedSpan))
                                           : QJsonValue(QJsonValue::Null));
    out.insert(QStringLiteral("replayed_ops_per_s"),
        seconds > 0 ? QJsonValue(round2(double(replayedOps) / seconds)) : QJsonValue(QJsonValue::Null));
    return out;
}

QStringList drift(const QJsonObject& fidelity)
{
    QStringList out;
    const QJsonArray sentences = fidelity.value(QStringLiteral("drift")).toArray();
    for (const auto& v : sentences)
        out << v.toString();
    return out;
}

} // namespace ReplayFidelity
