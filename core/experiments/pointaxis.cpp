#include "core/experiments/pointaxis.h"

namespace PointAxis {

Axis of(const RunRecord& r)
{
    if (r.kind == u"tls-cost")
        return { QStringLiteral("tls"), QStringLiteral("0 = plain, 1 = TLS") };
    if (r.kind == u"database-size")
        return { QStringLiteral("entries"), QStringLiteral("Entries") };
    if (r.spec.value(QStringLiteral("axis")).toString() == u"server_threads")
        return { QStringLiteral("server_threads"), QStringLiteral("Server threads (nsslapd-threadnumber)") };
    return { QStringLiteral("threads"), QStringLiteral("Client threads") };
}

} // namespace PointAxis
