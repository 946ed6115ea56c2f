#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QtGlobal>

#include <limits>
#include <optional>
#include <vector>

// What a marker's replication lag is, in one place (the probe's intervals and summary, the ramp's steps, the
// verdict, the report and the history all read it from here). Inputs are the marker probe's time stamps on one
// steady clock (ReplicationWatch::nowNs): acks[k-1] when the supplier acknowledged marker k (0: in flight or not
// written, kFailed: the write failed, kMissed: not sent, as the writer had kMaxInFlight writes unanswered when it
// was due), sends[k-1] when its write was sent, seen[k-1] when a consumer first showed a value >= k.
//
// Each acknowledged marker gets two lags: from its acknowledgement (what a client that reads after its write
// succeeded experiences: the headline and the verdict) and from its send (an upper bound that includes the
// supplier's own queueing). A marker shown before its ack arrived has an ack-based lag of 0 and is counted
// (seen_before_ack). A marker still unseen when the watch ended is censored, never dropped: its lag is at least
// (watch end - its ack), and a percentile whose rank falls on or after a censored value is a lower bound ("> X").
namespace ReplicationLag {

constexpr qint64 kFailed = -1;
constexpr qint64 kMissed = -2;
constexpr int kMaxInFlight = 8;

struct Lags
{
    std::vector<double> fromAckMs, fromSendMs;
    std::vector<bool> censored; // per entry of the two vectors above
    qint64 seenBeforeAck = 0;
    qint64 censoredCount() const;
};

// The lags of the markers acknowledged in [beginNs, endNs) (every acknowledged marker by default); watchEndNs is
// when the consumer stopped being watched (a marker not in seen by then is censored).
Lags lags(const std::vector<qint64>& acks, const std::vector<qint64>& sends, const std::vector<qint64>& seen,
    qint64 watchEndNs, qint64 beginNs = std::numeric_limits<qint64>::min(),
    qint64 endNs = std::numeric_limits<qint64>::max());

// Percentiles of lags of which some are lower bounds.
struct Figures
{
    qint64 count = 0; // markers
    qint64 censored = 0; // of them, never seen: their lag is a lower bound
    double p50 = 0, p99 = 0, max = 0; // ms
    bool p50AtLeast = false, p99AtLeast = false, maxAtLeast = false; // the figure is a lower bound

    // {p50, p99, max, markers, censored, p50_at_least, p99_at_least, max_at_least}
    QJsonObject toJson() const;
    // Reads toJson()'s object; records written before the bounds existed read with every flag false.
    static std::optional<Figures> fromJson(const QJsonValue& v);
};
// nullopt when there are no values.
std::optional<Figures> figures(const std::vector<double>& ms, const std::vector<bool>& censored);
// figures(...) as JSON, null when there are none.
QJsonValue figuresJson(const std::vector<double>& ms, const std::vector<bool>& censored);

// "96.7" or "> 6,500.3" (one decimal, grouped): how a lag figure is printed everywhere.
QString text(double ms, bool atLeast);

} // namespace ReplicationLag
