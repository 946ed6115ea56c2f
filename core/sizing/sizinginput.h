#pragma once

#include "core/common/proberror.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>

#include <optional>

struct LdifStats;

enum class SizingServer
{
    Ds389, // 389 Directory Server, Red Hat DS, HP-UX DS (the HP guide's formula)
    OpenLdap, // back-mdb
    EDirectory, // NetIQ eDirectory (FLAIM DIB)
    ActiveDirectory
};

// What the calculators take. Every value is optional where the calculator can derive it, and `origin` says where
// each one came from ("typed", "ldif", "monitor", "default", "this machine"), keyed by the CLI name without dashes.
// Sizes are in MB = 10^6 bytes, as the HP guide prints them. Field names in errors are the CLI's option names.
struct SizingInput
{
    SizingServer server = SizingServer::Ds389;

    // Common
    std::optional<int> threads; // --threads: worker threads (389 nsslapd-threadnumber, slapd olcThreads)
    std::optional<int> cpus; // --cpus: CPU threads of the server host
    std::optional<double> ramMb; // --ram-mb: RAM of the server host (389 autotune comparison)
    std::optional<qint64> entries; // --entries
    std::optional<double> entryCacheBytesPerEntry; // --entry-cache-bytes-per-entry: currententrycachesize/count
    std::optional<double> dbSizeMb; // --db-size-mb: Σ db4 files (389 Eq. 1) | data.mdb | DIB | NTDS.dit
    // From an LDIF file (--ldif): raw entry bytes, the base of the estimates when nothing better is known
    std::optional<double> ldifMeanEntryBytes;
    std::optional<double> ldifTotalEntryBytes;
    double ldifCacheFactor = 3.8; // --ldif-cache-factor: entry-cache bytes per LDIF byte (Sun ONE 5.2 rule)
    QList<QPair<QString, QString>> ldifIndexCandidates; // attribute, index types ("uid", "eq")

    // 389-ds / RHDS / HP-UX DS
    std::optional<double> dbcacheMb; // --dbcache-mb
    std::optional<double> entryCacheMb; // --entry-cache-mb: Σ nsslapd-cachememsize of the back ends in use
    std::optional<double> importCacheMb; // --import-cache-mb (0 when you only import offline)
    double entryFactor = 2.3; // --entry-factor: the guide's 2.3 (the seed summary shows 2)
    int backends = 1; // --backends (autotune divides among them)
    QString backendName = QStringLiteral("userRoot"); // --backend
    QString instance = QStringLiteral("INSTANCE"); // --instance: dsconf's instance name or URL
    int autosizePercent = 25; // --autosize: nsslapd-cache-autosize as autotune uses it
    int autosizeSplitPercent = 25; // --autosize-split: nsslapd-cache-autosize-split
    std::optional<double> ramAvailableMb; // --ram-available-mb: autotune's available RAM (default = ramMb)
    // What the server runs with now (from the monitor): the calculators compare it with what is needed
    std::optional<double> currentEntryCacheMb;
    std::optional<double> currentDbcacheMb;
    std::optional<int> currentThreads;
    std::optional<double> currentMapMb; // OpenLDAP: the map size now (olmMDBPagesMax × 4096: olcDbMaxSize)

    // OpenLDAP back-mdb
    double growth = 0.25; // --growth: expected data growth for maxsize
    double safety = 1.5; // --safety: maxsize margin
    double osReserveMb = 2000; // --os-reserve-mb

    // Active Directory
    std::optional<qint64> users; // --users
    double osMb = 4000; // --os-mb: 2..4 GB for the OS
    double sysvolMb = 500; // --sysvol-mb

    QHash<QString, QString> origin;

    static QString serverName(SizingServer s); // "389ds", "openldap", "edirectory", "ad"
    static std::optional<SizingServer> serverFromName(const QString& name); // also "rhds", "hpds", "389"
    QString originOf(const QString& key) const; // "default" when not recorded

    // Checks ranges; errors name the CLI option without dashes ("threads", "entry-cache-mb", ...).
    ProbeError validate() const;
    QJsonObject toJson() const;

    // Fills what an LDIF measured (entries, raw entry sizes) where the user typed nothing.
    void applyLdif(const LdifStats& stats);

    // The live-server hook: turns a monitor reading (core/ldap/monitorreader.h keys) into sizing inputs, where
    // the user typed nothing. Keys used:
    //   entry_cache_size, entry_cache_count  -> entry_cache_bytes_per_entry (the guide's Equation 2 ratio)
    //   entry_cache_max_size                 -> the entry cache now (nsslapd-cachememsize)
    //   entries                              -> entries (e.g. numSubordinates / ldapentrycachecount)
    //   db_files_bytes                       -> db_size_mb (Σ of the db files: Equation 1)
    //   db_cache_size_bytes                  -> the dbcache now (nsslapd-db-cache-size-bytes)
    //   threads_open                         -> the worker threads now
    //   db_map_bytes                         -> the LMDB map size now (olcDbMaxSize)
    // Absent keys leave the input untouched (never 0). Returns the keys it used.
    QStringList applyMonitor(const QMap<QString, double>& monitor);
};
