#include "ui/pages/serverlogjob.h"

#include "core/workload/serverlogview.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <tuple>

namespace ServerLogJob {

ProbeError check(const QString& path)
{
    if (path.isEmpty())
        return {};
    const QFileInfo fi(path);
    if (!fi.isFile() || !fi.isReadable())
        return ProbeError::invalid(QStringLiteral("server-log"),
            QCoreApplication::translate("LdapPage", "'%1' is not a readable file").arg(path));
    return {};
}

std::function<RunRecord(RunContext&)> wrap(std::function<RunRecord(RunContext&)> job, const QString& path)
{
    if (path.isEmpty())
        return job;
    return [job = std::move(job), path](RunContext& ctx) {
        const qint64 offset = QFileInfo(path).size(); // what comes after it is the load's
        RunRecord record = job(ctx);
        if (!record.intervals.isEmpty()) // a run that never measured has no window to put the server's times in
            std::ignore = ServerLogView::attach(path, offset, record);
        return record;
    };
}

} // namespace ServerLogJob
