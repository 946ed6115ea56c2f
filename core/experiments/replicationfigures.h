#pragma once

#include "core/common/runrecord.h"

#include <QJsonObject>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <optional>

// A replication record (kind "replication", core/experiments/replication.h) read for the page, the report and the
// CLI's summary: its figures and sentences in one place.
// Fields other parts may add are read when present and never required: consumers[URI].vendor {...}, a per-consumer
// method ("sync", "psearch", "poll") and summary.knee_write_rate after a write ramp.
namespace ReplicationFigures {

struct Lag
{
    std::optional<double> p50;
    std::optional<double> p99;
    std::optional<double> max;
    // The figure is a lower bound: it falls among markers never seen (core/experiments/replicationlag.h).
    bool p50AtLeast = false, p99AtLeast = false, maxAtLeast = false;
};
Lag lagOf(const QJsonValue& lagMs); // {p50, p99, max, ..._at_least} or null
// "96.7" or "> 6,500.3"; "n/a" without a figure.
QString lagValue(const std::optional<double>& ms, bool atLeast);

// The consumers' URIs: the summary's, else the spec's, else the intervals' (in the order first seen).
QStringList consumerUris(const RunRecord& r);
// consumers[uri].method of the summary, else the summary's, else the spec's; "poll" when none says.
QString methodOf(const RunRecord& r, const QString& uri);
std::optional<double> kneeRate(const QJsonObject& summary);
// After a write ramp: the write rate of its last step (the highest the ramp reached); none without a ramp.
std::optional<double> rampTopRate(const QJsonObject& summary);
// The vendor's own figures of one consumer, in one line ("" when the record has none): its lag first.
QString vendorText(const QJsonValue& vendor);
QStringList verdictSentences(const RunRecord& r);
bool hasVerdictSentences(const RunRecord& r); // the record holds its own lag verdicts' sentences (maybe none)
// The consumers the run was asked to watch (the spec's, in its order; "" for one without a URI).
QStringList specConsumerUris(const RunRecord& r);
// "p99 lag 3.1 ms (worst of 1 consumer), 0 unseen, 10 writes/s": the report's and the history's headline.
QString headline(const RunRecord& r);

// One consumer's points over the run: lag p50 and p99 (ms) of the markers seen in each interval, and the age of
// the oldest unseen marker ("behind for at least", ms; 0 when nothing is behind).
struct ConsumerSeries
{
    QList<QPointF> p50;
    QList<QPointF> p99;
    QList<QPointF> behindMs;
    bool everBehind = false;
};
void addInterval(const QJsonObject& interval, const QString& uri, ConsumerSeries* out);
ConsumerSeries seriesOf(const QJsonArray& intervals, const QString& uri);
// The supplier's writes/s per interval, leaving out a tail shorter than kMinRateSpanS (the last interval, cut when
// the consumers caught up: a rate over a few milliseconds says nothing).
constexpr double kMinRateSpanS = 0.5;
inline bool rateSpanOk(double previousT, double t)
{
    return t - previousT >= kMinRateSpanS;
}
QList<QPointF> writeRate(const QJsonArray& intervals);

// The eDirectory article's -625/-626, in its own terms, and where DirBench shows why.
QString edirectoryNote();

} // namespace ReplicationFigures
