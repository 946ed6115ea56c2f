#include "core/experiments/replicationvendor.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "core/experiments/replicationcsn.h"
#include "core/experiments/replicationwatch.h"
#include "core/ldap/ldapsession.h"

#include <QJsonArray>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

namespace ReplicationVendor {

// Reads one server every step, from t0 on, over a session of its own.
class Poller
{
public:
    struct Reading
    {
        bool ok = false; // a reading was made (the newest good one is kept)
        bool fresh = false; // the last attempt succeeded
        QString error; // of the last attempt
        ServerState state;
    };

    Poller(const LdapTarget& target, const QString& markerDn, Role role, qint64 stepNs)
        : m_target(shortTimeouts(target))
        , m_markerDn(markerDn)
        , m_role(role)
        , m_stepNs(stepNs)
    { }
    ~Poller()
    {
        stop();
        m_target.password.fill('\0');
    }
    Poller(const Poller&) = delete;
    Poller& operator=(const Poller&) = delete;

    void start(qint64 t0Ns)
    {
        m_thread = std::thread([this, t0Ns] { run(t0Ns); });
    }
    void stop()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    Reading latest() const
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        return m_latest;
    }

private:
    void run(qint64 t0Ns)
    {
        LdapSession s;
        Identity id;
        for (qint64 next = t0Ns; !m_stop; next += m_stepNs) {
            while (!m_stop && ReplicationWatch::nowNs() < next)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            if (m_stop)
                break;
            ServerState state;
            ProbeError e = s.isOpen() ? ProbeError {} : s.open(m_target);
            if (!e.isError() && id.kind.isEmpty())
                e = identify(s, m_markerDn, &id);
            if (!e.isError())
                e = read(s, id, m_role, &state);
            if (e.isError())
                s.close(); // a new session next time (a frozen server leaves a request behind)
            store(state, e);
            for (const qint64 now = ReplicationWatch::nowNs(); next + m_stepNs <= now;)
                next += m_stepNs; // a slow read (a frozen server) skips ticks, and the next one keeps the phase
        }
    }
    void store(const ServerState& state, const ProbeError& e)
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_latest.fresh = !e.isError();
        m_latest.error = e.isError() ? e.message() : QString();
        if (!e.isError()) {
            m_latest.ok = true;
            m_latest.state = state;
        }
    }

    LdapTarget m_target;
    QString m_markerDn;
    Role m_role;
    qint64 m_stepNs;
    std::atomic<bool> m_stop { false };
    mutable std::mutex m_mutex;
    Reading m_latest;
    std::thread m_thread;
};

namespace {

constexpr double kSkewMs = 50; // ack vs. CSN time and the two readings' own delays, on a loaded machine

QJsonValue msOrNull(std::optional<double> v)
{
    return v ? QJsonValue(std::round(*v * 1000) / 1000) : QJsonValue();
}

qint64 csnTimeUs(const QString& kind, const QString& csn)
{
    return kind == u"389ds" ? ReplicationCsn::ds389TimeUs(csn) : ReplicationCsn::openLdapTimeUs(csn);
}

QJsonObject csnJson(const QMap<QString, QString>& csn)
{
    QJsonObject o;
    for (auto it = csn.begin(); it != csn.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

// Per server ID: supplier - consumer CSN time (ms); the largest, never below 0, in *lag.
QJsonObject lagByServer(const QString& kind, const ServerState& sup, const ServerState& con, std::optional<double>* lag)
{
    QJsonObject o;
    for (auto it = sup.csn.begin(); it != sup.csn.end(); ++it) {
        const qint64 s = csnTimeUs(kind, it.value());
        const qint64 c = con.csn.contains(it.key()) ? csnTimeUs(kind, con.csn.value(it.key())) : -1;
        if (s < 0 || c < 0) {
            o.insert(it.key(), QJsonValue());
            continue;
        }
        const double ms = it.value() == con.csn.value(it.key()) ? 0.0 : double(s - c) / 1000.0;
        o.insert(it.key(), ms);
        *lag = std::max(lag->value_or(0.0), std::max(0.0, ms));
    }
    return o;
}

const Agreement* agreementFor(const ServerState& sup, const QString& consumerUri)
{
    const QString want = ReplicationCsn::normalisedUri(consumerUri);
    for (const Agreement& a : sup.agreements)
        if (ReplicationCsn::normalisedUri(a.uri) == want)
            return &a;
    return nullptr;
}

// 389-ds, as lib389's Agreement.get_lag_time() (dsconf, Cockpit) has it: the agreement's nsds5AgmtMaxCSN (the
// newest change the supplier has for it) against the consumer's RUV max CSN for the supplier's replica id.
std::optional<double> agreementLagMs(const ServerState& sup, const ServerState& con, const Agreement& a)
{
    const QString consumerCsn = con.csn.value(sup.ownId);
    const qint64 newest = ReplicationCsn::ds389TimeUs(a.maxCsn);
    const qint64 has = ReplicationCsn::ds389TimeUs(consumerCsn);
    if (newest < 0 || has < 0)
        return std::nullopt;
    return a.maxCsn == consumerCsn ? 0.0 : std::abs(double(newest - has)) / 1000.0;
}

void add389(QJsonObject& v, const ServerState& sup, const Poller::Reading& con, const QString& uri)
{
    v.insert(QStringLiteral("supplier_ruv"), sup.ruv);
    v.insert(QStringLiteral("consumer_ruv"), con.ok ? QJsonValue(con.state.ruv) : QJsonValue());
    const Agreement* a = agreementFor(sup, uri);
    v.insert(QStringLiteral("agreement"), a ? QJsonValue(a->toJson()) : QJsonValue());
    v.insert(
        QStringLiteral("agreement_lag_ms"), msOrNull(a && con.ok ? agreementLagMs(sup, con.state, *a) : std::nullopt));
    v.insert(QStringLiteral("conflicts"),
        con.fresh && con.state.conflicts >= 0 ? QJsonValue(con.state.conflicts) : QJsonValue());
}

// The markers' side, from the consumer's own copies of the marker entry read right before and right after its CSNs;
// the watcher's view (which a busy consumer can deliver late) only where the read after failed. Returns the range
// (nullopt when tSupplierNs is 0: no vendor figure or no supplier reading).
std::optional<LagRange> addMeasured(
    QJsonObject& v, qint64 tSupplierNs, const Poller::Reading& con, const Writes& w, const std::vector<qint64>& seen)
{
    const qint64 tCon = con.state.csnReadNs;
    const bool fromEntry = con.ok && con.state.markerHeld >= 0;
    const size_t held = fromEntry ? size_t(con.state.markerHeld) : markersShown(seen, tCon);
    const size_t before = con.ok && con.state.markerHeldBefore > 0 ? size_t(con.state.markerHeldBefore) : 0;
    const bool compared = tSupplierNs > 0;
    const std::optional<double> point = compared ? markerStateLagMs(w.acks, held, tSupplierNs) : std::nullopt;
    const std::optional<LagRange> range
        = point ? markerLagRangeMs(w, std::min(before, held), held, tSupplierNs) : std::nullopt;
    v.insert(QStringLiteral("measured_lag_ms"), msOrNull(point));
    v.insert(QStringLiteral("measured_lag_range_ms"),
        range ? QJsonValue(QJsonArray { std::round(range->low * 1000) / 1000, msOrNull(range->high) }) : QJsonValue());
    v.insert(QStringLiteral("measured_from"),
        point ? QJsonValue(fromEntry ? QStringLiteral("marker-entry") : QStringLiteral("watcher")) : QJsonValue());
    v.insert(QStringLiteral("consumer_marker"), con.ok ? QJsonValue(qint64(held)) : QJsonValue());
    v.insert(QStringLiteral("watcher_marker"), con.ok ? QJsonValue(qint64(markersShown(seen, tCon))) : QJsonValue());
    return range;
}

// The time of marker k's write (1-based): its send, else (not recorded) its ack.
qint64 sentAt(const Writes& w, size_t k)
{
    return k <= w.sends.size() && w.sends[k - 1] > 0 ? w.sends[k - 1] : w.acks[k - 1];
}

// The newest marker at or below k whose write succeeded, 0 if none.
size_t newestAcked(const std::vector<qint64>& acks, size_t k)
{
    for (k = std::min(k, acks.size()); k > 0; --k)
        if (acks[k - 1] > 0)
            return k;
    return 0;
}

double p99(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t rank = size_t(std::ceil(0.99 * double(v.size())));
    return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

} // namespace

size_t markersShown(const std::vector<qint64>& seen, qint64 tConsumerNs)
{
    // seen is in marker order and its times never decrease.
    return size_t(std::upper_bound(seen.begin(), seen.end(), tConsumerNs, [](qint64 t, qint64 s) { return t < s; })
        - seen.begin());
}

std::optional<double> markerStateLagMs(const std::vector<qint64>& acks, size_t held, qint64 tSupplierNs)
{
    size_t n = 0; // the newest marker acknowledged by the supplier's reading
    for (size_t k = 0; k < acks.size(); ++k)
        if (acks[k] > 0 && acks[k] <= tSupplierNs)
            n = k + 1;
    const size_t j = held;
    if (n == 0 || j == 0)
        return std::nullopt;
    if (j >= n)
        return 0.0;
    for (size_t k = std::min(j, acks.size()); k > 0; --k)
        if (acks[k - 1] > 0)
            return double(acks[n - 1] - acks[k - 1]) / 1e6;
    return std::nullopt;
}

std::optional<LagRange> markerLagRangeMs(const Writes& w, size_t heldBefore, size_t heldAfter, qint64 tSupplierNs)
{
    size_t acked = 0, sent = 0; // the newest marker acknowledged, and sent (not failed), by the supplier's reading
    for (size_t k = 0; k < w.acks.size(); ++k) {
        if (w.acks[k] > 0 && w.acks[k] <= tSupplierNs)
            acked = k + 1;
        if (w.acks[k] != -1 && sentAt(w, k + 1) > 0 && sentAt(w, k + 1) <= tSupplierNs)
            sent = k + 1;
    }
    const size_t after = newestAcked(w.acks, heldAfter);
    if (acked == 0 || after == 0)
        return std::nullopt;
    LagRange r;
    // Low: the supplier had at least `acked` (committed after its send), the consumer at most `after` (before its ack).
    if (heldAfter < acked)
        r.low = std::max(0.0, double(sentAt(w, acked) - w.acks[after - 1]) / 1e6);
    // High: the supplier had at most `sent` (committed by its ack, or by the reading), the consumer at least
    // heldBefore (committed after its send).
    if (heldBefore > 0) {
        const qint64 newest = w.acks[sent - 1] > 0 ? std::min(w.acks[sent - 1], tSupplierNs) : tSupplierNs;
        r.high = heldBefore >= sent ? 0.0 : std::max(0.0, double(newest - sentAt(w, heldBefore)) / 1e6);
        r.high = std::max(*r.high, r.low);
    }
    return r;
}

double toleranceMs(double resolutionMs, double markerRate, int pollMs)
{
    return resolutionMs + 2 * 1000.0 / markerRate + pollMs + kSkewMs;
}

bool disagrees(std::optional<double> vendorMs, const std::optional<LagRange>& range, double toleranceMs)
{
    if (!vendorMs || !range)
        return false;
    return *vendorMs < range->low - toleranceMs || (range->high && *vendorMs > *range->high + toleranceMs);
}

Monitor::Monitor(const LdapTarget& supplier, const QList<LdapTarget>& consumers, const Settings& settings)
    : m_settings(settings)
{
    const qint64 step = qint64(settings.intervalS * 1e9);
    m_supplier = std::make_unique<Poller>(supplier, settings.markerDn, Role::Supplier, step);
    for (const LdapTarget& c : consumers) {
        m_consumers.push_back(std::make_unique<Poller>(c, settings.markerDn, Role::Consumer, step));
        m_uris.push_back(c.uri);
    }
    m_history.resize(m_consumers.size());
}

Monitor::~Monitor()
{
    stop();
}

void Monitor::start(qint64 t0Ns)
{
    m_t0 = t0Ns;
    // Half an interval after each interval's start: the interval that ends next takes a reading made inside it.
    const qint64 first = t0Ns + qint64(m_settings.intervalS * 1e9 / 2);
    m_supplier->start(first);
    for (auto& p : m_consumers)
        p->start(first);
}

void Monitor::stop()
{
    m_supplier->stop();
    for (auto& p : m_consumers)
        p->stop();
}

QJsonObject Monitor::compose(
    size_t i, const Writes& writes, const std::vector<qint64>& seen, qint64 (&readings)[2]) const
{
    const Poller::Reading sup = m_supplier->latest();
    const Poller::Reading con = m_consumers[i]->latest();
    const QString kind = con.ok ? con.state.id.kind : sup.state.id.kind;
    if (kind != u"openldap" && kind != u"389ds")
        return {};
    const double resolution = kind == u"389ds" ? 1000.0 : 0.001;
    auto at
        = [this](qint64 ns) { return ns > 0 ? QJsonValue(std::round(double(ns - m_t0) / 1e6) / 1000) : QJsonValue(); };
    QJsonObject v { { QStringLiteral("kind"), kind }, { QStringLiteral("resolution_ms"), resolution },
        { QStringLiteral("read_at_s"), con.ok ? at(con.state.csnReadNs) : QJsonValue() },
        { QStringLiteral("supplier_read_at_s"), sup.ok ? at(sup.state.csnReadNs) : QJsonValue() },
        { QStringLiteral("reachable"), con.fresh },
        { QStringLiteral("error"), con.fresh ? QJsonValue() : QJsonValue(con.error) },
        { QStringLiteral("supplier_csn"), sup.ok ? QJsonValue(csnJson(sup.state.csn)) : QJsonValue() },
        { QStringLiteral("consumer_csn"), con.ok ? QJsonValue(csnJson(con.state.csn)) : QJsonValue() } };
    std::optional<double> lag;
    v.insert(QStringLiteral("lag_by_server"),
        sup.ok && con.ok ? QJsonValue(lagByServer(kind, sup.state, con.state, &lag)) : QJsonValue());
    if (kind == u"389ds")
        add389(v, sup.state, con, m_uris[i]);
    else {
        v.insert(QStringLiteral("monitor"), con.ok ? con.state.monitor : QJsonValue());
        v.insert(QStringLiteral("monitor_error"),
            con.ok && !con.state.monitorError.isEmpty() ? QJsonValue(con.state.monitorError) : QJsonValue());
    }
    const qint64 tCon = con.state.csnReadNs;
    const double tolerance = toleranceMs(resolution, m_settings.markerRate, m_settings.pollMs);
    v.insert(QStringLiteral("lag_ms"), msOrNull(lag));
    v.insert(QStringLiteral("lag_source"),
        lag ? QJsonValue(con.fresh ? QStringLiteral("csn") : QStringLiteral("last-reading")) : QJsonValue());
    const std::optional<LagRange> range = addMeasured(v, lag && sup.ok ? sup.state.csnReadNs : 0, con, writes, seen);
    v.insert(QStringLiteral("tolerance_ms"), std::round(tolerance * 1000) / 1000);
    v.insert(QStringLiteral("vendor_disagrees"), disagrees(lag, range, tolerance));
    readings[0] = sup.state.csnReadNs;
    readings[1] = tCon;
    return v;
}

QJsonValue Monitor::interval(size_t i, const Writes& writes, const std::vector<qint64>& seen, RunRecord& rec)
{
    qint64 readings[2] = { 0, 0 };
    QJsonObject v = compose(i, writes, seen, readings); // not const: returned by move
    if (v.isEmpty())
        return QJsonValue();
    History& h = m_history[i];
    const bool newReading = readings[0] != h.lastPair[0] || readings[1] != h.lastPair[1];
    h.lastPair[0] = readings[0];
    h.lastPair[1] = readings[1];
    const bool disagrees = v.value(QStringLiteral("vendor_disagrees")).toBool();
    if (newReading && v.value(QStringLiteral("lag_ms")).isDouble()) {
        h.lagsMs.push_back(v.value(QStringLiteral("lag_ms")).toDouble());
        ++h.readings;
        h.disagreeing += disagrees ? 1 : 0;
    }
    if (disagrees && !h.warned) {
        h.warned = true;
        rec.addWarning(QStringLiteral("vendor-lag-disagrees"),
            QStringLiteral("consumer %1: the server's own figure (%2) says %3 ms behind, the markers %4 ms "
                           "(more apart than its resolution and the probe's, %5 ms)")
                .arg(m_uris[i],
                    v.value(QStringLiteral("kind")).toString() == u"389ds" ? QStringLiteral("RUV")
                                                                           : QStringLiteral("contextCSN"),
                    Units::formatNumber(v.value(QStringLiteral("lag_ms")).toDouble(), 1),
                    Units::formatNumber(v.value(QStringLiteral("measured_lag_ms")).toDouble(), 1),
                    Units::formatNumber(v.value(QStringLiteral("tolerance_ms")).toDouble(), 1)));
    }
    h.last = v;
    return v;
}

QJsonValue Monitor::summary(size_t i) const
{
    const History& h = m_history[i];
    if (!h.last.isObject())
        return QJsonValue();
    QJsonObject v = h.last.toObject();
    v.insert(QStringLiteral("lag_p99_ms"), h.lagsMs.empty() ? QJsonValue() : QJsonValue(p99(h.lagsMs)));
    v.insert(QStringLiteral("lag_max_ms"),
        h.lagsMs.empty() ? QJsonValue() : QJsonValue(*std::max_element(h.lagsMs.begin(), h.lagsMs.end())));
    v.insert(QStringLiteral("readings"), h.readings);
    v.insert(QStringLiteral("disagreeing_readings"), h.disagreeing);
    v.insert(QStringLiteral("vendor_disagrees"), h.disagreeing > 0);
    return v;
}

} // namespace ReplicationVendor
