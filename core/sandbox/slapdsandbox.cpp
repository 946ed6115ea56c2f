#include "core/sandbox/slapdsandbox.h"

#include "core/run/runcontext.h"
#include "core/sandbox/ldifgenerator.h"
#include "core/sandbox/sandboxdir.h"
#include "core/sandbox/slapdconfig.h"
#include "core/sandbox/slapdnode.h"
#include "core/sandbox/slapdtools.h"
#include "core/sandbox/slapdtopology.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <cerrno>
#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace {

using SandboxDir::ioError;

const QString kDirPrefix = QStringLiteral("dirbench-sandbox-");

// Whatever start() made so far; undone unless commit() is called.
struct Building
{
    QString dir;
    QStringList confs; // every slapd.conf a server was started with
    ~Building()
    {
        if (dir.isEmpty())
            return;
        for (const QString& conf : std::as_const(confs))
            SlapdSteps::terminate(conf);
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
    return SandboxDir::writeReplacing(file, QFile::encodeName(dir) + '\n');
}

// One start() call: what the steps share.
struct Start
{
    const SandboxOptions& opt;
    RunContext* ctx = nullptr;
    QString parent;
    SlapdSteps::Programs programs;
    Building building;
    SandboxInfo info;
    QByteArray hash;
    SlapdNode node; // the first server (the provider)
    QList<SlapdNode> others; // the topology's other servers

    bool replicated() const { return opt.topology.kind != SandboxTopology::Kind::Single; }
};

ProbeError validateTopology(const SandboxOptions& opt)
{
    const SandboxTopology& t = opt.topology;
    if (t.kind == SandboxTopology::Kind::Single)
        return {};
    if (t.kind == SandboxTopology::Kind::Replicas && (t.replicas < 1 || t.replicas > SandboxTopology::kMaxReplicas))
        return ProbeError::invalid(
            QStringLiteral("replicas"), QStringLiteral("must be between 1 and %1").arg(SandboxTopology::kMaxReplicas));
    if (opt.tls || opt.ppolicyLockout || opt.accessLog)
        return ProbeError::invalid(opt.tls ? QStringLiteral("tls")
                : opt.accessLog            ? QStringLiteral("access-log")
                                           : QStringLiteral("ppolicy-lockout"),
            QStringLiteral("not with replicas or a mirror"));
    if (!SlapdConfig::hasModule(SlapdConfig::locateModuleDir(), QStringLiteral("syncprov")))
        return ioError(QStringLiteral("the syncprov overlay (syncprov.so) is not installed"));
    return {};
}

// Configuration of a topology: every server's port picked first (each names the other in syncrepl).
ProbeError configureTopology(Start& s)
{
    s.node.port = s.opt.port;
    if (ProbeError e = SlapdTopology::pickPorts(s.node, s.others); e.isError())
        return e;
    QFile pw(s.info.passwordFile);
    if (!pw.open(QIODevice::ReadOnly))
        return ProbeError::fromErrno(errno, QStringLiteral("cannot read ") + s.info.passwordFile);
    QByteArray password = pw.readAll();
    SlapdTopology::configure(s.opt.topology, s.node, s.others, password);
    password.fill('\0');
    for (const SlapdNode& n : std::as_const(s.others)) {
        s.building.confs << n.conf();
        if (ProbeError e = SlapdSteps::writeConfig(n); e.isError())
            return e;
    }
    return {};
}

// Process of a topology: the provider on its port (no second try: the others name it), then the others.
ProbeError startTopology(Start& s)
{
    bool portTaken = false;
    ProbeError e = SlapdSteps::launch(s.node, s.programs.slapd, s.ctx, &portTaken);
    if (!e.isError())
        e = SlapdSteps::waitReady(s.node, s.ctx);
    s.info.uri = s.node.uri();
    s.info.pid = s.node.pid;
    s.info.topology = s.opt.topology.name();
    if (!e.isError())
        e = SlapdTopology::start(s.others, s.opt.topology, s.programs.slapd, s.ctx, &s.info.replicas);
    return e;
}

// Directories: DIR (with room for the entries), DIR/db; the password and what SandboxInfo says of them.
ProbeError makeDirectories(Start& s)
{
    // back-mdb ~5.6 KB per entry, plus the LDIF (~1.1 KB per entry) while slapadd reads it.
    const qint64 need = qint64(s.opt.entries) * 7000 + (qint64(64) << 20);
    SandboxDir::setPhase(s.ctx, QStringLiteral("preparing"), 0.0);
    ProbeError err;
    s.building.dir = SandboxDir::make(s.parent, kDirPrefix, need, s.opt.entries, &err);
    if (s.building.dir.isEmpty())
        return err;
    s.node.dir = s.building.dir;
    s.building.confs << s.node.conf();
    if (err = SlapdSteps::directories(s.node, s.parent); err.isError())
        return err;
    if (s.replicated() && (err = SlapdTopology::makeNodes(s.opt.topology, s.node.dir, &s.others)).isError())
        return err;
    return SandboxDir::identity(s.node.dir, s.opt.entries, QLatin1String(SlapdConfig::kAdminDn), &s.info, &s.hash);
}

// Configuration: slapd.conf, with the ppolicy overlay and TLS when asked for.
ProbeError configure(Start& s)
{
    SlapdSteps::baseParams(s.node, s.programs, s.hash, s.opt.entries);
    SlapdConfig::Params& params = s.node.params;
    if (s.opt.ppolicyLockout) {
        if (!params.moduleDir.isEmpty() && !SlapdConfig::hasModule(params.moduleDir, QStringLiteral("ppolicy")))
            return ioError(QStringLiteral("the ppolicy overlay (ppolicy.so) is not in ") + params.moduleDir);
        params.ppolicyDefault = QLatin1String(LdifGenerator::kLockoutPolicyDn);
        s.info.policyDn = params.ppolicyDefault;
    }
    if (s.opt.tls) {
        SandboxDir::setPhase(s.ctx, QStringLiteral("making a certificate"), 0.01);
        if (ProbeError e = SlapdSteps::makeCertificate(s.node, s.programs.openssl, s.ctx); e.isError())
            return e;
        s.info.caFile = params.certFile;
    }
    if (s.replicated())
        if (ProbeError e = configureTopology(s); e.isError())
            return e;
    return SlapdSteps::writeConfig(s.node);
}

ProbeError loadData(Start& s)
{
    QElapsedTimer load;
    load.start();
    const QStringList args = s.replicated() ? SlapdTopology::slapaddArgs(s.opt.topology) : QStringList();
    ProbeError e
        = SlapdSteps::loadData(s.node, s.programs.slapadd, s.opt.entries, s.hash, s.opt.ppolicyLockout, args, s.ctx);
    if (!e.isError() && s.replicated())
        e = SlapdTopology::copyData(s.node, s.others);
    s.info.loadSeconds = double(load.nsecsElapsed()) / 1e9;
    return e;
}

// Process: slapd on free ports (or --port), tried again when another process takes a free port meanwhile.
ProbeError startProcess(Start& s)
{
    SandboxDir::setPhase(s.ctx, QStringLiteral("starting slapd"), 0.9);
    if (s.replicated())
        return startTopology(s);
    for (int attempt = 0;; ++attempt) {
        ProbeError err;
        const QList<int> ports = SlapdTools::freePorts(s.opt.tls ? 2 : 1, &err);
        if (ports.isEmpty())
            return err;
        s.node.port = s.opt.port != 0 ? s.opt.port : ports[0];
        s.node.tlsPort = s.opt.tls ? ports[1] : 0;
        if (s.node.tlsPort == s.node.port) // the given --port was the free one just picked
            continue;
        s.node.extraUrls = s.opt.extraListenUris;
        if (s.opt.accessLog)
            s.node.statsLog = SlapdSandbox::accessLogPath(s.node.dir);
        bool portTaken = false;
        err = SlapdSteps::launch(s.node, s.programs.slapd, s.ctx, &portTaken);
        if (err.isError() && portTaken && s.opt.port == 0 && attempt < 2)
            continue;
        if (err.isError())
            return err;
        s.info.uri = s.node.uri();
        s.info.ldapsUri = s.node.ldapsUri();
        err = SlapdSteps::waitReady(s.node, s.ctx);
        s.info.pid = s.node.pid;
        return err;
    }
}

ProbeError finish(Start& s, const QElapsedTimer& total)
{
    s.info.startSeconds = double(total.nsecsElapsed()) / 1e9;
    s.info.ownerPid = s.opt.ownerPid;
    const QString json = s.info.dir + QStringLiteral("/sandbox.json");
    if (!SandboxDir::writeReplacing(json, QJsonDocument(s.info.toJson()).toJson()))
        return ProbeError::fromErrno(errno, QStringLiteral("cannot write ") + json);
    if (s.opt.makeCurrent)
        writeCurrent(s.info.dir); // best effort: only `sandbox stop` without --dir needs it
    SandboxDir::setPhase(s.ctx, QStringLiteral("running"), 1.0);
    return {};
}

ProbeError runSteps(Start& s, const QElapsedTimer& total)
{
    ProbeError e = SandboxDir::validate(s.opt.entries, s.opt.port, s.opt.parentDir, false, &s.parent);
    if (!e.isError())
        e = validateTopology(s.opt);
    if (!e.isError())
        e = SlapdSteps::findPrograms(s.opt.tls, &s.programs);
    for (auto step : { &makeDirectories, &configure, &loadData, &startProcess })
        if (!e.isError())
            e = step(s);
    return e.isError() ? e : finish(s, total);
}

// Stops the sandbox's slapd (its pid, and any slapd with its slapd.conf), then those of its other servers
// (DIR/replicaK/slapd.conf); the pid of one that would not stop, else 0.
qint64 stopServers(const SandboxInfo& info)
{
    const QString conf = info.dir + QStringLiteral("/slapd.conf");
    if (SlapdTools::processAlive(info.pid) && SlapdTools::isSlapdWithConfig(info.pid, conf)
        && !SlapdTools::terminate(info.pid, 10000))
        return info.pid;
    QStringList confs { conf };
    const QStringList replicas
        = QDir(info.dir).entryList({ QStringLiteral("replica*") }, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& r : replicas)
        confs << info.dir + u'/' + r + QStringLiteral("/slapd.conf");
    for (const QString& c : std::as_const(confs))
        if (!SlapdSteps::terminate(c))
            return SlapdTools::findSlapdWithConfig(c);
    return 0;
}

} // namespace

QString SlapdSandbox::currentDir()
{
    QFile f(currentFile());
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QFile::decodeName(f.readAll().trimmed());
}

QString SlapdSandbox::accessLogPath(const QString& dir)
{
    return dir + QStringLiteral("/slapd-stats.log");
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
    Start s { opt, ctx, {}, {}, {}, {}, {}, {}, {} };
    const ProbeError e = SandboxDir::cancelledOr(ctx, runSteps(s, total));
    if (error)
        *error = e;
    if (e.isError())
        return std::nullopt;
    s.building.commit();
    return s.info;
}

bool SlapdSandbox::stop(const SandboxInfo& info, ProbeError* error)
{
    if (const qint64 pid = stopServers(info); pid != 0) {
        if (error)
            *error = ioError(QStringLiteral("slapd (pid %1) did not stop").arg(pid));
        return false;
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

QStringList SlapdSandbox::stopOrphans(const QString& parent)
{
    return SandboxDir::stopOrphans(parent, kDirPrefix, &SlapdSandbox::load, &SlapdSandbox::stop);
}
