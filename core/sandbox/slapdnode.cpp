#include "core/sandbox/slapdnode.h"

#include "core/run/runcontext.h"
#include "core/sandbox/ldifgenerator.h"
#include "core/sandbox/sandboxdir.h"
#include "core/sandbox/slapdtools.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QThread>

#include <cerrno>
#include <unistd.h>

namespace {

using SandboxDir::ioError;

constexpr int kReadyTimeoutMs = 15000;

bool appendTo(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Append) && f.write(data) == data.size() && f.flush();
}

ProbeError runFailure(const QString& what, const SlapdTools::Result& r)
{
    if (r.cancelled)
        return ioError({}, ProbeError::Kind::Cancelled);
    return ioError(SlapdTools::describe(what, r));
}

// slapd -d stats in the foreground, detached from us (it outlives the caller like the daemon does).
ProbeError launchLogging(
    const SlapdNode& node, const QString& slapd, const QStringList& args, RunContext* ctx, bool* portTaken)
{
    QProcess p;
    p.setProgram(slapd);
    p.setArguments(QStringList { QStringLiteral("-d"), QStringLiteral("stats") } + args);
    p.setStandardInputFile(QProcess::nullDevice());
    p.setStandardOutputFile(QProcess::nullDevice());
    p.setStandardErrorFile(node.statsLog, QIODevice::Append);
    const qint64 before = QFileInfo(node.statsLog).size();
    qint64 pid = 0;
    if (!p.startDetached(&pid))
        return ioError(QStringLiteral("cannot run ") + slapd + QStringLiteral(": ") + p.errorString());
    const QDeadlineTimer ready(kReadyTimeoutMs);
    while (!SlapdTools::tcpConnects(node.port)) {
        if (!SlapdTools::processAlive(pid)) {
            QFile log(node.statsLog);
            QByteArray said;
            if (log.open(QIODevice::ReadOnly) && log.seek(before))
                said = log.read(4096).trimmed();
            *portTaken = said.contains("Address already in use");
            return ioError(QStringLiteral("slapd exited right after it started: ") + QString::fromLocal8Bit(said));
        }
        if (ctx && ctx->stopRequested()) {
            SlapdTools::terminate(pid, 10000);
            return ioError({}, ProbeError::Kind::Cancelled);
        }
        if (ready.hasExpired())
            return ioError(QStringLiteral("slapd did not listen within %1 s").arg(kReadyTimeoutMs / 1000),
                ProbeError::Kind::Timeout);
        QThread::msleep(20);
    }
    return {};
}

} // namespace

ProbeError SlapdSteps::findPrograms(bool tls, Programs* out)
{
    out->slapd = SlapdTools::findProgram(QStringLiteral("slapd"));
    out->slapadd = SlapdTools::findProgram(QStringLiteral("slapadd"));
    out->openssl = tls ? SlapdTools::findProgram(QStringLiteral("openssl")) : QString();
    if (out->slapd.isEmpty() || out->slapadd.isEmpty())
        return ioError(QStringLiteral("slapd/slapadd not found in PATH or /usr/sbin (install the slapd package)"));
    if (tls && out->openssl.isEmpty())
        return ioError(QStringLiteral("openssl not found in PATH (needed for --tls)"));
    out->schemaDir = SlapdConfig::locateSchemaDir();
    if (out->schemaDir.isEmpty())
        return ioError(QStringLiteral("OpenLDAP schema files (core.schema) not found in /etc/ldap/schema"));
    return {};
}

ProbeError SlapdSteps::directories(const SlapdNode& node, const QString& parent)
{
    if (ProbeError e = SandboxDir::checkSocketPath(node.socketPath(), parent); e.isError())
        return e;
    return SandboxDir::makeSubdirs(node.dir, { QStringLiteral("db") });
}

void SlapdSteps::baseParams(SlapdNode& node, const Programs& programs, const QByteArray& hash, int entries)
{
    SlapdConfig::Params& p = node.params;
    p.dir = node.dir;
    p.dbDir = node.dir + QStringLiteral("/db");
    p.schemaDir = programs.schemaDir;
    p.moduleDir = SlapdConfig::locateModuleDir();
    p.rootPasswordHash = hash;
    p.mapSizeBytes = SlapdConfig::mapSizeFor(entries);
    p.uid = ::geteuid();
    p.gid = ::getegid();
}

ProbeError SlapdSteps::makeCertificate(SlapdNode& node, const QString& openssl, RunContext* ctx)
{
    SlapdConfig::Params& p = node.params;
    p.certFile = node.dir + QStringLiteral("/tls.crt");
    p.keyFile = node.dir + QStringLiteral("/tls.key");
    const SlapdTools::Result r = SlapdTools::run(openssl,
        { QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
            QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("30"), QStringLiteral("-subj"),
            QStringLiteral("/CN=localhost"), QStringLiteral("-addext"),
            QStringLiteral("subjectAltName=IP:127.0.0.1,DNS:localhost"), QStringLiteral("-keyout"), p.keyFile,
            QStringLiteral("-out"), p.certFile },
        60000, ctx);
    if (!r.ok() || !QFileInfo::exists(p.certFile))
        return runFailure(QStringLiteral("openssl req"), r);
    QFile::setPermissions(p.keyFile, QFile::ReadOwner | QFile::WriteOwner);
    return {};
}

ProbeError SlapdSteps::writeConfig(const SlapdNode& node)
{
    ProbeError err;
    if (!SlapdTools::writePrivateFile(node.conf(), SlapdConfig::text(node.params), &err))
        return err;
    return {};
}

ProbeError SlapdSteps::loadData(const SlapdNode& node, const QString& slapadd, int entries, const QByteArray& hash,
    bool lockoutPolicy, const QStringList& extraArgs, RunContext* ctx)
{
    SandboxDir::setPhase(ctx, QStringLiteral("generating entries"), 0.02);
    const QString ldif = node.dir + QStringLiteral("/data.ldif");
    ProbeError err;
    if (!LdifGenerator::write(ldif, entries, hash, &err, ctx, 0.02, 0.25))
        return err;
    if (lockoutPolicy && !appendTo(ldif, LdifGenerator::lockoutPolicy()))
        return ProbeError::fromErrno(errno, QStringLiteral("cannot write ") + ldif);
    SandboxDir::setPhase(ctx, QStringLiteral("loading entries (slapadd)"), 0.25);
    const QStringList args = QStringList { QStringLiteral("-q"), QStringLiteral("-f"), node.conf(),
        QStringLiteral("-b"), QLatin1String(LdifGenerator::kBase), QStringLiteral("-l"), ldif }
        + extraArgs;
    const SlapdTools::Result added = SlapdTools::run(slapadd, args, 120000 + entries * 2, ctx);
    QFile::remove(ldif);
    return added.ok() ? ProbeError {} : runFailure(QStringLiteral("slapadd"), added);
}

ProbeError SlapdSteps::launch(const SlapdNode& node, const QString& slapd, RunContext* ctx, bool* portTaken)
{
    *portTaken = false;
    QStringList urls { node.uri(), SlapdConfig::ldapiUri(node.socketPath()) };
    if (node.tlsPort)
        urls << node.ldapsUri();
    urls << node.extraUrls;
    const QStringList args { QStringLiteral("-f"), node.conf(), QStringLiteral("-h"), urls.join(u' ') };
    if (!node.statsLog.isEmpty())
        return launchLogging(node, slapd, args, ctx, portTaken);
    const SlapdTools::Result r = SlapdTools::run(slapd, args, 30000, ctx);
    if (r.ok())
        return {};
    if (r.cancelled)
        return ioError({}, ProbeError::Kind::Cancelled);
    const QString why = r.timedOut ? QString() : SlapdTools::diagnoseSlapd(slapd, args);
    *portTaken = why.contains(QLatin1String("Address already in use"));
    return ioError(SlapdTools::describe(QStringLiteral("slapd"), r) + (why.isEmpty() ? QString() : u": " + why));
}

ProbeError SlapdSteps::waitReady(SlapdNode& node, RunContext* ctx)
{
    // slapd's parent returns once the daemon is initialised; wait for it to accept connections all the same.
    const QDeadlineTimer ready(kReadyTimeoutMs);
    for (;;) {
        node.pid = SlapdTools::findSlapdWithConfig(node.conf());
        if (node.pid != 0 && SlapdTools::tcpConnects(node.port)
            && (node.tlsPort == 0 || SlapdTools::tcpConnects(node.tlsPort)) && QFileInfo::exists(node.socketPath()))
            return {};
        if (ctx && ctx->stopRequested())
            return ioError({}, ProbeError::Kind::Cancelled);
        if (ready.hasExpired())
            return node.pid == 0 ? ioError(QStringLiteral("slapd exited right after it started"))
                                 : ioError(QStringLiteral("slapd did not accept connections on port %1 within %2 s")
                                               .arg(node.port)
                                               .arg(kReadyTimeoutMs / 1000),
                                     ProbeError::Kind::Timeout);
        QThread::msleep(20);
    }
}

bool SlapdSteps::terminate(const QString& conf)
{
    for (qint64 pid = SlapdTools::findSlapdWithConfig(conf); pid != 0; pid = SlapdTools::findSlapdWithConfig(conf))
        if (!SlapdTools::terminate(pid, 10000))
            return false;
    return true;
}
