#pragma once

#include "core/experiments/replicationvendorread.h"

#include <QJsonValue>

#include <memory>
#include <optional>
#include <vector>

struct RunRecord;

// What the servers say, on the marker probe's time axis (issue 13). Each server (the supplier and every consumer) is
// read once per interval by a thread of its own over a session of its own with short timeouts
// (ReplicationVendor::kReadTimeoutMs), read only, off the probe's hot path: a frozen consumer delays only its own
// reading. Each interval then gets, per consumer, a `vendor` object (null for a server whose state is not read):
//   kind ("openldap" | "389ds"), resolution_ms (0.001 for contextCSN, 1000 for a 389-ds CSN), read_at_s and
//   supplier_read_at_s (the readings used, seconds since the run began), reachable, error,
//   supplier_csn / consumer_csn ({server id: CSN}), lag_by_server ({id: supplier - consumer CSN time in ms, null
//   when the consumer has none from that server}), lag_ms (the vendor's figure: the largest, never below 0; null
//   when unknown) and lag_source ("csn"; "last-reading" while the consumer cannot be read: its state as last read,
//   against the supplier's now, which is what a monitor polling it shows and an upper bound), measured_lag_ms
//   (the same state difference from the markers, at the same two readings: ack time of the newest marker the
//   supplier acknowledged by its reading - ack time of the newest the consumer held at its reading),
//   measured_from ("marker-entry": the consumer's copy of the marker entry, read right after its CSNs in the same
//   session; "watcher": when that read failed, the newest marker its watcher had shown by then, which a busy
//   consumer catching up can deliver late), consumer_marker (that marker's number), watcher_marker (the newest the
//   watcher had shown by the consumer's reading), measured_lag_range_ms ([low, high or null]: what the markers
//   allow for that difference, whatever the delays on a loaded machine: a marker's CSN lies between its write's
//   send and its ack, the supplier's state between the markers acknowledged and those sent by its reading, the
//   consumer's between its copies read right before and right after its CSNs), tolerance_ms (resolution + two marker
//   periods + the poll period + 50 ms), vendor_disagrees (the vendor's figure more than the tolerance outside the
//   range); OpenLDAP: monitor ({"cn=Consumer NNN":
//   {provider_uris, connection, phase, next_connect, last_connect, last_contact, last_cookie_received,
//   last_cookie_sent}} or null, monitor_error); 389-ds: supplier_ruv / consumer_ruv ([{rid, url, min_csn, max_csn}]),
//   agreement ({dn, uri, state, message, status_json, last_update_status, changes_sent_since_startup, changes_sent,
//   max_csn, update_in_progress} or null), agreement_lag_ms (lib389's get_lag_time: |nsds5AgmtMaxCSN - the consumer's
//   RUV max CSN for the supplier's replica id|, what dsconf and Cockpit show), conflicts (entries with
//   nsds5ReplConflict).
// The first disagreement per consumer adds the warning vendor-lag-disagrees.
namespace ReplicationVendor {

class Poller;

// The marker writer's times (ReplicationWatch::Writer): acks[k-1] when marker k was acknowledged (0 in flight, -1
// failed), sends[k-1] when its write was sent.
struct Writes
{
    const std::vector<qint64>& acks;
    const std::vector<qint64>& sends;
};

// What the markers allow for the state difference (measured_lag_range_ms), in ms; no high when the consumer held
// no marker before its CSNs were read.
struct LagRange
{
    double low = 0;
    std::optional<double> high;
};

class Monitor
{
public:
    struct Settings
    {
        QString markerDn;
        double intervalS = 1;
        double markerRate = 10;
        int pollMs = 5;
    };
    Monitor(const LdapTarget& supplier, const QList<LdapTarget>& consumers, const Settings& settings);
    ~Monitor();
    Monitor(const Monitor&) = delete;
    Monitor& operator=(const Monitor&) = delete;

    void start(qint64 t0Ns);
    void stop();
    // Consumer i's vendor object for the interval, from the newest readings (writes: the writer's, seen: consumer
    // i's watcher's). Adds the warning to rec on the consumer's first disagreement.
    QJsonValue interval(size_t i, const Writes& writes, const std::vector<qint64>& seen, RunRecord& rec);
    // The summary's: the last interval's object with, over the run, lag_p99_ms and lag_max_ms (null without a
    // figure), readings, disagreeing_readings and vendor_disagrees (any of them).
    QJsonValue summary(size_t i) const;

private:
    struct History
    {
        QJsonValue last;
        std::vector<double> lagsMs;
        qint64 lastPair[2] = { 0, 0 };
        qint64 readings = 0, disagreeing = 0;
        bool warned = false;
    };
    // The object, and in readings the supplier's and the consumer's reading times it used.
    QJsonObject compose(size_t i, const Writes& writes, const std::vector<qint64>& seen, qint64 (&readings)[2]) const;

    Settings m_settings;
    qint64 m_t0 = 0;
    std::unique_ptr<Poller> m_supplier;
    std::vector<std::unique_ptr<Poller>> m_consumers;
    std::vector<QString> m_uris;
    std::vector<History> m_history;
};

// How many markers the watcher had shown by tConsumerNs (seen: when it showed each).
size_t markersShown(const std::vector<qint64>& seen, qint64 tConsumerNs);
// The markers' state difference (see measured_lag_ms above) with the consumer holding markers 1..held, nullopt
// when the supplier has acknowledged nothing by tSupplierNs or the consumer holds none.
std::optional<double> markerStateLagMs(const std::vector<qint64>& acks, size_t held, qint64 tSupplierNs);

// How far apart the vendor's lag and the markers' may be and still agree (tolerance_ms): the CSN's resolution, a
// marker period at each end (one the supplier had committed but not yet acknowledged at its reading, one the
// consumer applied between its CSN read and its marker read), the poll period and 50 ms.
double toleranceMs(double resolutionMs, double markerRate, int pollMs);
// The range, with the consumer holding markers 1..heldBefore right before its CSNs were read (0: none, or unread)
// and 1..heldAfter right after; nullopt when the supplier has acknowledged nothing by tSupplierNs or the consumer
// holds none.
std::optional<LagRange> markerLagRangeMs(const Writes& w, size_t heldBefore, size_t heldAfter, qint64 tSupplierNs);
// vendor_disagrees: the vendor's figure and the range known, and the figure more than the tolerance outside it.
bool disagrees(std::optional<double> vendorMs, const std::optional<LagRange>& range, double toleranceMs);

} // namespace ReplicationVendor
