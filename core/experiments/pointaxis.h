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

} // namespace PointAxis
