#pragma once

#include "core/common/runrecord.h"

#include <QString>

// What an experiment's points vary (summary.points[].KEY) and how its chart names that axis, for the window and the
// report alike: client threads for a thread sweep, the server's threads when it swept those, entries for a database
// size, plain against TLS for the TLS cost.
namespace PointAxis {

struct Axis
{
    QString key; // "threads", "server_threads", "entries", "tls"
    QString title; // "Client threads", ...
};

Axis of(const RunRecord& r);
// "best 32,932.5 ok/s at 8 client threads" (ops/s for a record older than ok/s), "" when the record has no best
// point (a TLS cost compares two points, it has no best).
QString bestText(const RunRecord& r);

} // namespace PointAxis
