#include "app/cli/serverlogoption.h"

#include "app/cli/clicommon.h"
#include "core/ldap/loadresult.h"
#include "core/workload/serverlogfigures.h"
#include "core/workload/serverlogview.h"

#include <QFileInfo>

namespace Cli {

QCommandLineOption serverLogCommandLineOption()
{
    return QCommandLineOption(QStringLiteral("server-log"),
        QStringLiteral("The server's access log (389-ds unbuffered, OpenLDAP stats to a file): its per-operation "
                       "times beside the client's latency (loads)."),
        QStringLiteral("FILE"));
}

int serverLogFromParser(const QCommandLineParser& parser, ServerLogOption* out)
{
    if (!parser.isSet(QStringLiteral("server-log")))
        return ExitOk;
    const QString path = parser.value(QStringLiteral("server-log"));
    const QFileInfo fi(path);
    if (!fi.isFile() || !fi.isReadable())
        return badArgument(QStringLiteral("--server-log"), QStringLiteral("'%1' is not a readable file").arg(path));
    *out = { fi.absoluteFilePath(), fi.size() };
    return ExitOk;
}

void attachServerLog(const ServerLogOption& o, RunRecord& rec, std::FILE* out)
{
    if (!o.isSet())
        return;
    const auto view = ServerLogView::attach(o.path, o.offset, rec);
    if (!view)
        return;
    const ServerLogFigures s = ServerLogFigures::fromJson(*view);
    const LatencyFigures client = LoadSummary::fromJson(rec.summary).all.latencyMs;
    std::fprintf(out,
        "server's own view (%s): %.0f operations in the window, etime p50 %.3f ms p99 %.3f ms; client p50 %.3f ms "
        "p99 %.3f ms\n",
        qPrintable(s.format), s.ops, s.etimeP50Ms, s.etimeP99Ms, client.p50.value_or(0), client.p99.value_or(0));
}

} // namespace Cli
