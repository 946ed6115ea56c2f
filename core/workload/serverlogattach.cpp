#include "core/common/runrecord.h"
#include "core/workload/serverlogview.h"

namespace ServerLogView {

namespace {

// The client's operations in the measured window against the server's: a server that buffers its log (389-ds
// with nsslapd-accesslog-logbuffering on) has written only part of them when the load ends.
void warnIfLagging(const QJsonObject& view, RunRecord& rec)
{
    const double server = view.value(QLatin1String("summary")).toObject().value(QLatin1String("ops")).toDouble();
    const double client = rec.summary.value(QLatin1String("ops")).toDouble();
    if (client <= 0 || server >= 0.9 * client - 10)
        return;
    rec.addWarning(QStringLiteral("server-log-lags"),
        QStringLiteral("the server's log holds %1 operations of the window, the client completed %2: the server "
                       "buffers its log (389-ds: nsslapd-accesslog-logbuffering) or logs only part of them; its "
                       "series lags the client's")
            .arg(server, 0, 'f', 0)
            .arg(client, 0, 'f', 0));
}

} // namespace

std::optional<QJsonObject> attach(const QString& path, qint64 offset, RunRecord& rec)
{
    const auto window = windowOf(rec.summary, rec.intervals);
    QString error;
    auto view = window ? read(path, offset, *window, &error) : std::nullopt;
    if (!view) {
        rec.addWarning(QStringLiteral("server-log"),
            QStringLiteral("the server's access log was not read: %1")
                .arg(window ? error : QStringLiteral("the run has no measured window")));
        return std::nullopt;
    }
    rec.extra.insert(QStringLiteral("server_log"), *view);
    if (const QString why = view->value(QLatin1String("not_understood")).toString(); !why.isEmpty())
        rec.addWarning(QStringLiteral("server-log-not-understood"), QStringLiteral("the server's access log: ") + why);
    warnIfLagging(*view, rec);
    return view;
}

} // namespace ServerLogView
