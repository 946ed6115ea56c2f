#include "core/agents/remoteanalyze.h"

#include "core/common/environment.h"
#include "core/run/runcontext.h"
#include "core/workload/logreader.h"
#include "core/workload/workloadfile.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

namespace Agents {

namespace {

QString formatOption(LogFormat f)
{
    for (const char* name : { "auto", "389", "openldap", "accesslog-ldif" })
        if (logFormatFromOption(QLatin1String(name)) == f)
            return QLatin1String(name);
    return QStringLiteral("auto");
}

QJsonValue optionalNs(const std::optional<uint64_t>& ns)
{
    return ns ? QJsonValue(QString::number(*ns)) : QJsonValue(QJsonValue::Null);
}

std::optional<uint64_t> nsFrom(const QJsonValue& v)
{
    if (!v.isString())
        return std::nullopt;
    return v.toString().toULongLong();
}

QJsonObject optionsToWire(const AnalyzeOptions& o)
{
    QStringList paths;
    for (const QString& log : o.logs)
        paths << hostPath(log).value_or(HostPath { {}, log }).path;
    return QJsonObject { { QStringLiteral("logs"), QJsonArray::fromStringList(paths) },
        { QStringLiteral("format"), formatOption(o.format) },
        { QStringLiteral("from_ns"), optionalNs(o.filter.fromNs) },
        { QStringLiteral("to_ns"), optionalNs(o.filter.toNs) },
        { QStringLiteral("client"), QString::fromStdString(o.filter.client) },
        { QStringLiteral("kinds"), double(o.filter.kinds) }, { QStringLiteral("build_workload"), o.buildWorkload },
        { QStringLiteral("keep_values"), o.keepValues } };
}

// A wildcard in a host's path (no shell there expands it: `access*` for a log and its rotations) matched in its
// directory, in name order; no match leaves it as given (the reader then says it is missing).
QStringList expandedOnHost(const QString& path)
{
    const QFileInfo fi(path);
    if (!fi.fileName().contains(u'*') && !fi.fileName().contains(u'?'))
        return { path };
    const QDir dir = fi.dir();
    const QStringList names = dir.entryList({ fi.fileName() }, QDir::Files, QDir::Name);
    if (names.isEmpty())
        return { path };
    QStringList out;
    for (const QString& n : names)
        out << dir.filePath(n);
    return out;
}

} // namespace

std::optional<HostPath> hostPath(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^([^/:\\s]+):(/.*)$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    return HostPath { m.captured(1), m.captured(2) };
}

QString logsHost(const QStringList& logs, QString* error)
{
    QString host;
    int local = 0;
    for (const QString& log : logs) {
        const auto hp = hostPath(log);
        if (!hp) {
            ++local;
            continue;
        }
        if (!host.isEmpty() && hp->host != host) {
            *error = QStringLiteral("logs on two hosts (%1 and %2): analyse each host's logs on their own")
                         .arg(host, hp->host);
            return {};
        }
        host = hp->host;
    }
    if (!host.isEmpty() && local > 0) {
        *error = QStringLiteral("logs here and on %1: analyse each machine's logs on their own").arg(host);
        return {};
    }
    return host;
}

std::optional<AnalyzeOptions> analyzeOptionsFromWire(const QJsonObject& o, QString* error)
{
    AnalyzeOptions a;
    const QJsonArray logs = o.value(QStringLiteral("logs")).toArray();
    for (const auto& v : logs)
        a.logs << expandedOnHost(v.toString());
    const auto format = logFormatFromOption(o.value(QStringLiteral("format")).toString());
    if (a.logs.isEmpty() || !format) {
        *error = QStringLiteral("workload spec: no logs, or a format this agent does not know (install the same "
                                "DirBench version)");
        return std::nullopt;
    }
    a.format = *format;
    a.filter.fromNs = nsFrom(o.value(QStringLiteral("from_ns")));
    a.filter.toNs = nsFrom(o.value(QStringLiteral("to_ns")));
    a.filter.client = o.value(QStringLiteral("client")).toString().toStdString();
    a.filter.kinds = uint32_t(o.value(QStringLiteral("kinds")).toDouble());
    a.buildWorkload = o.value(QStringLiteral("build_workload")).toBool();
    a.keepValues = o.value(QStringLiteral("keep_values")).toBool();
    return a;
}

RunRecord analyzeHere(const AnalyzeOptions& options, RunContext& ctx)
{
    RunRecord rec;
    rec.kind = QStringLiteral("workload-analysis");
    rec.started = QDateTime::currentDateTimeUtc();
    rec.environment = Environment::collect();
    AnalyzeOptions o = options;
    o.stopRequested = [&ctx] { return ctx.stopRequested(); };
    const AnalyzeResult r = WorkloadAnalyze::run(o, [&ctx](uint64_t done, uint64_t total) {
        ctx.setPhase(QStringLiteral("reading the logs"));
        if (total > 0)
            ctx.setProgress(double(done) / double(total));
    });
    rec.status = r.stopped ? QStringLiteral("cancelled") : QStringLiteral("ok");
    rec.extra = QJsonObject { { QStringLiteral("analysis"), r.analysis }, { QStringLiteral("error"), r.error },
        { QStringLiteral("error_field"), r.errorField }, { QStringLiteral("unrecognised"), r.unrecognised },
        { QStringLiteral("warnings"), QJsonArray::fromStringList(r.warnings) },
        { QStringLiteral("seconds"), r.seconds }, { QStringLiteral("bytes"), double(r.bytes) } };
    if (r.workload)
        rec.extra.insert(QStringLiteral("workload_file"), QString::fromUtf8(WorkloadFile::encode(*r.workload)));
    return rec;
}

AnalyzeResult analyzeOnHost(RemoteRunSpec target, const AnalyzeOptions& options, RunContext& ctx)
{
    target.engine = QStringLiteral("workload-analyze");
    target.engineSpec = optionsToWire(options);
    target.kind = QStringLiteral("workload-analysis");
    target.deadlineS = 24 * 3600; // a month of logs takes long; a closed stdin stops it at once
    const RunRecord rec = runRemote(target, ctx);
    AnalyzeResult r;
    if (rec.status == u"cancelled") {
        r.stopped = true;
        r.error = QStringLiteral("stopped");
        return r;
    }
    if (rec.status != u"ok") {
        r.error = rec.failure;
        return r;
    }
    const QJsonObject& x = rec.extra;
    r.analysis = x.value(QStringLiteral("analysis")).toObject();
    r.error = x.value(QStringLiteral("error")).toString();
    r.errorField = x.value(QStringLiteral("error_field")).toString();
    if (!r.error.isEmpty())
        r.error = QStringLiteral("on %1: %2").arg(target.host.name, r.error);
    r.unrecognised = x.value(QStringLiteral("unrecognised")).toBool();
    const QJsonArray warnings = x.value(QStringLiteral("warnings")).toArray();
    for (const auto& w : warnings)
        r.warnings << w.toString();
    r.seconds = x.value(QStringLiteral("seconds")).toDouble();
    r.bytes = uint64_t(x.value(QStringLiteral("bytes")).toDouble());
    if (x.contains(QStringLiteral("workload_file"))) {
        QString why;
        r.workload = WorkloadFile::decode(x.value(QStringLiteral("workload_file")).toString().toUtf8(),
            target.host.name + QStringLiteral(" (its workload)"), &why);
        if (!r.workload)
            r.error = why;
    }
    return r;
}

} // namespace Agents
