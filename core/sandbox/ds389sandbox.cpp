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
constexpr int kSocketPathMax = 107;
const QString kDirPrefix = QStringLiteral("dirbench-389ds-");

void setPhase(RunContext* ctx, const QString& phase, double progress)
{
    if (ctx) {
        ctx->setPhase(phase);
        ctx->setProgress(progress);
    }
}

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
    if (opt.cacheMemBytes < 0 || (opt.cacheMemBytes > 0 && opt.cacheMemBytes <= 512000))
        return fail(ProbeError::invalid(QStringLiteral("cacheMemBytes"),
            QStringLiteral("must be 0 (autosize) or more than 512000 bytes (389-ds ignores its minimum at startup)")));
    if (const QString why = unavailableReason(); !why.isEmpty())
        return fail(ioError(why));
    const QFileInfo parentInfo(opt.parentDir.isEmpty() ? QDir::tempPath() : opt.parentDir);
    if (!parentInfo.isDir())
        return fail(ProbeError::invalid(
            QStringLiteral("parentDir"), QStringLiteral("'%1' is not a directory").arg(parentInfo.filePath())));
    const QString parent = parentInfo.canonicalFilePath();
    if (!SlapdConfig::pathIsSafe(parent) || parent.contains(u'%'))
        return fail(ProbeError::invalid(QStringLiteral("parentDir"),
            QStringLiteral("'%1' contains a quote, backslash, percent sign or control character").arg(parent)));

    // BDB: about 4.3 KB per entry with the default indexes, the LDIF (1.1 KB per entry) while it is imported,
    // a 10 MB transaction log and the environment's region files.
    const qint64 need = qint64(opt.entries) * 9000 + (qint64(256) << 20);
    setPhase(ctx, QStringLiteral("preparing"), 0.0);
    ProbeError dirError;
    const QString made = SandboxDir::make(parent, kDirPrefix, need, opt.entries, &dirError);
    if (made.isEmpty())
        return fail(dirError);
    Building building;
    building.dir = made;
    const QString dir = building.dir;
    const QString conf = configDir(dir);
    const QString socketPath = dir + QStringLiteral("/ldapi");
    if (QFile::encodeName(socketPath).size() > kSocketPathMax)
        return fail(ProbeError::invalid(
            QStringLiteral("parentDir"), QStringLiteral("'%1' is too long for the ldapi socket path").arg(parent)));
    for (const char* sub : { "db", "ldif", "bak", "lock", "run", "log", "tmp", "inst" })
        if (!QDir(dir).mkdir(QLatin1String(sub)))
            return fail(ProbeError::fromErrno(errno, QStringLiteral("cannot create a directory in ") + dir));
    if (!QDir().mkpath(conf + QStringLiteral("/schema")))
        return fail(ProbeError::fromErrno(errno, QStringLiteral("cannot create ") + conf));
    // What dscreate copies from /etc/dirsrv: the (empty) user schema, the collation and certmap configuration.
    const QString sysconf = Ds389Config::sysconfConfigDir();
    for (const char* f : { "slapd-collations.conf", "certmap.conf" })
        if (!sysconf.isEmpty())
            QFile::copy(sysconf + u'/' + QLatin1String(f), conf + u'/' + QLatin1String(f));
    QFile::copy(QFileInfo(sysconf).path() + QStringLiteral("/schema/99user.ldif"),
        conf + QStringLiteral("/schema/99user.ldif"));

    SandboxInfo info;
    info.dir = dir;
    info.entries = opt.entries;
    info.base = QLatin1String(LdifGenerator::kBase);
    info.peopleBase = QLatin1String(LdifGenerator::kPeopleBase);
    info.bindDn = QLatin1String(Ds389Config::kRootDn);
    info.passwordFile = dir + QStringLiteral("/password");
    info.ldapiUri = SlapdConfig::ldapiUri(socketPath);
    QByteArray password = SlapdConfig::randomPassword();
    const QByteArray hash = SlapdConfig::sshaHash(password);
    const bool pwOk = SlapdTools::writePrivateFile(info.passwordFile, password, &err);
    password.fill('\0');
    if (!pwOk)
        return fail(err);

    QList<int> ports = SlapdTools::freePorts(1, &err);
    if (ports.isEmpty())
        return fail(err);
    Ds389Config::Params params;
    params.dir = dir;
    params.configDir = conf;
    params.ldapiPath = socketPath;
    params.user = userName();
    params.rootPasswordHash = hash;
    params.suffix = info.base;
    params.port = opt.port != 0 ? opt.port : ports[0];
    params.cacheMemBytes = Ds389Config::importCacheBytes(opt.entries); // set to opt.cacheMemBytes after the import
    params.autosizeOff = opt.cacheMemBytes > 0;
    const auto dse = Ds389Config::dseLdif(params, &err);
    if (!dse)
        return fail(err);
    if (!SlapdTools::writePrivateFile(conf + QStringLiteral("/dse.ldif"), *dse, &err))
        return fail(err);

    QElapsedTimer load;
    load.start();
    setPhase(ctx, QStringLiteral("generating entries"), 0.02);
    const QString ldif = dir + QStringLiteral("/ldif/data.ldif");
    if (!LdifGenerator::write(ldif, opt.entries, hash, &err, ctx, 0.02, 0.2))
        return fail(err);
    setPhase(ctx, QStringLiteral("loading entries (ns-slapd ldif2db)"), 0.2);
    const SlapdTools::Result imported = SlapdTools::run(program(),
        { QStringLiteral("ldif2db"), QStringLiteral("-D"), conf, QStringLiteral("-n"), QStringLiteral("userRoot"),
            QStringLiteral("-i"), ldif },
        300000 + opt.entries * 10, ctx);
    QFile::remove(ldif);
    if (imported.cancelled)
        return fail(ioError({}, ProbeError::Kind::Cancelled));
    if (!imported.ok())
        return fail(ioError(SlapdTools::describe(QStringLiteral("ns-slapd ldif2db"), imported) + QStringLiteral(": ")
            + Ds389Process::serverErrors(dir)));
    info.loadSeconds = double(load.nsecsElapsed()) / 1e9;
    if (opt.cacheMemBytes > 0
        && !Ds389Config::setValue(conf + QStringLiteral("/dse.ldif"), QStringLiteral("nsslapd-cachememsize"),
            QByteArray::number(opt.cacheMemBytes), &err))
        return fail(err);

    setPhase(ctx, QStringLiteral("starting ns-slapd"), 0.9);
    for (int attempt = 0;; ++attempt) {
        info.uri = QStringLiteral("ldap://127.0.0.1:%1/").arg(params.port);
        bool portTaken = false;
        info.pid = Ds389Process::launch(program(), dir, conf, params.port, kReadyTimeoutMs, &err, ctx, &portTaken);
        if (info.pid != 0)
            break;
        if (!portTaken || opt.port != 0 || attempt >= 2)
            return fail(err);
        ports = SlapdTools::freePorts(1, &err); // another process took the free port in the meantime
        if (ports.isEmpty())
            return fail(err);
        params.port = ports[0];
        if (!Ds389Config::setValue(conf + QStringLiteral("/dse.ldif"), QStringLiteral("nsslapd-port"),
                QByteArray::number(params.port), &err))
            return fail(err);
    }
    // The ACI goes on the suffix entry over LDAP (LdifGenerator writes the suffix without it).
    if (!addReadAci(info, &err))
        return fail(err);
    info.startSeconds = double(total.nsecsElapsed()) / 1e9;
    if (!writeInfo(info))
        return fail(
            ProbeError::fromErrno(errno, QStringLiteral("cannot write ") + dir + QStringLiteral("/sandbox.json")));
    setPhase(ctx, QStringLiteral("running"), 1.0);
    building.commit();
    return info;
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
