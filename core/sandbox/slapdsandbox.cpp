#include "core/sandbox/slapdsandbox.h"

#include "core/run/runcontext.h"
#include "core/sandbox/ldifgenerator.h"
#include "core/sandbox/sandboxdir.h"
#include "core/sandbox/slapdconfig.h"
#include "core/sandbox/slapdtools.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QThread>

#include <cerrno>
#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using SandboxDir::ioError;

constexpr int kReadyTimeoutMs = 15000;
constexpr int kSocketPathMax = 107; // sun_path minus the terminating NUL
const QString kDirPrefix = QStringLiteral("dirbench-sandbox-");

void setPhase(RunContext* ctx, const QString& phase, double progress)
{
    if (ctx) {
        ctx->setPhase(phase);
        ctx->setProgress(progress);
    }
}

// Whatever start() made so far; undone unless commit() is called.
struct Building
{
    QString dir;
    QString conf;
    ~Building()
    {
        if (dir.isEmpty())
            return;
        for (qint64 pid = SlapdTools::findSlapdWithConfig(conf); pid != 0; pid = SlapdTools::findSlapdWithConfig(conf))
            if (!SlapdTools::terminate(pid, 10000))
                break;
        QDir(dir).removeRecursively();
    }
    void commit() { dir.clear(); }
};

bool looksLikeSandbox(const QString& dir)
{
    return QFileInfo(dir).fileName().startsWith(kDirPrefix)
        && (QFileInfo::exists(dir + QStringLiteral("/slapd.conf"))
            || QFileInfo::exists(dir + QStringLiteral("/sandbox.json")));
}

// Write to a temporary name, then rename: readers never see half a file. No fsync (QSaveFile's): the files are
// throwaway, and an fsync right after slapadd waits for hundreds of MB of its pages to reach the disk.
bool writeReplacing(const QString& path, const QByteArray& data)
{
    const QString tmp = path + QStringLiteral(".tmp");
    QFile f(tmp);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size() || !f.flush()) {
        f.remove();
        return false;
    }
    f.close();
    return ::rename(QFile::encodeName(tmp).constData(), QFile::encodeName(path).constData()) == 0;
}

bool appendTo(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Append) && f.write(data) == data.size() && f.flush();
}

bool writeCurrent(const QString& dir)
{
    const QString file = SlapdSandbox::currentFile();
    const QString parent = QFileInfo(file).path();
    if (!QFileInfo::exists(parent) && ::mkdir(QFile::encodeName(parent).constData(), 0700) != 0
        && !QDir().mkpath(parent))
        return false;
    const QFileInfo p(parent);
    if (p.isSymLink() || !p.isDir() || p.ownerId() != ::geteuid())
        return false; // someone else's /tmp/dirbench-UID: do not write there
    return writeReplacing(file, QFile::encodeName(dir) + '\n');
}

} // namespace

QString SlapdSandbox::currentDir()
{
    QFile f(currentFile());
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QFile::decodeName(f.readAll().trimmed());
}

QString SlapdSandbox::slapdProgram()
{
    return SlapdTools::findProgram(QStringLiteral("slapd"));
}

QString SlapdSandbox::currentFile()
{
    const QByteArray xdg = qgetenv("XDG_RUNTIME_DIR");
    if (!xdg.isEmpty() && QFileInfo(QFile::decodeName(xdg)).isDir())
        return QFile::decodeName(xdg) + QStringLiteral("/dirbench/sandbox-current");
    return QStringLiteral("/tmp/dirbench-%1/sandbox-current").arg(::geteuid());
}

std::optional<SandboxInfo> SlapdSandbox::start(const SandboxOptions& opt, ProbeError* error, RunContext* ctx)
{
    QElapsedTimer total;
    total.start();
    ProbeError scratch;
    ProbeError& err = error ? *error : scratch;
    err = {};
    auto fail = [&err, ctx](const ProbeError& e) -> std::optional<SandboxInfo> {
        err = ctx && ctx->stopRequested() ? ioError({}, ProbeError::Kind::Cancelled) : e;
        return std::nullopt;
    };

    if (opt.entries < SandboxOptions::kMinEntries || opt.entries > SandboxOptions::kMaxEntries)
        return fail(ProbeError::invalid(QStringLiteral("entries"),
            QStringLiteral("must be between %1 and %2")
                .arg(SandboxOptions::kMinEntries)
                .arg(SandboxOptions::kMaxEntries)));
    if (opt.port < 0 || opt.port > 65535)
        return fail(ProbeError::invalid(QStringLiteral("port"), QStringLiteral("must be between 1 and 65535")));
    const QFileInfo parentInfo(opt.parentDir.isEmpty() ? QDir::tempPath() : opt.parentDir);
    if (!parentInfo.isDir())
        return fail(ProbeError::invalid(
            QStringLiteral("parentDir"), QStringLiteral("'%1' is not a directory").arg(parentInfo.filePath())));
    const QString parent = parentInfo.canonicalFilePath();
    if (!SlapdConfig::pathIsSafe(parent))
        return fail(ProbeError::invalid(QStringLiteral("parentDir"),
            QStringLiteral("'%1' contains a quote, backslash or control character").arg(parent)));

    const QString slapd = slapdProgram();
    const QString slapadd = SlapdTools::findProgram(QStringLiteral("slapadd"));
    const QString openssl = opt.tls ? SlapdTools::findProgram(QStringLiteral("openssl")) : QString();
    if (slapd.isEmpty() || slapadd.isEmpty())
        return fail(
            ioError(QStringLiteral("slapd/slapadd not found in PATH or /usr/sbin (install the slapd package)")));
    if (opt.tls && openssl.isEmpty())
        return fail(ioError(QStringLiteral("openssl not found in PATH (needed for --tls)")));
    const QString schemaDir = SlapdConfig::locateSchemaDir();
    if (schemaDir.isEmpty())
        return fail(ioError(QStringLiteral("OpenLDAP schema files (core.schema) not found in /etc/ldap/schema")));

    // back-mdb ~5.6 KB per entry, plus the LDIF (~1.1 KB per entry) while slapadd reads it.
    const qint64 need = qint64(opt.entries) * 7000 + (qint64(64) << 20);
    setPhase(ctx, QStringLiteral("preparing"), 0.0);
    ProbeError dirError;
    const QString made = SandboxDir::make(parent, kDirPrefix, need, opt.entries, &dirError);
    if (made.isEmpty())
        return fail(dirError);
    Building building;
    building.dir = made;
    const QString dir = building.dir;
    building.conf = dir + QStringLiteral("/slapd.conf");
    const QString socketPath = dir + QStringLiteral("/ldapi");
    if (QFile::encodeName(socketPath).size() > kSocketPathMax)
        return fail(ProbeError::invalid(QStringLiteral("parentDir"),
            QStringLiteral("'%1' is too long for the ldapi socket path (at most %2 bytes in all)")
                .arg(parent)
                .arg(kSocketPathMax)));
    if (!QDir(dir).mkdir(QStringLiteral("db")))
        return fail(ProbeError::fromErrno(errno, QStringLiteral("cannot create ") + dir + QStringLiteral("/db")));

    SandboxInfo info;
    info.dir = dir;
    info.entries = opt.entries;
    info.base = QLatin1String(LdifGenerator::kBase);
    info.peopleBase = QLatin1String(LdifGenerator::kPeopleBase);
    info.bindDn = QLatin1String(SlapdConfig::kAdminDn);
    info.passwordFile = dir + QStringLiteral("/password");
    info.ldapiUri = SlapdConfig::ldapiUri(socketPath);

    QByteArray password = SlapdConfig::randomPassword();
    const QByteArray hash = SlapdConfig::sshaHash(password);
    const bool pwOk = SlapdTools::writePrivateFile(info.passwordFile, password, &err);
    password.fill('\0');
    if (!pwOk)
        return fail(err);

    SlapdConfig::Params params;
    params.dir = dir;
    params.dbDir = dir + QStringLiteral("/db");
    params.schemaDir = schemaDir;
    params.moduleDir = SlapdConfig::locateModuleDir();
    params.rootPasswordHash = hash;
    params.mapSizeBytes = SlapdConfig::mapSizeFor(opt.entries);
    params.uid = ::geteuid();
    params.gid = ::getegid();
    if (opt.ppolicyLockout) {
        if (!params.moduleDir.isEmpty() && !SlapdConfig::hasModule(params.moduleDir, QStringLiteral("ppolicy")))
            return fail(ioError(QStringLiteral("the ppolicy overlay (ppolicy.so) is not in ") + params.moduleDir));
        params.ppolicyDefault = QLatin1String(LdifGenerator::kLockoutPolicyDn);
        info.policyDn = params.ppolicyDefault;
    }
    if (opt.tls) {
        setPhase(ctx, QStringLiteral("making a certificate"), 0.01);
        params.certFile = dir + QStringLiteral("/tls.crt");
        params.keyFile = dir + QStringLiteral("/tls.key");
        const SlapdTools::Result r = SlapdTools::run(openssl,
            { QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("30"), QStringLiteral("-subj"),
                QStringLiteral("/CN=localhost"), QStringLiteral("-addext"),
                QStringLiteral("subjectAltName=IP:127.0.0.1,DNS:localhost"), QStringLiteral("-keyout"), params.keyFile,
                QStringLiteral("-out"), params.certFile },
            60000, ctx);
        if (r.cancelled)
            return fail(ioError({}, ProbeError::Kind::Cancelled));
        if (!r.ok() || !QFileInfo::exists(params.certFile))
            return fail(ioError(SlapdTools::describe(QStringLiteral("openssl req"), r)));
        QFile::setPermissions(params.keyFile, QFile::ReadOwner | QFile::WriteOwner);
        info.caFile = params.certFile;
    }
    if (!SlapdTools::writePrivateFile(building.conf, SlapdConfig::text(params), &err))
        return fail(err);

    QElapsedTimer load;
    load.start();
    setPhase(ctx, QStringLiteral("generating entries"), 0.02);
    const QString ldif = dir + QStringLiteral("/data.ldif");
    if (!LdifGenerator::write(ldif, opt.entries, hash, &err, ctx, 0.02, 0.25))
        return fail(err);
    if (opt.ppolicyLockout && !appendTo(ldif, LdifGenerator::lockoutPolicy()))
        return fail(ProbeError::fromErrno(errno, QStringLiteral("cannot write ") + ldif));
    setPhase(ctx, QStringLiteral("loading entries (slapadd)"), 0.25);
    const SlapdTools::Result added = SlapdTools::run(slapadd,
        { QStringLiteral("-q"), QStringLiteral("-f"), building.conf, QStringLiteral("-b"), info.base,
            QStringLiteral("-l"), ldif },
        120000 + opt.entries * 2, ctx);
    QFile::remove(ldif);
    if (added.cancelled)
        return fail(ioError({}, ProbeError::Kind::Cancelled));
    if (!added.ok())
        return fail(ioError(SlapdTools::describe(QStringLiteral("slapadd"), added)));
    info.loadSeconds = double(load.nsecsElapsed()) / 1e9;

    setPhase(ctx, QStringLiteral("starting slapd"), 0.9);
    int port = 0, tlsPort = 0;
    for (int attempt = 0;; ++attempt) {
        QList<int> ports = SlapdTools::freePorts(opt.tls ? 2 : 1, &err);
        if (ports.isEmpty())
            return fail(err);
        port = opt.port != 0 ? opt.port : ports[0];
        tlsPort = opt.tls ? ports[1] : 0;
        if (tlsPort == port) // the given --port was the free one just picked
            continue;
        info.uri = QStringLiteral("ldap://127.0.0.1:%1/").arg(port);
        info.ldapsUri = opt.tls ? QStringLiteral("ldaps://127.0.0.1:%1/").arg(tlsPort) : QString();
        QStringList urls { info.uri, info.ldapiUri };
        if (opt.tls)
            urls << info.ldapsUri;
        const QStringList args { QStringLiteral("-f"), building.conf, QStringLiteral("-h"), urls.join(u' ') };
        const SlapdTools::Result r = SlapdTools::run(slapd, args, 30000, ctx);
        if (r.cancelled)
            return fail(ioError({}, ProbeError::Kind::Cancelled));
        if (!r.ok()) {
            const QString why = r.timedOut ? QString() : SlapdTools::diagnoseSlapd(slapd, args);
            if (why.contains(QLatin1String("Address already in use")) && opt.port == 0 && attempt < 2)
                continue; // another process took the free port in the meantime
            return fail(
                ioError(SlapdTools::describe(QStringLiteral("slapd"), r) + (why.isEmpty() ? QString() : u": " + why)));
        }
        break;
    }

    // slapd's parent returns once the daemon is initialised; wait for it to accept connections all the same.
    const QDeadlineTimer ready(kReadyTimeoutMs);
    for (;;) {
        info.pid = SlapdTools::findSlapdWithConfig(building.conf);
        if (info.pid != 0 && SlapdTools::tcpConnects(port) && (tlsPort == 0 || SlapdTools::tcpConnects(tlsPort))
            && QFileInfo::exists(socketPath))
            break;
        if (ctx && ctx->stopRequested())
            return fail(ioError({}, ProbeError::Kind::Cancelled));
        if (ready.hasExpired())
            return fail(ioError(info.pid == 0 ? QStringLiteral("slapd exited right after it started")
                                              : QStringLiteral("slapd did not accept connections on port %1 "
                                                               "within %2 s")
                                                    .arg(port)
                                                    .arg(kReadyTimeoutMs / 1000),
                info.pid == 0 ? ProbeError::Kind::Io : ProbeError::Kind::Timeout));
        QThread::msleep(20);
    }

    info.startSeconds = double(total.nsecsElapsed()) / 1e9;
    info.ownerPid = opt.ownerPid;
    if (!writeReplacing(dir + QStringLiteral("/sandbox.json"), QJsonDocument(info.toJson()).toJson()))
        return fail(
            ProbeError::fromErrno(errno, QStringLiteral("cannot write ") + dir + QStringLiteral("/sandbox.json")));
    if (opt.makeCurrent)
        writeCurrent(dir); // best effort: only `sandbox stop` without --dir needs it
    setPhase(ctx, QStringLiteral("running"), 1.0);
    building.commit();
    return info;
}

bool SlapdSandbox::stop(const SandboxInfo& info, ProbeError* error)
{
    const QString conf = info.dir + QStringLiteral("/slapd.conf");
    QList<qint64> pids;
    if (SlapdTools::processAlive(info.pid) && SlapdTools::isSlapdWithConfig(info.pid, conf))
        pids << info.pid;
    if (const qint64 other = SlapdTools::findSlapdWithConfig(conf); other != 0 && other != info.pid)
        pids << other;
    for (const qint64 pid : pids) {
        if (!SlapdTools::terminate(pid, 10000)) {
            if (error)
                *error = ioError(QStringLiteral("slapd (pid %1) did not stop").arg(pid));
            return false;
        }
    }
    if (QFileInfo::exists(info.dir)) {
        if (!looksLikeSandbox(info.dir)) {
            if (error)
                *error = ioError(QStringLiteral("%1 is not a sandbox directory; not removed").arg(info.dir));
            return false;
        }
        if (!QDir(info.dir).removeRecursively()) {
            if (error)
                *error = ioError(QStringLiteral("cannot remove %1").arg(info.dir));
            return false;
        }
    }
    if (currentDir() == info.dir)
        QFile::remove(currentFile());
    return true;
}

std::optional<SandboxInfo> SlapdSandbox::load(const QString& dir)
{
    QFile f(dir + QStringLiteral("/sandbox.json"));
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    return SandboxInfo::fromJson(QJsonDocument::fromJson(f.readAll()).object());
}

bool SlapdSandbox::isRunning(const SandboxInfo& info)
{
    return SlapdTools::processAlive(info.pid)
        && SlapdTools::isSlapdWithConfig(info.pid, info.dir + QStringLiteral("/slapd.conf"));
}

std::optional<SandboxInfo> SlapdSandbox::findRunning(const QString& dirOrEmpty)
{
    const QString dir = dirOrEmpty.isEmpty() ? currentDir() : QFileInfo(dirOrEmpty).absoluteFilePath();
    if (dir.isEmpty())
        return std::nullopt;
    if (QFileInfo::exists(dir + QStringLiteral("/sandbox.json"))) {
        auto info = load(dir);
        return info && isRunning(*info) ? info : std::nullopt;
    }
    std::optional<SandboxInfo> best;
    QDateTime bestTime;
    const QFileInfoList children
        = QDir(dir).entryInfoList({ kDirPrefix + u'*' }, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
    for (const QFileInfo& child : children) {
        auto info = load(child.filePath());
        const QDateTime t = QFileInfo(child.filePath() + QStringLiteral("/sandbox.json")).lastModified();
        if (info && isRunning(*info) && (!best || t > bestTime)) {
            best = info;
            bestTime = t;
        }
    }
    return best;
}

QStringList SlapdSandbox::stopOrphans(const QString& parentIn)
{
    const QString parent = parentIn.isEmpty() ? QDir::tempPath() : parentIn;
    QStringList stopped;
    const QStringList dirs = QDir(parent).entryList({ kDirPrefix + u'*' }, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& name : dirs) {
        const auto info = load(parent + u'/' + name);
        if (!info || info->ownerPid <= 0 || SlapdTools::processAlive(info->ownerPid))
            continue;
        ProbeError e;
        if (stop(*info, &e))
            stopped << info->dir;
    }
    return stopped;
}
