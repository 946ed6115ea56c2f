#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>

struct RunRecord;

// The server's own view of a load's operations: what its access log says it spent on each (389-ds etime, wtime
// and optime; OpenLDAP qtime and etime), put into the load's intervals by the time the server logged the result,
// beside the client's latency of the same intervals. The gap between the client's latency and the server's etime
// is the listener, the network and the client. Reads the part of the log the server wrote during the load (from a
// byte offset taken before it); no network.
namespace ServerLogView {

struct Window
{
    uint64_t startEpochNs = 0; // the load's measured phase on the wall clock (summary.window_epoch_ns)
    uint64_t endEpochNs = 0;
    QJsonArray intervals; // the load record's intervals (t, seconds, latency_ms): the time axis and the client side
};

// The record's `server_log` object, or nothing with `error` ("FILE: why") when the log cannot be read or holds
// no operation the parsers know.
std::optional<QJsonObject> read(const QString& path, qint64 offset, const Window& window, QString* error);

// The window of a load record (its summary.window_epoch_ns and intervals); nothing when the record has none.
std::optional<Window> windowOf(const QJsonObject& summary, const QJsonArray& intervals);

// Reads the load's part of the log (from offset, the log's size before the load) into rec.extra["server_log"];
// a log that cannot be read is a warning of the run (code "server-log"), never its failure, and so is a series
// that holds clearly fewer operations than the client's ok (a server that buffers its log: the series lags).
// Returns the view, or nothing. Blocks for the read (a few MB): not on a GUI thread.
std::optional<QJsonObject> attach(const QString& path, qint64 offset, RunRecord& rec);

} // namespace ServerLogView
