#include "core/sandbox/ds389sandbox.h"

#include "core/ldap/ldapsession.h"
#include "core/run/runcontext.h"
#include "core/sandbox/ds389config.h"
#include "core/sandbox/ds389process.h"
#include "core/sandbox/ds389replication.h"
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
#include <QUrl>

#include <cerrno>
#include <pwd.h>
#include <unistd.h>

namespace {

using SandboxDir::ioError;

constexpr int kReadyTimeoutMs = 60000;
constexpr int kStopTimeoutMs = 30000;
const QString kDirPrefix = QStringLiteral("dirbench-389ds-");

bool looksLikeSandbox(const QString& dir)
{
    return QFileInfo(dir).fileName().startsWith(kDirPrefix)
        && (QFileInfo::exists(dir + QStringLiteral("/sandbox.json"))
            || QFileInfo::exists(Ds389Sandbox::configDir(dir) + QStringLiteral("/dse.ldif")));
}

bool writeInfo(const SandboxInfo& info)
{
    const QJsonObject o = info.toJson(); // with "server": "389ds"
    const QString path = info.dir + QStringLiteral("/sandbox.json");
    QFile f(path + QStringLiteral(".tmp"));
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(QJsonDocument(o).toJson()) < 0 || !f.flush())
        return false;
    f.close();
    return ::rename(QFile::encodeName(f.fileName()).constData(), QFile::encodeName(path).constData()) == 0;
}

QByteArray readPassword(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}

QString userName()
{
    const passwd* pw = ::getpwuid(::geteuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QString();
}

// 389-ds answers the modify before it updates its ACI cache (op_shared_modify calls plugin_call_acl_mods_update after
// the backend has sent the result), so a read just after it can still be refused. Nothing signals when it has
// taken effect: an anonymous read of the suffix entry is tried until it sees the entry, for at most 10 s.
bool aciInEffect(const SandboxInfo& info)
{
    constexpr int kWithinMs = 10000;
    constexpr int kRetryMs = 20;
    LdapTarget anonymous;
    anonymous.uri = info.uri;
    LdapSession s;
    if (s.open(anonymous).isError())
        return false;
    const QDeadlineTimer deadline(kWithinMs);
    for (;;) {
        QList<LdapSession::Entry> found;
        if (s.search(info.base, LdapSession::Base, QStringLiteral("(objectClass=*)"), { QStringLiteral("1.1") }, &found)
                .isError())
            return false;
        if (found.size() == 1)
            return true;
        if (deadline.hasExpired())
            return false;
        QThread::msleep(kRetryMs);
    }
}

bool addReadAci(const SandboxInfo& info, ProbeError* error)
{
    LdapTarget t;
    t.uri = info.uri;
    t.auth = LdapTarget::Auth::Simple;
    t.bindDn = info.bindDn;
    QFile pw(info.passwordFile);
    if (pw.open(QIODevice::ReadOnly))
        t.password = pw.readAll().trimmed();
    LdapSession s;
    ProbeError e = s.open(t);
    t.password.fill('\0');
    if (!e.isError())
        e = s.modifyReplace(info.base, QStringLiteral("aci"), { Ds389Config::readAci() });
    if (e.isError()) {
        *error
            = ioError(QStringLiteral("cannot add the read ACI to ") + info.base + QStringLiteral(": ") + e.message());
        return false;
    }
    if (!aciInEffect(info)) {
        *error = ioError(QStringLiteral("the read ACI on ") + info.base
            + QStringLiteral(" did not let an anonymous client read it within 10 s"));
        return false;
    }
    return true;
}

// The consumers of a replicated sandbox are 389 sandboxes inside its directory: stopped first. False if one would
// not stop.
bool stopConsumers(const QString& dir)
{
    bool ok = true;
    for (const QString& child : QDir(dir).entryList({ kDirPrefix + u'*' }, QDir::Dirs | QDir::NoDotAndDotDot))
        ok = Ds389Process::terminateAll(Ds389Sandbox::configDir(dir + u'/' + child), kStopTimeoutMs) && ok;
    return ok;
}

// Whatever start() made so far; undone unless commit() is called.
struct Building
{
    QString dir;
    ~Building()
    {
        if (dir.isEmpty())
            return;
        stopConsumers(dir);
        Ds389Process::terminateAll(Ds389Sandbox::configDir(dir), kStopTimeoutMs);
        QDir(dir).removeRecursively();
    }
    void commit() { dir.clear(); }
};

// One start() call: what the steps share.
struct Start
{
    const Ds389Options& opt;
    RunContext* ctx = nullptr;
    QString parent;
    Building building;
    SandboxInfo info;
    QByteArray hash;
    Ds389Config::Params params;
    int consumerPort = 0; // replicas: the consumer's, picked with the supplier's (its agreement names it)
};

ProbeError validate(Start& s)
{
    const Ds389Options& opt = s.opt;
    if (ProbeError e = SandboxDir::validate(opt.entries, opt.port, opt.parentDir, true, &s.parent); e.isError())
        return e;
    if (opt.cacheMemBytes < 0 || (opt.cacheMemBytes > 0 && opt.cacheMemBytes <= 512000))
        return ProbeError::invalid(QStringLiteral("cacheMemBytes"),
            QStringLiteral("must be 0 (autosize) or more than 512000 bytes (389-ds ignores its minimum at startup)"));
    if (opt.replicas < 0 || opt.replicas > 1)
        return ProbeError::invalid(QStringLiteral("replicas"), QStringLiteral("must be 0 or 1 with 389-ds"));
    if (const QString why = Ds389Sandbox::unavailableReason(); !why.isEmpty())
        return ioError(why);
    return {};
}

// Directories: DIR with room for the entries, its subdirectories, what dscreate copies from /etc/dirsrv (the
// empty user schema, the collation and certmap configuration); the password and what SandboxInfo says of them.
ProbeError makeDirectories(Start& s)
{
    // BDB: about 4.3 KB per entry with the default indexes, the LDIF (1.1 KB per entry) while it is imported,
    // a 10 MB transaction log and the environment's region files.
    const qint64 need = qint64(s.opt.entries) * 9000 + (qint64(256) << 20);
    SandboxDir::setPhase(s.ctx, QStringLiteral("preparing"), 0.0);
    ProbeError err;
    const QString dir = SandboxDir::make(s.parent, kDirPrefix, need, s.opt.entries, &err);
    if (dir.isEmpty())
        return err;
    s.building.dir = dir;
    const QString conf = Ds389Sandbox::configDir(dir);
    if (err = SandboxDir::checkSocketPath(dir + QStringLiteral("/ldapi"), s.parent); err.isError())
        return err;
    const QStringList subdirs { QStringLiteral("db"), QStringLiteral("ldif"), QStringLiteral("bak"),
        QStringLiteral("lock"), QStringLiteral("run"), QStringLiteral("log"), QStringLiteral("tmp"),
        QStringLiteral("inst"), QFileInfo(conf).fileName() + QStringLiteral("/schema") };
    if (err = SandboxDir::makeSubdirs(dir, subdirs); err.isError())
        return err;
    const QString sysconf = Ds389Config::sysconfConfigDir();
    for (const char* f : { "slapd-collations.conf", "certmap.conf" })
        if (!sysconf.isEmpty())
            QFile::copy(sysconf + u'/' + QLatin1String(f), conf + u'/' + QLatin1String(f));
    QFile::copy(QFileInfo(sysconf).path() + QStringLiteral("/schema/99user.ldif"),
        conf + QStringLiteral("/schema/99user.ldif"));
    return SandboxDir::identity(dir, s.opt.entries, QLatin1String(Ds389Config::kRootDn), &s.info, &s.hash,
        s.opt.passwordFrom.isEmpty() ? QByteArray() : readPassword(s.opt.passwordFrom));
}

// Configuration: dse.ldif from the package's templates, on a free port (or --port).
ProbeError configure(Start& s)
{
    ProbeError err;
    const QList<int> ports = SlapdTools::freePorts(2, &err);
    if (ports.isEmpty())
        return err;
    s.consumerPort = s.opt.replicas > 0 ? ports[1] : 0;
    if (s.consumerPort == s.opt.port && s.consumerPort != 0)
        return ioError(QStringLiteral("port %1 is wanted twice; try again").arg(s.consumerPort));
    Ds389Config::Params& params = s.params;
    params.dir = s.info.dir;
    params.configDir = Ds389Sandbox::configDir(s.info.dir);
    params.ldapiPath = s.info.dir + QStringLiteral("/ldapi");
    params.user = userName();
    params.rootPasswordHash = s.hash;
    params.suffix = s.info.base;
    params.port = s.opt.port != 0 ? s.opt.port : ports[0];
    params.cacheMemBytes = Ds389Config::importCacheBytes(s.opt.entries); // opt.cacheMemBytes after the import
    params.autosizeOff = s.opt.cacheMemBytes > 0;
    params.accessLog = s.opt.accessLog;
    const auto dse = Ds389Config::dseLdif(params, &err);
    if (!dse || !SlapdTools::writePrivateFile(params.configDir + QStringLiteral("/dse.ldif"), *dse, &err))
        return err;
    return {};
}

// Data: LdifGenerator's entries imported offline (ns-slapd ldif2db), then the entry cache set as asked.
ProbeError loadData(Start& s)
{
    QElapsedTimer load;
    load.start();
    SandboxDir::setPhase(s.ctx, QStringLiteral("generating entries"), 0.02);
    const QString ldif = s.info.dir + QStringLiteral("/ldif/data.ldif");
    ProbeError err;
    if (!LdifGenerator::write(ldif, s.opt.entries, s.hash, &err, s.ctx, 0.02, 0.2))
        return err;
    SandboxDir::setPhase(s.ctx, QStringLiteral("loading entries (ns-slapd ldif2db)"), 0.2);
    const SlapdTools::Result imported = SlapdTools::run(Ds389Sandbox::program(),
        { QStringLiteral("ldif2db"), QStringLiteral("-D"), s.params.configDir, QStringLiteral("-n"),
            QStringLiteral("userRoot"), QStringLiteral("-i"), ldif },
        300000 + s.opt.entries * 10, s.ctx);
    QFile::remove(ldif);
    if (imported.cancelled)
        return ioError({}, ProbeError::Kind::Cancelled);
    if (!imported.ok())
        return ioError(SlapdTools::describe(QStringLiteral("ns-slapd ldif2db"), imported) + QStringLiteral(": ")
            + Ds389Process::serverErrors(s.info.dir));
    s.info.loadSeconds = double(load.nsecsElapsed()) / 1e9;
    if (s.opt.cacheMemBytes > 0
        && !Ds389Config::setValue(s.params.configDir + QStringLiteral("/dse.ldif"),
            QStringLiteral("nsslapd-cachememsize"), QByteArray::number(s.opt.cacheMemBytes), &err))
        return err;
    return {};
}

// Process: ns-slapd started, on another free port when another process took this one meanwhile.
ProbeError startProcess(Start& s)
{
    SandboxDir::setPhase(s.ctx, QStringLiteral("starting ns-slapd"), 0.9);
    for (int attempt = 0;; ++attempt) {
        ProbeError err;
        s.info.uri = QStringLiteral("ldap://127.0.0.1:%1/").arg(s.params.port);
        bool portTaken = false;
        s.info.pid = Ds389Process::launch(Ds389Sandbox::program(), s.info.dir, s.params.configDir, s.params.port,
            kReadyTimeoutMs, &err, s.ctx, &portTaken);
        if (s.info.pid != 0)
            return {};
        if (!portTaken || s.opt.port != 0 || attempt >= 2)
            return err;
        const QList<int> ports = SlapdTools::freePorts(1, &err);
        if (ports.isEmpty())
            return err;
        s.params.port = ports[0];
        if (!Ds389Config::setValue(s.params.configDir + QStringLiteral("/dse.ldif"), QStringLiteral("nsslapd-port"),
                QByteArray::number(s.params.port), &err))
            return err;
    }
}

// The ACI goes on the suffix entry over LDAP (LdifGenerator writes the suffix without it).
ProbeError addAci(Start& s)
{
    if (s.opt.asConsumer)
        return {}; // a read-only replica: the ACI comes with the supplier's data
    ProbeError err;
    return addReadAci(s.info, &err) ? ProbeError {} : err;
}

// Replicas: a consumer (a 389 sandbox inside DIR, same password) initialised from this supplier.
ProbeError addConsumer(Start& s)
{
    if (s.opt.replicas == 0)
        return {};
    Ds389Options c;
    c.entries = 1;
    c.port = s.consumerPort;
    c.parentDir = s.info.dir;
    c.passwordFrom = s.info.passwordFile;
    c.asConsumer = true;
    ProbeError err;
    SandboxDir::setPhase(s.ctx, QStringLiteral("starting the consumer"), 0.92);
    const auto consumer = Ds389Sandbox::start(c, &err, s.ctx);
    if (!consumer)
        return err;
    s.info.topology = SandboxTopology::withReplicas(1).name();
    s.info.replicas << SandboxServer { QStringLiteral("consumer"), consumer->uri, QString(), consumer->dir,
        consumer->pid, Ds389Replication::kConsumerId };
    SandboxDir::setPhase(s.ctx, QStringLiteral("initialising the consumer (total init)"), 0.95);
    QByteArray password = readPassword(s.info.passwordFile);
    err = Ds389Replication::initialise(s.info, password, &s.info.initSeconds, s.ctx);
    password.fill('\0');
    return err;
}

// Replication entries in dse.ldif (offline, after the import): a supplier's replica and agreement, or a
// consumer's replica and replication manager.
ProbeError configureReplication(Start& s)
{
    const QString dse = s.params.configDir + QStringLiteral("/dse.ldif");
    if (s.opt.asConsumer)
        return Ds389Replication::appendTo(dse, Ds389Replication::consumerEntries(s.info.base, s.hash));
    if (s.opt.replicas == 0)
        return {};
    QByteArray password = readPassword(s.info.passwordFile);
    ProbeError e
        = Ds389Replication::appendTo(dse, Ds389Replication::supplierEntries(s.info.base, s.consumerPort, password));
    password.fill('\0');
    return e;
}

// sandbox.json.
ProbeError finish(Start& s, const QElapsedTimer& total)
{
    s.info.startSeconds = double(total.nsecsElapsed()) / 1e9;
    s.info.server = QStringLiteral("389ds");
    s.info.ownerPid = s.opt.ownerPid;
    if (!writeInfo(s.info))
        return ProbeError::fromErrno(
            errno, QStringLiteral("cannot write ") + s.info.dir + QStringLiteral("/sandbox.json"));
    SandboxDir::setPhase(s.ctx, QStringLiteral("running"), 1.0);
    return {};
}

ProbeError runSteps(Start& s, const QElapsedTimer& total)
{
    ProbeError e;
    for (auto step : { &validate, &makeDirectories, &configure, &loadData, &configureReplication, &startProcess,
             &addAci, &addConsumer })
        if (!e.isError())
            e = step(s);
    return e.isError() ? e : finish(s, total);
}

} // namespace

QString Ds389Sandbox::program()
{
    return SlapdTools::findProgram(QStringLiteral("ns-slapd"));
}

QString Ds389Sandbox::unavailableReason()
{
    if (program().isEmpty())
        return QStringLiteral("ns-slapd not found (apt-get install 389-ds-base)");
    if (Ds389Config::dataDir().isEmpty())
        return QStringLiteral("/usr/share/dirsrv/data/template-dse.ldif not found (apt-get install 389-ds-base)");
    if (userName().isEmpty())
        return QStringLiteral("the current user has no name in the password database (ns-slapd needs one)");
    return {};
}

QString Ds389Sandbox::configDir(const QString& dir)
{
    return dir + QStringLiteral("/slapd-") + QFileInfo(dir).fileName();
}

QString Ds389Sandbox::accessLogPath(const QString& dir)
{
    return dir + QStringLiteral("/log/access");
}

std::optional<SandboxInfo> Ds389Sandbox::start(const Ds389Options& opt, ProbeError* error, RunContext* ctx)
{
    QElapsedTimer total;
    total.start();
    Start s { opt, ctx, {}, {}, {}, {}, {} };
    const ProbeError e = SandboxDir::cancelledOr(ctx, runSteps(s, total));
    if (error)
        *error = e;
    if (e.isError())
        return std::nullopt;
    s.building.commit();
    return s.info;
}

bool Ds389Sandbox::stop(const SandboxInfo& info, ProbeError* error)
{
    if (info.dir.isEmpty() || !looksLikeSandbox(info.dir)) {
        if (error)
            *error = ioError(QStringLiteral("%1 is not a 389-ds sandbox directory; nothing stopped").arg(info.dir));
        return false;
    }
    if (!stopConsumers(info.dir) || !Ds389Process::terminateAll(configDir(info.dir), kStopTimeoutMs)) {
        if (error)
            *error = ioError(QStringLiteral("ns-slapd of %1 did not stop").arg(info.dir));
        return false;
    }
    if (!QDir(info.dir).removeRecursively()) {
        if (error)
            *error = ioError(QStringLiteral("cannot remove %1").arg(info.dir));
        return false;
    }
    return true;
}

bool Ds389Sandbox::restart(SandboxInfo& info, ProbeError* error, RunContext* ctx)
{
    ProbeError scratch;
    ProbeError& err = error ? *error : scratch;
    if (!looksLikeSandbox(info.dir)) {
        err = ioError(QStringLiteral("%1 is not a 389-ds sandbox directory").arg(info.dir));
        return false;
    }
    if (!Ds389Process::terminateAll(configDir(info.dir), kStopTimeoutMs)) {
        err = ioError(QStringLiteral("ns-slapd of %1 did not stop").arg(info.dir));
        return false;
    }
    const qint64 pid = Ds389Process::launch(
        program(), info.dir, configDir(info.dir), QUrl(info.uri).port(), kReadyTimeoutMs, &err, ctx);
    if (pid == 0)
        return false;
    info.pid = pid;
    writeInfo(info);
    return true;
}
