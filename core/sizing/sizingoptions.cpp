#include "core/sizing/sizingoptions.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace {

using SizingSetter = std::function<void(SizingInput*, double)>;

struct SizingNumberInput
{
    const char* name;
    const char* help;
    double wholeLimit; // > 0: a whole number of at most this size; 0: any number
    SizingSetter set;
};

const QList<SizingNumberInput>& sizingNumberInputs()
{
    static const QList<SizingNumberInput> inputs {
        { "threads", "Worker threads (389 nsslapd-threadnumber, slapd olcThreads). 389 default: --cpus.", 1e9,
            [](SizingInput* in, double v) { in->threads = int(std::clamp(v, -1e9, 1e9)); } },
        { "cpus", "CPU threads of the server host (default: this machine).", 1e9,
            [](SizingInput* in, double v) { in->cpus = int(std::clamp(v, -1e9, 1e9)); } },
        { "ram-mb", "RAM of the server host in MB, for 389's autotune (default: this machine).", 0,
            [](SizingInput* in, double v) { in->ramMb = v; } },
        { "dbcache-mb", "389: nsslapd-dbcachesize in MB.", 0, [](SizingInput* in, double v) { in->dbcacheMb = v; } },
        { "entry-cache-mb", "389: Σ nsslapd-cachememsize of the back ends in use, MB.", 0,
            [](SizingInput* in, double v) { in->entryCacheMb = v; } },
        { "import-cache-mb", "389: import cache in MB (default 0: offline imports only).", 0,
            [](SizingInput* in, double v) { in->importCacheMb = v; } },
        { "entries", "Entries in the database.", 1e15, [](SizingInput* in, double v) { in->entries = qint64(v); } },
        { "entry-cache-bytes-per-entry", "currententrycachesize / currententrycachecount after priming (Equation 2).",
            0, [](SizingInput* in, double v) { in->entryCacheBytesPerEntry = v; } },
        { "db-size-mb", "Size on disk, MB: Σ db4 files (389 Equation 1), data.mdb, the DIB, NTDS.dit.", 0,
            [](SizingInput* in, double v) { in->dbSizeMb = v; } },
        { "entry-factor", "389: the factor on the entry caches (default 2.3 as printed; the seed shows 2).", 0,
            [](SizingInput* in, double v) { in->entryFactor = v; } },
        { "ldif-cache-factor", "389: cached bytes per LDIF byte when estimating from --ldif (default 3.8).", 0,
            [](SizingInput* in, double v) { in->ldifCacheFactor = v; } },
        { "backends", "389: back ends sharing the entry cache (default 1).", 1e9,
            [](SizingInput* in, double v) { in->backends = int(std::clamp(v, -1e9, 1e9)); } },
        { "autosize", "389 autotune: nsslapd-cache-autosize, % of RAM (default 25).", 1e9,
            [](SizingInput* in, double v) { in->autosizePercent = int(std::clamp(v, -1e9, 1e9)); } },
        { "autosize-split", "389 autotune: nsslapd-cache-autosize-split, % for the dbcache (default 25).", 1e9,
            [](SizingInput* in, double v) { in->autosizeSplitPercent = int(std::clamp(v, -1e9, 1e9)); } },
        { "ram-available-mb", "389 autotune: available RAM in MB (default: --ram-mb, nothing reduced).", 0,
            [](SizingInput* in, double v) { in->ramAvailableMb = v; } },
        { "growth", "OpenLDAP: data growth for maxsize (default 0.25).", 0,
            [](SizingInput* in, double v) { in->growth = v; } },
        { "safety", "OpenLDAP: maxsize margin (default 1.5).", 0, [](SizingInput* in, double v) { in->safety = v; } },
        { "os-reserve-mb", "OpenLDAP: RAM left to the OS, MB (default 2000).", 0,
            [](SizingInput* in, double v) { in->osReserveMb = v; } },
        { "users", "AD: users (NTDS.dit estimate and cores).", 1e15,
            [](SizingInput* in, double v) { in->users = qint64(v); } },
        { "os-mb", "AD: RAM for the OS, MB (default 4000).", 0, [](SizingInput* in, double v) { in->osMb = v; } },
        { "sysvol-mb", "AD: SYSVOL size, MB (default 500).", 0, [](SizingInput* in, double v) { in->sysvolMb = v; } },
    };
    return inputs;
}

} // namespace

namespace SizingOptions {

const QList<NumberOption>& numbers()
{
    static const QList<NumberOption> out = [] {
        QList<NumberOption> list;
        for (const SizingNumberInput& i : sizingNumberInputs())
            list.append({ QString::fromLatin1(i.name), QString::fromUtf8(i.help) });
        return list;
    }();
    return out;
}

QStringList inputsOf(SizingServer server)
{
    switch (server) {
    case SizingServer::Ds389:
        return QStringLiteral("threads cpus ram-mb dbcache-mb entry-cache-mb import-cache-mb entries "
                              "entry-cache-bytes-per-entry db-size-mb entry-factor ldif-cache-factor backends "
                              "autosize autosize-split ram-available-mb backend instance ldif")
            .split(u' ');
    case SizingServer::OpenLdap:
        return QStringLiteral("threads db-size-mb growth safety os-reserve-mb ldif").split(u' ');
    case SizingServer::EDirectory:
        return { QStringLiteral("db-size-mb"), QStringLiteral("ldif") };
    case SizingServer::ActiveDirectory:
        return QStringLiteral("users db-size-mb os-mb sysvol-mb").split(u' ');
    }
    return {};
}

QString originKey(const QString& option)
{
    return QString(option).replace(u'-', u'_');
}

ProbeError setNumber(SizingInput* in, const QString& option, double v)
{
    for (const SizingNumberInput& i : sizingNumberInputs()) {
        if (option != QLatin1String(i.name))
            continue;
        if (!std::isfinite(v))
            return ProbeError::invalid(option, QStringLiteral("is not a number"));
        if (i.wholeLimit > 0 && (std::floor(v) != v || std::fabs(v) > i.wholeLimit))
            return ProbeError::invalid(option, QStringLiteral("must be a whole number"));
        i.set(in, v);
        in->origin.insert(originKey(option), QStringLiteral("typed"));
        return {};
    }
    return ProbeError::invalid(option, QStringLiteral("is not a number input of the sizing"));
}

} // namespace SizingOptions
