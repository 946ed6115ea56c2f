#include "core/replay/replayprepare.h"

#include "core/replay/replayplan.h"
#include "core/workload/workloadanalyze.h"
#include "core/workload/workloadfile.h"

namespace Replay {

namespace {

bool prepareWorkloadOfLogs(const ReplaySpec& s, ReplayPrepared* out)
{
    AnalyzeOptions options;
    options.logs = s.logFiles;
    options.buildWorkload = true;
    options.keepValues = s.values == ReplaySpec::Values::Log;
    AnalyzeResult r = WorkloadAnalyze::run(options);
    out->unrecognised = r.unrecognised;
    out->warnings = r.warnings;
    if (!r.error.isEmpty() || !r.workload) {
        out->error = ProbeError::invalid(
            QStringLiteral("log"), r.error.isEmpty() ? QStringLiteral("no workload in the logs") : r.error);
        return false;
    }
    r.workload->analysis = r.analysis;
    out->workload = std::make_shared<const Workload>(std::move(*r.workload));
    return true;
}

bool prepareWorkload(const ReplaySpec& s, ReplayPrepared* out)
{
    if (!s.logFiles.isEmpty())
        return prepareWorkloadOfLogs(s, out);
    QString error;
    auto w = WorkloadFile::read(s.workloadPath, &error);
    if (!w) {
        out->error = ProbeError::invalid(QStringLiteral("workload"), error);
        return false;
    }
    out->workload = std::make_shared<const Workload>(std::move(*w));
    return true;
}

bool preparePasswords(const ReplaySpec& s, ReplayPrepared* out)
{
    std::optional<ReplayPasswords> pw;
    if (!s.passwordsFile.isEmpty())
        pw = ReplayPasswords::fromFile(s.passwordsFile, &out->error);
    else if (!s.sharedPasswordFile.isEmpty())
        pw = ReplayPasswords::sharedFromFile(s.sharedPasswordFile, &out->error);
    else
        return true;
    if (pw)
        out->passwords = std::move(*pw);
    return pw.has_value();
}

} // namespace

ReplayPrepared prepare(const ReplaySpec& spec)
{
    ReplayPrepared out;
    if (out.error = spec.validate(); out.error.isError())
        return out;
    if (!prepareWorkload(spec, &out))
        return out;
    if (out.error = spec.validate(out.workload.get()); out.error.isError())
        return out;
    if (!preparePasswords(spec, &out))
        return out;
    const auto plan = ReplayPlan::make(*out.workload, spec, &out.passwords, QStringLiteral("TAG"), &out.error);
    if (plan)
        out.preview = plan->dryRunText();
    return out;
}

} // namespace Replay
