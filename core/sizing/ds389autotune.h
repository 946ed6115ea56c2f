#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// 389-ds / RHDS 11-13 cache autosizing and thread autotuning, emulated so the calculator can show "what autotune
// gives you vs what you need" (reference §3.2; 389-ds-base bdb_start_autotune() and util_is_cachesize_sane()).
//
//   zone   = autosize% × RAM_total                    (autosize 0 means 25)
//   if zone > RAM_available: zone = RAM_available / 2  ("reduced")
//   db     = min(split% × zone, 1536 MiB)             (split 0 means 25)
//   dbcachesize written = db / 1.25 when db < 500 MiB (the entry caches still get zone − db, before the division)
//   per back end:  Classic (2017 .. PR #6808): (zone − db) / n_backends
//                  BySize (PR #6808, 2025):    (zone − (n − 1) × 64 MiB) × pages_i / Σ pages
//   dncache    = roundup64MiB(0.10 × per back end)
//   entrycache = roundup64MiB(0.90 × per back end)
struct Ds389AutotuneInput
{
    double ramTotalBytes = 0;
    std::optional<double> ramAvailableBytes; // default: ramTotalBytes (nothing reduced)
    int autosizePercent = 25;
    int splitPercent = 25;
    int backends = 1;
    enum class Rule
    {
        Classic,
        BySize
    };
    Rule rule = Rule::Classic;
    QList<double> backendPages; // BySize: each back end's page count (empty: equal)
};

struct Ds389AutotuneResult
{
    double zoneBytes = 0;
    bool reduced = false;
    double dbBytes = 0; // the split share, capped
    double dbcacheBytesWritten = 0; // nsslapd-dbcachesize as autotune writes it
    QList<double> entryCacheBytes; // per back end
    QList<double> dnCacheBytes;
    double entryCacheTotalBytes() const;
    QJsonObject toJson() const; // in MB (10^6) and MiB
};

namespace Ds389Autotune {

constexpr double kMiB = 1048576.0;

Ds389AutotuneResult compute(const Ds389AutotuneInput& in);
double roundUp64MiB(double bytes);

// nsslapd-threadnumber: -1 on RHDS 12+: 1..16 CPU threads -> 16, 17..512 -> the count, more -> 512.
int threadsRhds12(int cpus);
// RHDS 11's table (4 -> 24, 8 -> 32, 16 -> 48, 32 -> 64, 64 -> 96, 128 -> 192, 256 -> 384); between rows linear
// (exact on the rows), below 4 and above 256 the end rows. `exactRow` says whether cpus is a row of the table.
int threadsRhds11(int cpus, bool* exactRow = nullptr);

QString source();
QString threadsSource();

} // namespace Ds389Autotune
