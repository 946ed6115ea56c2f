#include "core/experiments/replication.h"

#include "core/common/environment.h"
#include "core/common/sample.h"
#include "core/common/units.h"
#include "core/experiments/replicationlag.h"
#include "core/experiments/replicationload.h"
#include "core/experiments/replicationmarker.h"
#include "core/experiments/replicationvendor.h"
#include "core/experiments/replicationwatch.h"
#include "core/ldap/ldapsession.h"
#include "core/run/runcontext.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

namespace {

using ReplicationWatch::nowNs;

// What one run keeps between its steps.
struct Run
{
    const ReplicationSpec& spec;
    RunContext& ctx;
    RunRecord rec;
    ReplicationWatch::Writer writer;
    ReplicationWatch::Watchers watchers;
    std::vector<ReplicationWatch::Account> accounts;
    std::unique_ptr<ReplicationVendor::Monitor> vendor; // issue 13: what the servers say
    std::unique_ptr<ReplicationLoad::Runner> load; // the write load beside the probe, if any
    QSet<QString> warned;
    qint64 t0 = 0;
    qint64 lastEnd = 0;
    size_t lastAcked = 0;
    qint64 lastMissed = 0;
    qint64 watchEnd = 0; // when the consumers stopped being watched: a marker unseen by then is censored
    std::vector<double> unreadableS; // per consumer, the longest stretch it could not be read, at watchEnd

    Run(const ReplicationSpec& s, RunContext& c)
        : spec(s)
        , ctx(c)
        , writer(s.supplier, s.markerDn, s.markerRate)
        , load(s.load ? std::make_unique<ReplicationLoad::Runner>(*s.load, c) : nullptr)
    { }
};

size_t ackedCount(const std::vector<qint64>& acks)
{
    size_t n = 0;
    for (const qint64 a : acks)
        n += a > 0 ? 1 : 0;
    return n;
}

void warnUnreachable(Run& r, const ReplicationWatch::Watcher& w)
{
    if (w.reachable() || r.warned.contains(w.uri()))
        return;
    r.warned.insert(w.uri());
    r.rec.addWarning(QStringLiteral("consumer-unreachable"),
        QStringLiteral("consumer %1 cannot be read (%2); the run goes on").arg(w.uri(), w.lastError()));
}

void takeInterval(Run& r, qint64 end)
{
    const std::vector<qint64> sends = r.writer.sends(); // before the acks: every ack has its send
    const std::vector<qint64> acks = r.writer.acks();
    const size_t acked = ackedCount(acks);
    QJsonObject consumers;
    for (size_t i = 0; i < r.watchers.size(); ++i) {
        QJsonObject c = ReplicationWatch::interval(acks, sends, r.watchers[i]->seen(), end, r.accounts[i]);
        c.insert(QStringLiteral("reachable"), r.watchers[i]->reachable());
        c.insert(QStringLiteral("vendor"), r.vendor->interval(i, { acks, sends }, r.watchers[i]->seen(), r.rec));
        consumers.insert(r.watchers[i]->uri(), c);
        warnUnreachable(r, *r.watchers[i]);
    }
    const double seconds = double(end - r.lastEnd) / 1e9;
    Sample s;
    s.t = double(end - r.t0) / 1e9;
    const qint64 missed = r.writer.missed();
    s.values = { { QStringLiteral("write_ok_per_s"), seconds > 0 ? double(acked - r.lastAcked) / seconds : 0.0 },
        { QStringLiteral("markers_missed"), missed - r.lastMissed }, { QStringLiteral("consumers"), consumers } };
    r.lastMissed = missed;
    if (r.load)
        r.load->addTo(s);
    r.lastEnd = end;
    r.lastAcked = acked;
    r.rec.intervals.append(s.toJson());
    r.ctx.addSample(s);
}

// Sleeps to `until` in slices, false when asked to stop.
bool waitUntil(Run& r, qint64 until)
{
    while (nowNs() < until) {
        if (r.ctx.stopRequested())
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

// Every reachable consumer shows the newest acknowledged marker.
bool caughtUp(const Run& r)
{
    const std::vector<qint64> acks = r.writer.acks();
    size_t written = acks.size();
    while (written > 0 && acks[written - 1] <= 0)
        --written;
    for (const auto& w : r.watchers)
        if (w->reachable() && w->seen().size() < written)
            return false;
    return true;
}

// The supplier acknowledged nothing for the failure window (after a first acknowledgement, or from the start).
bool supplierLost(const Run& r)
{
    const qint64 last = r.writer.lastAckNs() > 0 ? r.writer.lastAckNs() : r.t0;
    return double(nowNs() - last) / 1e9 > r.spec.failAfterS;
}

// The measured span, then the grace for the consumers to catch up; intervals all along. Empty or the failure.
QString measure(Run& r)
{
    const qint64 step = qint64(r.spec.intervalS * 1e9);
    const qint64 end = r.t0 + qint64(r.spec.durationS * 1e9);
    const qint64 graceEnd = end + qint64(r.spec.graceS * 1e9);
    for (qint64 next = r.t0 + step;; next += step) {
        const bool measuring = next <= end;
        const qint64 until = measuring ? next : std::min(next, graceEnd);
        while (nowNs() < until && !(!measuring && caughtUp(r)))
            if (!waitUntil(r, std::min(until, nowNs() + 20000000)))
                return {};
        if (measuring && next + step > end)
            r.writer.stop(); // the last marker is written: stop before the grace
        takeInterval(r, nowNs());
        if (QString why = ReplicationWatch::refusal(r.watchers); !why.isEmpty())
            return why; // --watch push, a consumer first read late
        r.ctx.setProgress(std::min(1.0, double(nowNs() - r.t0) / double(end - r.t0)));
        if (measuring && supplierLost(r)) // in the grace the writer has stopped: no acknowledgement is due
            return QStringLiteral("the supplier acknowledged no marker for %1 s: %2")
                .arg(r.spec.failAfterS)
                .arg(r.writer.lastError());
        if (r.load && !r.load->failure().isEmpty())
            return r.load->failure();
        if (!measuring && (caughtUp(r) || nowNs() >= graceEnd))
            return {};
    }
}

// The markers' rate as written (the figures' context), with a warning when the writer could not keep the asked one.
double markersPerS(Run& r, const std::vector<qint64>& acks)
{
    const double span = double(std::max<qint64>(r.lastEnd - r.t0, 1)) / 1e9;
    const double seconds = std::min(span, r.spec.durationS);
    const double asked = r.spec.markerRate * seconds;
    const auto sent
        = qint64(std::count_if(acks.begin(), acks.end(), [](qint64 a) { return a != ReplicationLag::kMissed; }));
    if (double(sent) < 0.9 * asked)
        r.rec.addWarning(QStringLiteral("marker-rate-not-reached"),
            QStringLiteral("%1 markers were sent in %2 s where %3/s were asked (%4; %5 missed: not sent on time "
                           "with %6 writes unanswered): the supplier or this client answered too slowly, and the lag "
                           "figures are at the rate written")
                .arg(sent)
                .arg(Units::formatNumber(seconds, 1), Units::formatNumber(r.spec.markerRate, 1),
                    QStringLiteral("--marker-rate"))
                .arg(r.writer.missed())
                .arg(ReplicationLag::kMaxInFlight));
    return double(ackedCount(acks)) / seconds;
}

// One consumer's summary: both lags over every acknowledged marker, the censored ones (never seen by watchEnd)
// counted at their lower bound.
QJsonObject consumerSummary(const Run& r, size_t i, const ReplicationLag::Lags& l)
{
    const ReplicationWatch::Watcher& w = *r.watchers[i];
    double behindS = 0;
    for (size_t k = 0; k < l.censored.size(); ++k)
        behindS = l.censored[k] ? std::max(behindS, l.fromAckMs[k] / 1000) : behindS;
    const qint64 censored = l.censoredCount();
    return { { QStringLiteral("lag_ms"), ReplicationLag::figuresJson(l.fromAckMs, l.censored) },
        { QStringLiteral("lag_from_send_ms"), ReplicationLag::figuresJson(l.fromSendMs, l.censored) },
        { QStringLiteral("markers_seen"), qint64(l.fromAckMs.size()) - censored },
        { QStringLiteral("unseen"), censored }, { QStringLiteral("behind_for_at_least_s"), behindS },
        { QStringLiteral("seen_before_ack"), l.seenBeforeAck },
        { QStringLiteral("method"), ReplicationWatch::methodName(w) }, { QStringLiteral("reachable"), w.everReached() },
        { QStringLiteral("longest_unreadable_s"), std::round(r.unreadableS[i] * 1000) / 1000 } };
}

// The consumer's verdict on --max-lag-ms: the p99 over every marker, unseen ones included; a p99 that is a lower
// bound, no marker at all, or a consumer unreadable for longer than the failure window never passes.
void addVerdict(
    Run& r, size_t i, const std::optional<ReplicationLag::Figures>& lag, double writesPerS, QJsonArray* sentences)
{
    const QString& uri = r.watchers[i]->uri();
    const bool unreadable = r.unreadableS[i] > r.spec.failAfterS;
    const bool passed = lag && !lag->p99AtLeast && lag->p99 <= r.spec.maxLagMs && !unreadable;
    QStringList why;
    if (lag && lag->censored > 0)
        why << QStringLiteral("%1 of %2 markers never seen").arg(lag->censored).arg(lag->count);
    if (unreadable)
        why << QStringLiteral("could not be read for %1 s, longer than the %2 s failure window")
                   .arg(Units::formatNumber(r.unreadableS[i], 1), Units::formatNumber(r.spec.failAfterS, 0));
    if (!lag)
        why << QStringLiteral("no marker was acknowledged to measure from");
    Verdict v { QStringLiteral("replication p99 lag <= %1 ms (%2)").arg(r.spec.maxLagMs).arg(uri),
        QStringLiteral("the lag bound given (max lag)"), passed, lag ? lag->p99 : 0.0, r.spec.maxLagMs,
        QStringLiteral("ms"), why.join(QStringLiteral("; ")), QStringLiteral("replication-p99-lag") };
    if (lag && lag->p99AtLeast)
        v.note = QStringLiteral("at least: ") + v.note;
    r.rec.verdicts << v;
    const QString lagText = lag
        ? QString(QStringLiteral("p99 lag ") + ReplicationLag::text(lag->p99, lag->p99AtLeast) + QStringLiteral(" ms"))
        : QStringLiteral("no lag measured");
    sentences->append(
        QStringLiteral("consumer %1: %2 at %3 writes/s, %4 %5 ms%6")
            .arg(uri, lagText, Units::formatNumber(writesPerS, 1),
                passed ? QStringLiteral("within") : QStringLiteral("not within"),
                Units::formatNumber(r.spec.maxLagMs, 0),
                why.isEmpty() ? QString() : QString(QStringLiteral(" (") + why.join(QStringLiteral("; ")) + u')')));
}

void summarise(Run& r)
{
    const std::vector<qint64> sends = r.writer.sends(); // before the acks: every ack has its send
    const std::vector<qint64> acks = r.writer.acks();
    const double writtenPerS = markersPerS(r, acks);
    if (r.watchEnd == 0)
        r.watchEnd = nowNs();
    r.unreadableS.resize(r.watchers.size(), 0.0);
    QJsonObject consumers;
    QJsonArray sentences;
    for (size_t i = 0; i < r.watchers.size(); ++i) {
        const ReplicationLag::Lags l = ReplicationLag::lags(acks, sends, r.watchers[i]->seen(), r.watchEnd);
        consumers.insert(r.watchers[i]->uri(), consumerSummary(r, i, l));
        if (r.spec.maxLagMs > 0)
            addVerdict(r, i, ReplicationLag::figures(l.fromAckMs, l.censored),
                writtenPerS + (r.load ? r.load->writeOkPerS() : 0), &sentences);
    }
    r.rec.summary = { { QStringLiteral("markers_written"), qint64(ackedCount(acks)) },
        { QStringLiteral("write_errors"), r.writer.errors() }, { QStringLiteral("markers_missed"), r.writer.missed() },
        { QStringLiteral("write_ok_per_s"), writtenPerS },
        { QStringLiteral("method"), ReplicationWatch::methodSet(r.watchers) },
        { QStringLiteral("poll_ms"), r.spec.pollMs }, { QStringLiteral("consumers"), consumers },
        { QStringLiteral("verdict_sentences"), sentences } };
}

// Issue 13, the hooks of the servers' own figures: consumers found in the supplier's agreements (389-ds) are added
// to the spec; the summary gets each consumer's vendor object and which were discovered.
QStringList addDiscovered(ReplicationSpec& spec, RunRecord& rec)
{
    if (!spec.discoverConsumers)
        return {};
    QList<LdapTarget> found;
    const LdapTarget like = spec.consumerTemplate.uri.isEmpty() ? spec.supplier : spec.consumerTemplate;
    if (const ProbeError e = ReplicationVendor::discover(spec.supplier, spec.markerDn, spec.consumers, like, &found);
        e.isError())
        rec.addWarning(QStringLiteral("consumer-discovery"),
            QStringLiteral("the supplier's replication agreements cannot be read: ") + e.message());
    QStringList uris;
    for (const LdapTarget& t : found)
        uris << t.uri;
    spec.consumers << found;
    return uris;
}

void addVendorSummary(Run& r, const QStringList& discovered)
{
    QJsonObject consumers = r.rec.summary.value(QStringLiteral("consumers")).toObject();
    for (size_t i = 0; i < r.watchers.size(); ++i) {
        QJsonObject c = consumers.value(r.watchers[i]->uri()).toObject();
        c.insert(QStringLiteral("vendor"), r.vendor->summary(i));
        c.insert(QStringLiteral("discovered"), discovered.contains(r.watchers[i]->uri()));
        consumers.insert(r.watchers[i]->uri(), c);
    }
    r.rec.summary.insert(QStringLiteral("consumers"), consumers);
    r.rec.summary.insert(QStringLiteral("discovered_consumers"), QJsonArray::fromStringList(discovered));
}

void fail(RunRecord& rec, const QString& why)
{
    rec.status = QStringLiteral("failed");
    rec.failure = why;
}

} // namespace

ProbeError ReplicationSpec::validate() const
{
    if (!LdapSession::isDn(markerDn) || markerDn.isEmpty())
        return ProbeError::invalid(QStringLiteral("marker-dn"), QStringLiteral("must be a DN, not '%1'").arg(markerDn));
    if (!(markerRate >= 0.1 && markerRate <= 1000))
        return ProbeError::invalid(QStringLiteral("marker-rate"), QStringLiteral("must be between 0.1 and 1000 per s"));
    if (!(durationS >= 1 && durationS <= 86400))
        return ProbeError::invalid(QStringLiteral("duration"), QStringLiteral("must be between 1 and 86400 s"));
    if (pollMs < 1 || pollMs > 60000)
        return ProbeError::invalid(QStringLiteral("poll-ms"), QStringLiteral("must be between 1 and 60000"));
    if (watch != u"auto" && watch != u"push" && watch != u"poll")
        return ProbeError::invalid(
            QStringLiteral("watch"), QStringLiteral("must be auto, push or poll, not '%1'").arg(watch));
    if (maxLagMs < 0)
        return ProbeError::invalid(QStringLiteral("max-lag-ms"), QStringLiteral("must be positive"));
    if (consumers.isEmpty() && !discoverConsumers)
        return ProbeError::invalid(QStringLiteral("consumer"), QStringLiteral("at least one consumer is needed"));
    for (const LdapTarget& c : consumers)
        if (c.uri == supplier.uri)
            return ProbeError::invalid(QStringLiteral("consumer"), c.uri + QStringLiteral(" is the supplier"));
    return load ? ReplicationLoad::validate(*this) : ProbeError {};
}

QJsonObject ReplicationSpec::toJson() const
{
    QJsonArray c;
    for (const LdapTarget& t : consumers)
        c.append(t.toJson());
    QJsonObject o { { QStringLiteral("supplier"), supplier.toJson() }, { QStringLiteral("consumers"), c },
        { QStringLiteral("marker_dn"), markerDn }, { QStringLiteral("marker_rate"), markerRate },
        { QStringLiteral("duration_s"), durationS }, { QStringLiteral("poll_ms"), pollMs },
        { QStringLiteral("interval_s"), intervalS }, { QStringLiteral("max_lag_ms"), maxLagMs },
        { QStringLiteral("watch"), watch }, { QStringLiteral("discover_consumers"), discoverConsumers },
        { QStringLiteral("consumer_bind_dn"),
            consumerTemplate.uri.isEmpty() ? QJsonValue() : QJsonValue(consumerTemplate.bindDn) } };
    if (load)
        o.insert(QStringLiteral("load"), load->toJson());
    return o;
}

RunRecord Experiments::runReplication(const ReplicationSpec& given, RunContext& ctx)
{
    ReplicationSpec spec = given; // discovered consumers are added
    Run r(spec, ctx);
    r.rec.kind = QStringLiteral("replication");
    r.rec.started = QDateTime::currentDateTimeUtc();
    r.rec.spec = spec.toJson();
    r.rec.environment = Environment::collect();
    if (const ProbeError e = spec.validate(); e.isError()) {
        fail(r.rec, e.message());
        return r.rec;
    }
    ctx.setPhase(QStringLiteral("preparing the marker entry"));
    ReplicationMarker marker(spec.supplier, spec.markerDn);
    if (const ProbeError e = marker.prepare(); e.isError()) {
        fail(r.rec, QStringLiteral("the marker entry: ") + e.message());
        return r.rec;
    }
    const QStringList discovered = addDiscovered(spec, r.rec);
    if (spec.consumers.isEmpty()) {
        fail(r.rec, QStringLiteral("no consumer: none named, and the supplier's replication agreements name none"));
        return r.rec;
    }
    for (const LdapTarget& c : spec.consumers) {
        r.watchers.push_back(std::make_unique<ReplicationWatch::Watcher>(c, spec.markerDn, spec.pollMs, spec.watch));
        r.accounts.emplace_back();
        r.watchers.back()->start();
    }
    r.vendor = std::make_unique<ReplicationVendor::Monitor>(spec.supplier, spec.consumers,
        ReplicationVendor::Monitor::Settings { spec.markerDn, spec.intervalS, spec.markerRate, spec.pollMs });
    // Every consumer's method chosen (or its first read failed) before the first marker: --watch push refused.
    ReplicationWatch::awaitSettled(r.watchers, [&ctx] { return ctx.stopRequested(); });
    if (const QString why = ReplicationWatch::refusal(r.watchers); !why.isEmpty()) {
        summarise(r); // nothing written; each consumer's method (the refused one's "unknown")
        fail(r.rec, why);
        return r.rec; // the watchers stop and the marker is restored as they go out of scope
    }
    ctx.setPhase(QStringLiteral("measuring"));
    r.t0 = r.lastEnd = r.load ? r.load->start() : nowNs();
    r.writer.start(r.t0);
    r.vendor->start(r.t0);
    QString failure = measure(r);
    r.writer.stop();
    r.watchEnd = nowNs();
    for (auto& w : r.watchers)
        r.unreadableS.push_back(w->longestUnreadableS());
    for (auto& w : r.watchers)
        w->stop();
    r.vendor->stop();
    if (r.load)
        failure = r.load->finish(failure);
    summarise(r);
    addVendorSummary(r, discovered);
    ReplicationLoad::addToSummary(
        r.rec, r.load.get(), r.t0, { r.writer.acks(), r.writer.sends(), r.watchEnd }, r.watchers, spec.pollMs);
    bool anyReached = false;
    for (const auto& w : r.watchers)
        anyReached = anyReached || w->everReached();
    if (!failure.isEmpty())
        fail(r.rec, failure);
    else if (!anyReached)
        fail(r.rec, QStringLiteral("no consumer could be read"));
    else if (ctx.stopRequested())
        r.rec.status = QStringLiteral("cancelled");
    if (const QString why = marker.restore(); !why.isEmpty())
        r.rec.addWarning(QStringLiteral("marker-not-restored"), why);
    return r.rec;
}

std::function<RunRecord(RunContext&)> Experiments::makeReplicationJob(const ReplicationSpec& spec)
{
    return [spec](RunContext& ctx) { return Experiments::runReplication(spec, ctx); };
}
