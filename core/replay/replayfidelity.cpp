#include "core/replay/replayfidelity.h"

#include "core/common/jsonread.h"

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

std::optional<double> RateFidelity::difference() const
{
    return ratio ? std::optional<double>(std::abs(*ratio - 1.0)) : std::nullopt;
}

bool RateFidelity::passed() const
{
    const auto d = difference();
    return d && *d <= kRateTolerance + 1e-12;
}

RateFidelity RateFidelity::of(const std::vector<uint64_t>& logged, const std::vector<uint64_t>& achieved)
{
    RateFidelity r;
    r.seconds = logged.size();
    uint64_t loggedAll = 0, achievedAll = 0;
    std::vector<double> rel;
    for (size_t s = 0; s < logged.size(); ++s) {
        const uint64_t a = s < achieved.size() ? achieved[s] : 0;
        loggedAll += logged[s];
        achievedAll += a;
        if (logged[s] == 0)
            ++r.quietSeconds;
        else
            rel.push_back(std::abs(double(a) - double(logged[s])) / double(logged[s]));
    }
    if (r.seconds > 0) {
        r.loggedOpsPerS = double(loggedAll) / double(r.seconds);
        r.achievedOpsPerS = double(achievedAll) / double(r.seconds);
    }
    if (loggedAll > 0)
        r.ratio = double(achievedAll) / double(loggedAll);
    if (!rel.empty()) {
        std::sort(rel.begin(), rel.end());
        auto rank
            = [&](double q) { return rel[std::min(rel.size() - 1, size_t(std::ceil(q * double(rel.size()))) - 1)]; };
        r.perSecondP50 = rank(0.5);
        r.perSecondP99 = rank(0.99);
        r.perSecondMax = rel.back();
    }
    return r;
}

void RateFidelity::setSent(const std::vector<uint64_t>& sentPerSecond)
{
    uint64_t all = 0;
    for (size_t s = 0; s < seconds && s < sentPerSecond.size(); ++s)
        all += sentPerSecond[s];
    sentOpsPerS = seconds > 0 ? double(all) / double(seconds) : 0;
}

QJsonObject RateFidelity::toJson() const
{
    auto opt = [](const std::optional<double>& v) {
        return v ? QJsonValue(std::round(*v * 10000.0) / 10000.0) : QJsonValue(QJsonValue::Null);
    };
    const QJsonObject perSecond { { QStringLiteral("seconds"), double(seconds) },
        { QStringLiteral("quiet_seconds"), double(quietSeconds) }, { QStringLiteral("p50"), opt(perSecondP50) },
        { QStringLiteral("p99"), opt(perSecondP99) }, { QStringLiteral("max"), opt(perSecondMax) } };
    return QJsonObject { { QStringLiteral("logged_ops_per_s"), round2(loggedOpsPerS) },
        { QStringLiteral("achieved_ops_per_s"), round2(achievedOpsPerS) },
        { QStringLiteral("sent_ops_per_s"), round2(sentOpsPerS) }, { QStringLiteral("ratio"), opt(ratio) },
        { QStringLiteral("difference"), opt(difference()) }, { QStringLiteral("tolerance"), kRateTolerance },
        { QStringLiteral("passed"), passed() }, { QStringLiteral("per_second"), perSecond } };
}

RateFidelity RateFidelity::fromJson(const QJsonObject& o)
{
    auto opt = [](const QJsonValue& v) { return JsonRead::number(v); };
    RateFidelity r;
    r.loggedOpsPerS = o.value(QStringLiteral("logged_ops_per_s")).toDouble();
    r.achievedOpsPerS = o.value(QStringLiteral("achieved_ops_per_s")).toDouble();
    r.sentOpsPerS = o.value(QStringLiteral("sent_ops_per_s")).toDouble();
    r.ratio = opt(o.value(QStringLiteral("ratio")));
    const QJsonObject ps = o.value(QStringLiteral("per_second")).toObject();
    r.seconds = uint64_t(ps.value(QStringLiteral("seconds")).toDouble());
    r.quietSeconds = uint64_t(ps.value(QStringLiteral("quiet_seconds")).toDouble());
    r.perSecondP50 = opt(ps.value(QStringLiteral("p50")));
    r.perSecondP99 = opt(ps.value(QStringLiteral("p99")));
    r.perSecondMax = opt(ps.value(QStringLiteral("max")));
    return r;
}

std::vector<uint64_t> scheduledPerSecond(const ReplayPlan& plan)
{
    std::vector<uint64_t> out;
    for (const auto& c : plan.connections)
        for (const auto& op : c.ops) {
            if (op.action != ReplayOp::Action::Send)
                continue;
            const auto s = size_t(op.atNs / 1000000000ULL);
            if (out.size() <= s)
                out.resize(s + 1, 0);
            ++out[s];
        }
    return out;
}

Verdict rateVerdict(const RateFidelity& rate)
{
    const double pct = 100.0 * rate.difference().value_or(1.0);
    return Verdict { QStringLiteral("replayed rate within %1 % of the log's").arg(kRateTolerance * 100.0),
        QStringLiteral("the log's own rate (its timestamps, after --speed)"), rate.passed(),
        std::round(pct * 100) / 100, kRateTolerance * 100.0, QStringLiteral("%"),
        QStringLiteral("%1 operations/s answered (%2 sent), %3 logged")
            .arg(rate.achievedOpsPerS, 0, 'f', 2)
            .arg(rate.sentOpsPerS, 0, 'f', 2)
            .arg(rate.loggedOpsPerS, 0, 'f', 2),
        QStringLiteral("replay-rate") };
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
