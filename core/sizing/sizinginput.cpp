#include "core/sizing/sizinginput.h"

#include "core/sizing/ldifstats.h"

#include <cmath>

namespace {

ProbeError bad(const char* field, const QString& why)
{
    return ProbeError::invalid(QLatin1String(field), why);
}

bool positive(const std::optional<double>& v)
{
    return !v || (std::isfinite(*v) && *v > 0);
}

bool nonNegative(const std::optional<double>& v)
{
    return !v || (std::isfinite(*v) && *v >= 0);
}

constexpr double kMaxMb = 1e9; // 1 PB: anything above is a typo

} // namespace

QString SizingInput::serverName(SizingServer s)
{
    switch (s) {
    case SizingServer::Ds389:
        return QStringLiteral("389ds");
    case SizingServer::OpenLdap:
        return QStringLiteral("openldap");
    case SizingServer::EDirectory:
        return QStringLiteral("edirectory");
    case SizingServer::ActiveDirectory:
        return QStringLiteral("ad");
    }
    return {};
}

std::optional<SizingServer> SizingInput::serverFromName(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == u"389ds" || n == u"389" || n == u"389-ds" || n == u"rhds" || n == u"hpds")
        return SizingServer::Ds389;
    if (n == u"openldap" || n == u"slapd" || n == u"mdb")
        return SizingServer::OpenLdap;
    if (n == u"edirectory" || n == u"edir")
        return SizingServer::EDirectory;
    if (n == u"ad" || n == u"activedirectory" || n == u"active-directory")
        return SizingServer::ActiveDirectory;
    return std::nullopt;
}

QString SizingInput::originOf(const QString& key) const
{
    return origin.value(key, QStringLiteral("default"));
}

ProbeError SizingInput::validate() const
{
    if (threads && (*threads < 1 || *threads > 4096))
        return bad("threads", QStringLiteral("must be between 1 and 4096"));
    if (cpus && (*cpus < 1 || *cpus > 4096))
        return bad("cpus", QStringLiteral("must be between 1 and 4096"));
    if (!positive(ramMb) || (ramMb && *ramMb > kMaxMb))
        return bad("ram-mb", QStringLiteral("must be a size in MB > 0"));
    if (entries && (*entries < 1 || *entries > qint64(1e12)))
        return bad("entries", QStringLiteral("must be between 1 and 10^12"));
    if (!positive(entryCacheBytesPerEntry) || (entryCacheBytesPerEntry && *entryCacheBytesPerEntry > 1e9))
        return bad("entry-cache-bytes-per-entry", QStringLiteral("must be a number of bytes > 0 (at most 10^9)"));
    if (!nonNegative(dbSizeMb) || (dbSizeMb && *dbSizeMb > kMaxMb))
        return bad("db-size-mb", QStringLiteral("must be a size in MB >= 0"));
    if (!nonNegative(dbcacheMb) || (dbcacheMb && *dbcacheMb > kMaxMb))
        return bad("dbcache-mb", QStringLiteral("must be a size in MB >= 0"));
    if (!nonNegative(entryCacheMb) || (entryCacheMb && *entryCacheMb > kMaxMb))
        return bad("entry-cache-mb", QStringLiteral("must be a size in MB >= 0"));
    if (!nonNegative(importCacheMb) || (importCacheMb && *importCacheMb > kMaxMb))
        return bad("import-cache-mb", QStringLiteral("must be a size in MB >= 0"));
    if (!(entryFactor >= 1 && entryFactor <= 10))
        return bad("entry-factor", QStringLiteral("must be between 1 and 10 (the guide prints 2.3)"));
    if (!(ldifCacheFactor > 0 && ldifCacheFactor <= 100))
        return bad("ldif-cache-factor", QStringLiteral("must be more than 0 and at most 100"));
    if (backends < 1 || backends > 1000)
        return bad("backends", QStringLiteral("must be between 1 and 1000"));
    if (backendName.trimmed().isEmpty() || backendName.contains(u',') || backendName.contains(u'='))
        return bad("backend", QStringLiteral("must be a back-end name such as userRoot"));
    if (autosizePercent < 1 || autosizePercent > 100)
        return bad("autosize", QStringLiteral("must be a percentage between 1 and 100"));
    if (autosizeSplitPercent < 1 || autosizeSplitPercent > 100)
        return bad("autosize-split", QStringLiteral("must be a percentage between 1 and 100"));
    if (!positive(ramAvailableMb))
        return bad("ram-available-mb", QStringLiteral("must be a size in MB > 0"));
    if (!(growth >= 0 && growth <= 100))
        return bad("growth", QStringLiteral("must be a fraction between 0 and 100 (0.25 = 25 %)"));
    if (!(safety >= 1 && safety <= 100))
        return bad("safety", QStringLiteral("must be between 1 and 100"));
    if (!(osReserveMb >= 0 && osReserveMb <= kMaxMb))
        return bad("os-reserve-mb", QStringLiteral("must be a size in MB >= 0"));
    if (users && (*users < 1 || *users > qint64(1e10)))
        return bad("users", QStringLiteral("must be between 1 and 10^10"));
    if (!(osMb >= 0 && osMb <= kMaxMb))
        return bad("os-mb", QStringLiteral("must be a size in MB >= 0"));
    if (!(sysvolMb >= 0 && sysvolMb <= kMaxMb))
        return bad("sysvol-mb", QStringLiteral("must be a size in MB >= 0"));
    return {};
}

QJsonObject SizingInput::toJson() const
{
    QJsonObject o;
    auto put = [&](const char* key, const auto& v) {
        if (v)
            o.insert(QLatin1String(key), double(*v));
        else
            o.insert(QLatin1String(key), QJsonValue(QJsonValue::Null));
    };
    o.insert(QStringLiteral("server"), serverName(server));
    put("threads", threads);
    put("cpus", cpus);
    put("ram_mb", ramMb);
    put("entries", entries);
    put("entry_cache_bytes_per_entry", entryCacheBytesPerEntry);
    put("db_size_mb", dbSizeMb);
    put("ldif_mean_entry_bytes", ldifMeanEntryBytes);
    put("ldif_total_entry_bytes", ldifTotalEntryBytes);
    o.insert(QStringLiteral("ldif_cache_factor"), ldifCacheFactor);
    if (server == SizingServer::Ds389) {
        put("dbcache_mb", dbcacheMb);
        put("entry_cache_mb", entryCacheMb);
        put("import_cache_mb", importCacheMb);
        o.insert(QStringLiteral("entry_factor"), entryFactor);
        o.insert(QStringLiteral("backends"), backends);
        o.insert(QStringLiteral("backend"), backendName);
        o.insert(QStringLiteral("autosize_percent"), autosizePercent);
        o.insert(QStringLiteral("autosize_split_percent"), autosizeSplitPercent);
        put("current_entry_cache_mb", currentEntryCacheMb);
        put("current_dbcache_mb", currentDbcacheMb);
    } else if (server == SizingServer::OpenLdap) {
        put("current_map_mb", currentMapMb);
        o.insert(QStringLiteral("growth"), growth);
        o.insert(QStringLiteral("safety"), safety);
        o.insert(QStringLiteral("os_reserve_mb"), osReserveMb);
    } else if (server == SizingServer::ActiveDirectory) {
        put("users", users);
        o.insert(QStringLiteral("os_mb"), osMb);
        o.insert(QStringLiteral("sysvol_mb"), sysvolMb);
    }
    put("current_threads", currentThreads);
    QJsonObject org;
    for (auto it = origin.begin(); it != origin.end(); ++it)
        org.insert(it.key(), it.value());
    o.insert(QStringLiteral("origin"), org);
    return o;
}

void SizingInput::applyLdif(const LdifStats& s)
{
    if (s.entries <= 0)
        return;
    if (!entries) {
        entries = s.entries;
        origin.insert(QStringLiteral("entries"), QStringLiteral("ldif"));
    }
    ldifMeanEntryBytes = s.meanEntryBytes;
    ldifTotalEntryBytes = double(s.totalEntryBytes);
    origin.insert(QStringLiteral("ldif_mean_entry_bytes"), QStringLiteral("ldif"));
    origin.insert(QStringLiteral("ldif_total_entry_bytes"), QStringLiteral("ldif"));
    ldifIndexCandidates.clear();
    for (const auto& c : s.indexCandidates)
        ldifIndexCandidates.append({ c.attribute, c.indexTypes });
}

QStringList SizingInput::applyMonitor(const QMap<QString, double>& m)
{
    QStringList used;
    const QString monitor = QStringLiteral("monitor");
    auto has = [&](const char* k) { return m.contains(QLatin1String(k)) && std::isfinite(m.value(QLatin1String(k))); };
    auto val = [&](const char* k) { return m.value(QLatin1String(k)); };
    if (has("entry_cache_size") && has("entry_cache_count") && val("entry_cache_count") > 0
        && !origin.contains(QStringLiteral("entry_cache_bytes_per_entry"))) {
        entryCacheBytesPerEntry = val("entry_cache_size") / val("entry_cache_count");
        origin.insert(QStringLiteral("entry_cache_bytes_per_entry"), monitor);
        used << QStringLiteral("entry_cache_size") << QStringLiteral("entry_cache_count");
    }
    if (has("entries") && val("entries") >= 1 && !origin.contains(QStringLiteral("entries"))) {
        entries = qint64(std::llround(val("entries")));
        origin.insert(QStringLiteral("entries"), monitor);
        used << QStringLiteral("entries");
    }
    if (has("db_files_bytes") && val("db_files_bytes") >= 0 && !origin.contains(QStringLiteral("db_size_mb"))) {
        dbSizeMb = val("db_files_bytes") / 1e6;
        origin.insert(QStringLiteral("db_size_mb"), monitor);
        used << QStringLiteral("db_files_bytes");
    }
    if (has("entry_cache_max_size")) {
        currentEntryCacheMb = val("entry_cache_max_size") / 1e6;
        origin.insert(QStringLiteral("current_entry_cache_mb"), monitor);
        used << QStringLiteral("entry_cache_max_size");
    }
    if (has("db_cache_size_bytes")) {
        currentDbcacheMb = val("db_cache_size_bytes") / 1e6;
        origin.insert(QStringLiteral("current_dbcache_mb"), monitor);
        used << QStringLiteral("db_cache_size_bytes");
    }
    if (has("db_map_bytes") && val("db_map_bytes") > 0) {
        currentMapMb = val("db_map_bytes") / 1e6;
        origin.insert(QStringLiteral("current_map_mb"), monitor);
        used << QStringLiteral("db_map_bytes");
    }
    if (has("threads_open") && val("threads_open") >= 1) {
        currentThreads = int(std::llround(val("threads_open")));
        origin.insert(QStringLiteral("current_threads"), monitor);
        used << QStringLiteral("threads_open");
    }
    return used;
}
