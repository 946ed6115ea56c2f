#include "core/sizing/ds389autotune.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace Ds389Autotune {

double roundUp64MiB(double bytes)
{
    const double unit = 64 * kMiB;
    const double q = std::floor(bytes / unit);
    return bytes - q * unit > 0 ? (q + 1) * unit : q * unit;
}

Ds389AutotuneResult compute(const Ds389AutotuneInput& in)
{
    Ds389AutotuneResult r;
    const int pct = in.autosizePercent > 0 ? in.autosizePercent : 25;
    const int split = in.splitPercent > 0 ? in.splitPercent : 25;
    const int n = std::max(1, in.backends);
    r.zoneBytes = std::floor(pct * in.ramTotalBytes / 100.0);
    const double avail = in.ramAvailableBytes.value_or(in.ramTotalBytes);
    if (r.zoneBytes > avail) {
        r.zoneBytes = std::floor(avail * 0.5);
        r.reduced = true;
    }
    r.dbBytes = std::min(std::floor(split * r.zoneBytes / 100.0), 1536 * kMiB);
    r.dbcacheBytesWritten = r.dbBytes < 500 * kMiB ? std::floor(r.dbBytes / 1.25) : r.dbBytes;
    for (int i = 0; i < n; ++i) {
        double perBackend = 0;
        if (in.rule == Ds389AutotuneInput::Rule::Classic) {
            perBackend = std::floor((r.zoneBytes - r.dbBytes) / n);
        } else {
            double total = 0;
            for (int j = 0; j < n; ++j)
                total += j < in.backendPages.size() ? in.backendPages.at(j) : 1.0;
            const double pages = i < in.backendPages.size() ? in.backendPages.at(i) : 1.0;
            const double reserved = (n - 1) * 64 * kMiB;
            perBackend
                = reserved >= r.zoneBytes || total <= 0 ? 0 : std::floor((r.zoneBytes - reserved) * pages / total);
        }
        r.dnCacheBytes.append(roundUp64MiB(std::floor(perBackend * 0.1)));
        r.entryCacheBytes.append(roundUp64MiB(std::floor(perBackend * 0.9)));
    }
    return r;
}

int threadsRhds12(int cpus)
{
    return std::clamp(cpus, 16, 512);
}

int threadsRhds11(int cpus, bool* exactRow)
{
    static const int rows[][2]
        = { { 4, 24 }, { 8, 32 }, { 16, 48 }, { 32, 64 }, { 64, 96 }, { 128, 192 }, { 256, 384 } };
    if (exactRow)
        *exactRow = false;
    if (cpus <= rows[0][0]) {
        if (exactRow)
            *exactRow = cpus == rows[0][0];
        return rows[0][1];
    }
    for (size_t i = 1; i < std::size(rows); ++i) {
        if (cpus <= rows[i][0]) {
            if (exactRow)
                *exactRow = cpus == rows[i][0];
            const double f = double(cpus - rows[i - 1][0]) / double(rows[i][0] - rows[i - 1][0]);
            return int(std::lround(rows[i - 1][1] + f * (rows[i][1] - rows[i - 1][1])));
        }
    }
    return rows[std::size(rows) - 1][1];
}

QString source()
{
    return QStringLiteral("389-ds-base bdb_start_autotune() (ldap/servers/slapd/back-ldbm/db-bdb/bdb_misc.c) and "
                          "util_is_cachesize_sane() (ldap/servers/slapd/util.c), https://github.com/389ds/389-ds-base; "
                          "RHDS 13 'Managing cache settings' (defaults autosize 25, split 25, dbcache cap 1,536 MiB)");
}

QString threadsSource()
{
    return QStringLiteral("RHDS 12 'Setting the number of Directory Server threads' (1-16 CPU threads -> 16, 17-512 "
                          "-> CPU threads, > 512 -> 512); RHDS 11 table 4->24 ... 256->384");
}

} // namespace Ds389Autotune

double Ds389AutotuneResult::entryCacheTotalBytes() const
{
    double t = 0;
    for (double b : entryCacheBytes)
        t += b;
    return t;
}

QJsonObject Ds389AutotuneResult::toJson() const
{
    QJsonArray ec, dn;
    for (double b : entryCacheBytes)
        ec.append(b / 1e6);
    for (double b : dnCacheBytes)
        dn.append(b / 1e6);
    return QJsonObject { { QStringLiteral("zone_mb"), zoneBytes / 1e6 }, { QStringLiteral("reduced"), reduced },
        { QStringLiteral("dbcache_mb"), dbcacheBytesWritten / 1e6 },
        { QStringLiteral("dbcache_mib"), dbcacheBytesWritten / Ds389Autotune::kMiB },
        { QStringLiteral("entry_cache_mb"), ec }, { QStringLiteral("dn_cache_mb"), dn },
        { QStringLiteral("entry_cache_total_mb"), entryCacheTotalBytes() / 1e6 },
        { QStringLiteral("entry_cache_total_mib"), entryCacheTotalBytes() / Ds389Autotune::kMiB } };
}
