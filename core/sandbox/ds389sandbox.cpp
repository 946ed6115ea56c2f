#include "core/sandbox/ds389sandbox.h"

#include "core/ldap/ldapsession.h"
#include "core/run/runcontext.h"
#include "core/sandbox/ds389config.h"
#include "core/sandbox/ds389process.h"
#include "core/sandbox/ldifgenerator.h"
#include "core/sandbox/sandboxdir.h"
#include "core/sandbox/slapdconfig.h"
#include "core/sandbox/slapdtools.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
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
    QJsonObject o = info.toJson();
    o.insert(QStringLiteral("server"), QStringLiteral("389ds"));
    const QString path = info.dir + QStringLiteral("/sandbox.json");
    QFile f(path + QStringLiteral(".tmp"));
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(QJsonDocument(o).toJson()) < 0 || !f.flush())
        return false;
    f.close();
    return ::rename(QFile::encodeName(f.fileName()).constData(), QFile::encodeName(path).constData()) == 0;
}

QString userName()
{
    const passwd* pw = ::getpwuid(::geteuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QString();
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
    return true;
}

// Whatever start() made so far; undone unless commit() is called.
struct Building
{
    QString dir;
    ~Building()
    {
        if (dir.isEmpty())
            return;
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
};

ProbeError validate(Start& s)
{
    const Ds389Options& opt = s.opt;
    if (ProbeError e = SandboxDir::validate(opt.entries, opt.port, opt.parentDir, true, &s.parent); e.isError())
        return e;
    if (opt.cacheMemBytes < 0 || (opt.cacheMemBytes > 0 && opt.cacheMemBytes <= 512000))
        return ProbeError::invalid(QStringLiteral("cacheMemBytes"),
            QStringLiteral("must be 0 (autosize) or more than 512000 bytes (389-ds ignores its minimum at startup)"));
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
    return SandboxDir::identity(dir, s.opt.entries, QLatin1String(Ds389Config::kRootDn), &s.info, &s.hash);
}

// Configuration: dse.ldif from the package's templates, on a free port (or --port).
ProbeError configure(Start& s)
{
    ProbeError err;
    const QList<int> ports = SlapdTools::freePorts(1, &err);
    if (ports.isEmpty())
        return err;
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

// The ACI goes on the suffix entry over LDAP (LdifGenerator writes the suffix without it); then sandbox.json.
ProbeError finish(Start& s, const QElapsedTimer& total)
{
    ProbeError err;
    if (!addReadAci(s.info, &err))
        return err;
    s.info.startSeconds = double(total.nsecsElapsed()) / 1e9;
    if (!writeInfo(s.info))
        return ProbeError::fromErrno(
            errno, QStringLiteral("cannot write ") + s.info.dir + QStringLiteral("/sandbox.json"));
    SandboxDir::setPhase(s.ctx, QStringLiteral("running"), 1.0);
    return {};
}

ProbeError runSteps(Start& s, const QElapsedTimer& total)
{
    ProbeError e;
    for (auto step : { &validate, &makeDirectories, &configure, &loadData, &startProcess })
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
    if (!Ds389Process::terminateAll(configDir(info.dir), kStopTimeoutMs)) {
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

std::optional<SandboxInfo> Ds389Sandbox::load(const QString& dir)
{
    QFile f(dir + QStringLiteral("/sandbox.json"));
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    if (o.value(QStringLiteral("server")).toString() != u"389ds")
        return std::nullopt;
    return SandboxInfo::fromJson(o);
}

bool Ds389Sandbox::isRunning(const SandboxInfo& info)
{
    return Ds389Process::isServer(info.pid, configDir(info.dir));
}

std::optional<SandboxInfo> Ds389Sandbox::findRunning(const QString& dirIn)
{
    const QString dir = QFileInfo(dirIn).absoluteFilePath();
    if (QFileInfo::exists(dir + QStringLiteral("/sandbox.json"))) {
        auto info = load(dir);
        return info && isRunning(*info) ? info : std::nullopt;
    }
    for (const QFileInfo& child :
        QDir(dir).entryInfoList({ kDirPrefix + u'*' }, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time)) {
        auto info = load(child.filePath());
        if (info && isRunning(*info))
            return info; // newest first
    }
    return std::nullopt;
}

std::optional<SandboxInfo> Ds389Sandbox::findByUri(const QString& uri)
{
    const QUrl want(uri);
    if (want.scheme().compare(u"ldap", Qt::CaseInsensitive) != 0)
        return std::nullopt;
    for (const QString& conf : Ds389Process::runningConfigDirs()) {
        const auto info = load(QFileInfo(conf).path());
        if (!info || !isRunning(*info))
            continue;
        const QUrl have(info->uri);
        const bool sameHost
            = have.host() == want.host() || (want.host() == u"localhost" && have.host() == u"127.0.0.1");
        if (sameHost && have.port() == want.port())
            return info;
    }
    return std::nullopt;
}

Ds389Guard::Ds389Guard(std::optional<SandboxInfo> info)
    : m_info(std::move(info))
{ }

Ds389Guard::~Ds389Guard()
{
    reset();
}

bool Ds389Guard::reset(std::optional<SandboxInfo> info)
{
    bool ok = true;
    if (m_info) {
        ProbeError e;
        ok = Ds389Sandbox::stop(*m_info, &e);
    }
    m_info = std::move(info);
    return ok;
}
