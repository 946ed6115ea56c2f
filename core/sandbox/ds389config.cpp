#include "core/sandbox/ds389config.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cerrno>

namespace Ds389Config {

const char* const kRootDn = "cn=Directory Manager";

namespace {

std::optional<QByteArray> readFile(const QString& path, ProbeError* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) {
            error->kind = ProbeError::Kind::Io;
            error->detail = QStringLiteral("cannot read %1 (is 389-ds-base installed?)").arg(path);
        }
        return std::nullopt;
    }
    return f.readAll();
}

} // namespace

QString dataDir()
{
    for (const char* d : { "/usr/share/dirsrv", "/usr/local/share/dirsrv" })
        if (QFileInfo::exists(QLatin1String(d) + QStringLiteral("/data/template-dse.ldif")))
            return QLatin1String(d);
    return {};
}

QString sysconfConfigDir()
{
    for (const char* d : { "/etc/dirsrv/config", "/usr/local/etc/dirsrv/config" })
        if (QFileInfo(QLatin1String(d)).isDir())
            return QLatin1String(d);
    return {};
}

std::optional<QByteArray> fillTemplate(
    const QByteArray& text, const QList<QPair<QByteArray, QByteArray>>& values, QByteArray* unknown)
{
    static const QRegularExpression placeholder(QStringLiteral("%([a-z_]+)%"));
    QByteArray out;
    out.reserve(text.size() + 1024);
    bool lastBlank = true; // no blank line at the start
    for (const QByteArray& raw : text.split('\n')) {
        QByteArray line = raw;
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.startsWith('#'))
            continue;
        if (line.trimmed().isEmpty()) {
            if (!lastBlank)
                out.append('\n');
            lastBlank = true;
            continue;
        }
        const QString s = QString::fromUtf8(line);
        QString filled;
        qsizetype from = 0;
        for (auto it = placeholder.globalMatch(s); it.hasNext();) {
            const auto m = it.next();
            const QByteArray key = m.captured(1).toUtf8();
            auto found = std::find_if(values.begin(), values.end(), [&](const auto& kv) { return kv.first == key; });
            if (found == values.end()) {
                if (unknown)
                    *unknown = key;
                return std::nullopt;
            }
            filled += s.mid(from, m.capturedStart() - from) + QString::fromUtf8(found->second);
            from = m.capturedEnd();
        }
        filled += s.mid(from);
        out.append(filled.toUtf8()).append('\n');
        lastBlank = false;
    }
    if (!lastBlank)
        out.append('\n');
    return out;
}

bool addToEntry(QByteArray& ldif, const QByteArray& dn, const QByteArray& lines)
{
    const QByteArray want = "dn: " + dn.toLower() + '\n';
    qsizetype pos = 0;
    while (pos < ldif.size()) {
        qsizetype end = ldif.indexOf("\n\n", pos);
        if (end < 0)
            end = ldif.size();
        const qsizetype lineEnd = ldif.indexOf('\n', pos);
        if (ldif.mid(pos, lineEnd - pos + 1).toLower() == want) {
            QByteArray add = lines;
            if (!add.endsWith('\n'))
                add.append('\n');
            ldif.insert(end == ldif.size() ? end : end + 1, add);
            return true;
        }
        pos = end + 2;
    }
    return false;
}

std::optional<QByteArray> dseLdif(const Params& p, ProbeError* error)
{
    const QString data = dataDir();
    if (data.isEmpty()) {
        if (error) {
            error->kind = ProbeError::Kind::Io;
            error->detail = QStringLiteral(
                "the 389-ds templates (/usr/share/dirsrv/data/template-dse.ldif) are missing: install 389-ds-base");
        }
        return std::nullopt;
    }
    const auto dse = readFile(data + QStringLiteral("/data/template-dse.ldif"), error);
    const auto suffixDb = dse ? readFile(data + QStringLiteral("/data/template-suffix-db.ldif"), error) : std::nullopt;
    if (!dse || !suffixDb)
        return std::nullopt;

    auto b = [](const QString& s) { return s.toUtf8(); };
    const QList<QPair<QByteArray, QByteArray>> values {
        { "schema_dir", b(p.configDir + QStringLiteral("/schema")) }, // ns-slapd looks there whatever is set
        { "lock_dir", b(p.dir + QStringLiteral("/lock")) },
        { "tmp_dir", b(p.dir + QStringLiteral("/tmp")) },
        { "cert_dir", b(p.configDir) },
        { "ldif_dir", b(p.dir + QStringLiteral("/ldif")) },
        { "bak_dir", b(p.dir + QStringLiteral("/bak")) },
        { "run_dir", b(p.dir + QStringLiteral("/run")) },
        { "inst_dir", b(p.dir + QStringLiteral("/inst")) },
        { "log_dir", b(p.dir + QStringLiteral("/log")) },
        { "fqdn", "localhost" },
        { "ds_port", QByteArray::number(p.port) },
        { "ds_user", b(p.user) },
        { "rootdn", kRootDn },
        { "ds_passwd", p.rootPasswordHash },
        { "ldapi_enabled", "on" },
        { "ldapi", b(p.ldapiPath) },
        { "ldapi_autobind", "on" },
        { "ds_suffix", b(p.suffix) },
        { "config_dir", b(p.configDir) },
        { "db_dir", b(p.dir + QStringLiteral("/db")) },
        { "db_home_dir", b(p.dir + QStringLiteral("/db")) }, // not /dev/shm: nothing outside DIR
        { "db_lib", "bdb" }, // 2.3's default; the curve in the reference was measured on it
        { "ds_bename", b(p.backend) },
    };
    QByteArray unknown;
    auto text = fillTemplate(*dse, values, &unknown);
    auto backend = text ? fillTemplate(*suffixDb, values, &unknown) : std::nullopt;
    if (!text || !backend) {
        if (error) {
            error->kind = ProbeError::Kind::Io;
            error->detail = QStringLiteral("the 389-ds template has a placeholder this DirBench does not know: %%1%")
                                .arg(QString::fromUtf8(unknown));
        }
        return std::nullopt;
    }
    QByteArray& out = *text;
    bool ok = addToEntry(out, "cn=config",
        QByteArray("nsslapd-listenhost: 127.0.0.1\n")
            + (p.accessLog ? "nsslapd-accesslog-logging-enabled: on\nnsslapd-accesslog-logbuffering: off\n"
                           : "nsslapd-accesslog-logging-enabled: off\n")
            + "nsslapd-enable-upgrade-hash: off\n");
    if (p.autosizeOff)
        ok = ok && addToEntry(out, "cn=config,cn=ldbm database,cn=plugins,cn=config", "nsslapd-cache-autosize: 0\n");
    ok = ok
        && addToEntry(*backend, "cn=" + b(p.backend) + ",cn=ldbm database,cn=plugins,cn=config",
            "nsslapd-cachememsize: " + QByteArray::number(std::max<qint64>(p.cacheMemBytes, 512001))
                + "\nnsslapd-cachesize: -1\n");
    if (!ok) {
        if (error) {
            error->kind = ProbeError::Kind::Io;
            error->detail = QStringLiteral("the 389-ds template lacks the cn=config or backend entry");
        }
        return std::nullopt;
    }
    out.append(*backend);
    return out;
}

QByteArray readAci()
{
    return "(targetattr!=\"userPassword\")(version 3.0; acl \"DirBench sandbox: anyone reads\"; "
           "allow (read,search,compare) userdn=\"ldap:///anyone\";)";
}

qint64 importCacheBytes(qint64 entries)
{
    return std::clamp<qint64>(entries * 12000, qint64(64) << 20, qint64(2) << 30);
}

bool setValue(const QString& dseFile, const QString& attr, const QByteArray& value, ProbeError* error)
{
    QFile f(dseFile);
    QByteArray text;
    if (f.open(QIODevice::ReadOnly))
        text = f.readAll();
    f.close();
    // The one line "attr: ..." (the name in any case) gets the new value.
    QList<QByteArray> lines = text.split('\n');
    const QByteArray prefix = attr.toUtf8().toLower() + ':';
    qsizetype found = -1, count = 0;
    for (qsizetype i = 0; i < lines.size(); ++i)
        if (lines.at(i).toLower().startsWith(prefix)) {
            found = i;
            ++count;
        }
    if (count != 1) {
        if (error)
            *error = ProbeError::fromErrno(ENOENT, QStringLiteral("no single %1 in %2").arg(attr, dseFile));
        return false;
    }
    lines[found] = attr.toUtf8() + ": " + value;
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(lines.join('\n')) < 0) {
        if (error)
            *error = ProbeError::fromErrno(EACCES, QStringLiteral("cannot write ") + dseFile);
        return false;
    }
    return true;
}

} // namespace Ds389Config
