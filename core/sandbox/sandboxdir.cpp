#include "core/sandbox/sandboxdir.h"

#include "core/run/runcontext.h"
#include "core/sandbox/ldifgenerator.h"
#include "core/sandbox/slapdconfig.h"
#include "core/sandbox/slapdtools.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStorageInfo>
#include <QTemporaryDir>

#include <cerrno>
#include <cstdio>

namespace {

constexpr int kSocketPathMax = 107; // sun_path minus the terminating NUL

} // namespace

ProbeError SandboxDir::ioError(const QString& detail, ProbeError::Kind kind)
{
    ProbeError e;
    e.kind = kind;
    e.detail = detail;
    return e;
}

ProbeError SandboxDir::cancelledOr(RunContext* ctx, const ProbeError& e)
{
    return ctx && ctx->stopRequested() ? ioError({}, ProbeError::Kind::Cancelled) : e;
}

void SandboxDir::setPhase(RunContext* ctx, const QString& phase, double progress)
{
    if (ctx) {
        ctx->setPhase(phase);
        ctx->setProgress(progress);
    }
}

ProbeError SandboxDir::validate(int entries, int port, const QString& parentDir, bool noPercent, QString* parent)
{
    if (entries < SandboxOptions::kMinEntries || entries > SandboxOptions::kMaxEntries)
        return ProbeError::invalid(QStringLiteral("entries"),
            QStringLiteral("must be between %1 and %2")
                .arg(SandboxOptions::kMinEntries)
                .arg(SandboxOptions::kMaxEntries));
    if (port < 0 || port > 65535)
        return ProbeError::invalid(QStringLiteral("port"), QStringLiteral("must be between 1 and 65535"));
    const QFileInfo parentInfo(parentDir.isEmpty() ? QDir::tempPath() : parentDir);
    if (!parentInfo.isDir())
        return ProbeError::invalid(
            QStringLiteral("parentDir"), QStringLiteral("'%1' is not a directory").arg(parentInfo.filePath()));
    *parent = parentInfo.canonicalFilePath();
    if (!SlapdConfig::pathIsSafe(*parent) || (noPercent && parent->contains(u'%')))
        return ProbeError::invalid(QStringLiteral("parentDir"),
            QStringLiteral("'%1' contains a quote, backslash%2 or control character")
                .arg(*parent, noPercent ? QStringLiteral(", percent sign") : QString()));
    return {};
}

QString SandboxDir::make(const QString& parent, const QString& prefix, qint64 needBytes, int entries, ProbeError* error)
{
    const QStorageInfo storage(parent);
    if (storage.isValid() && storage.bytesAvailable() >= 0 && storage.bytesAvailable() < needBytes) {
        *error = ioError(QStringLiteral("%1 has %2 MB free; %3 entries need about %4 MB")
                             .arg(parent)
                             .arg(storage.bytesAvailable() / 1000000)
                             .arg(entries)
                             .arg(needBytes / 1000000),
            ProbeError::Kind::NoSpace);
        return {};
    }
    QTemporaryDir tmp(parent + u'/' + prefix + QStringLiteral("XXXXXX"));
    if (!tmp.isValid()) {
        *error = ioError(QStringLiteral("cannot create a directory in %1: %2").arg(parent, tmp.errorString()),
            ProbeError::Kind::Permission);
        return {};
    }
    tmp.setAutoRemove(false);
    return tmp.path();
}

ProbeError SandboxDir::makeSubdirs(const QString& dir, const QStringList& subdirs)
{
    for (const QString& sub : subdirs)
        if (!QDir().mkpath(dir + u'/' + sub))
            return ProbeError::fromErrno(errno, QStringLiteral("cannot create ") + dir + u'/' + sub);
    return {};
}

ProbeError SandboxDir::checkSocketPath(const QString& socketPath, const QString& parent)
{
    if (QFile::encodeName(socketPath).size() <= kSocketPathMax)
        return {};
    return ProbeError::invalid(QStringLiteral("parentDir"),
        QStringLiteral("'%1' is too long for the ldapi socket path (at most %2 bytes in all)")
            .arg(parent)
            .arg(kSocketPathMax));
}

ProbeError SandboxDir::identity(const QString& dir, int entries, const QString& bindDn, SandboxInfo* info,
    QByteArray* hash, const QByteArray& given)
{
    info->dir = dir;
    info->entries = entries;
    info->base = QLatin1String(LdifGenerator::kBase);
    info->peopleBase = QLatin1String(LdifGenerator::kPeopleBase);
    info->bindDn = bindDn;
    info->passwordFile = dir + QStringLiteral("/password");
    info->ldapiUri = SlapdConfig::ldapiUri(dir + QStringLiteral("/ldapi"));
    QByteArray password = given.isEmpty() ? SlapdConfig::randomPassword() : given;
    *hash = SlapdConfig::sshaHash(password);
    ProbeError err;
    const bool ok = SlapdTools::writePrivateFile(info->passwordFile, password, &err);
    password.fill('\0');
    return ok ? ProbeError {} : err;
}

bool SandboxDir::writeReplacing(const QString& path, const QByteArray& data)
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

QStringList SandboxDir::stopOrphans(const QString& parentIn, const QString& prefix, LoadSandbox load, StopSandbox stop)
{
    const QString parent = parentIn.isEmpty() ? QDir::tempPath() : parentIn;
    QStringList stopped;
    const QStringList dirs = QDir(parent).entryList({ prefix + u'*' }, QDir::Dirs | QDir::NoDotAndDotDot);
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
