#pragma once

#include <QJsonObject>
#include <QString>

class LiveChartView;

// The server's own etime beside the client's latency on the latency chart: "server etime p50" and "server etime
// p99", dashed, in the colours of the client's p50 and p99, a point per interval of the record's server_log
// (core/workload/serverlogview.h) that has an etime. The gap between the two is the listener, the network and the
// client.
namespace ServerLogSeries {

QString name(const QString& percentile); // "p50" -> "server etime p50"
// Draws the series of serverLog (the record's extra "server_log"; nothing when it is empty). Returns the number
// of points of each.
int draw(LiveChartView* chart, const QJsonObject& serverLog);
// While the load runs: one point of each at `t` (core/workload/serverlogtail.h's live slices), and the live points
// taken off before the record's own are drawn.
void appendLive(LiveChartView* chart, double t, double p50Ms, double p99Ms);
void remove(LiveChartView* chart);

} // namespace ServerLogSeries
