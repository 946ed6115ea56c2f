// Finding 389 sandboxes (by directory, by URI, orphans) and Ds389Guard.
#include "core/sandbox/ds389process.h"
#include "core/sandbox/ds389sandbox.h"
#include "core/sandbox/sandboxdir.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <utility>

namespace {

const QString kDirPrefix = QStringLiteral("dirbench-389ds-");

} // namespace

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

QStringList Ds389Sandbox::stopOrphans(const QString& parent)
{
    return SandboxDir::stopOrphans(parent, kDirPrefix, &Ds389Sandbox::load, &Ds389Sandbox::stop);
}

std::optional<SandboxInfo> Ds389Sandbox::findByUri(const QString& uri)
{
    const QUrl want(uri);
    if (want.scheme().compare(u"ldap", Qt::CaseInsensitive) != 0)
        return std::nullopt;
    for (const QString& conf : Ds389Process::runningConfigDirs()) {
        auto info = load(QFileInfo(conf).path());
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
