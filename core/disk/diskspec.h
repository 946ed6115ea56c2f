#pragma once

#include "core/common/proberror.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

enum class DiskProfile
{
    Dd,
    SeqWrite,
    SeqRead,
    RandRead,
    RandWrite,
    Commit,
    Directory
};
// One row per profile, the only place that knows one: its name and help, its defaults, what the engine's part is
// made of (core/disk/diskengine.cpp), and the options it has no use for (refused by the CLI, greyed on the page).
struct DiskProfileInfo
{
    DiskProfile profile;
    const char* name;
    const char* description; // one line (the Disk page, records)
    const char* help; // the CLI help's lead; the defaults and the refused options are added from the fields
    const char* helpTail; // after the defaults ("" for none)
    qint64 size;
    qint64 block;
    int qd;
    double duration; // 0: one pass
    uint64_t maxOps; // a fixed number of I/Os (dd); 0: one pass or the duration
    bool write;
    bool random; // offsets follow a permutation of the blocks
    bool syncEach; // write + fdatasync is one operation (commit)
    bool prefill; // the file is written first (not timed)
    bool preallocate; // the file's blocks are reserved first (not timed)
    bool finalSync; // one fdatasync at the end, inside the timed span (dd)
    bool buffered; // always through the page cache
    bool queued; // io_uring may keep the queue (else pread/pwrite threads)
    bool fixed; // size, block, qd and duration are the profile's own (dd)
    const char* refuses; // options it has no use for, space-separated, without dashes
    const char* refusesWhy;
};

// What writes carry. Default: zeros for dd (the seed's /dev/zero), unique for every other profile.
enum class DiskData
{
    Default,
    Unique, // every 4 KiB of every write distinct and incompressible (UniqueData in core/disk/testfile.h)
    Zeros
};
enum class IoEngineChoice
{
    Auto,
    IoUring,
    Threads
};

// What a disk test should do. Fields left at their "unset" value take the profile's default in resolved().
// Field names in errors are the CLI's option names without dashes ("size", "qd", "dir"), so the CLI and the
// GUI can both name the field at fault.
struct DiskSpec
{
    DiskProfile profile = DiskProfile::SeqWrite;
    QString dir;
    qint64 sizeBytes = 0; // 0 = profile default
    qint64 blockBytes = 0; // 0 = profile default
    int queueDepth = 0; // 0 = profile default
    double durationSec = -1; // < 0 = profile default; 0 = one pass over the file
    int repeat = 1;
    DiskData data = DiskData::Default;
    bool commitAppend = false; // commit: start on an empty file and append (default: overwrite a pre-written file)
    IoEngineChoice engine = IoEngineChoice::Auto;
    bool forceBuffered = false;
    int intervalMs = 250;
    QString requirementProfile; // id in the requirement profiles; "" = all that apply
    double untilSteadySec = 0; // > 0: the sustained part runs until steady (core/disk/steadystate.h) or this long

    // Suite only: durations of its parts (the sustained write is at least 30 s unless a test shortens it).
    double suitePartSeconds = 10;
    double suiteSustainedSeconds = 30;

    DiskSpec resolved() const;
    // Checks everything that can be checked before any I/O: values, the directory, its free space.
    ProbeError validate() const;
    // The values alone (a test on another host: its directory is checked there).
    ProbeError validateValues() const;
    QJsonObject toJson() const;
    // The spec as asked (unresolved: defaults stay defaults), for an agent on another host to run
    // (core/agents/remoterun.h): fromWire(toWire()) == *this. fromWire names the bad field in *error.
    QJsonObject toWire() const;
    static std::optional<DiskSpec> fromWire(const QJsonObject& o, QString* error);
    bool operator==(const DiskSpec&) const = default;

    static QString profileName(DiskProfile p);
    static std::optional<DiskProfile> profileFromName(const QString& name);
    static QStringList profileNames();
    static QString profileDescription(DiskProfile p);
    static const DiskProfileInfo& profileInfo(DiskProfile p);
    static QStringList profileRefuses(DiskProfile p); // option names without dashes
    static QString profileRefusesWhy(DiskProfile p);
    static QString profileHelp(); // the CLI help's "Profiles" lines, from the table
    static QString engineName(IoEngineChoice e);
    static QString dataName(DiskData d); // "unique" | "zeros" (Default: "default")
    // "unique", "zeros", and the old name "random" (= unique).
    static std::optional<DiskData> dataFromName(const QString& name);
    // The data a profile's writes carry under this spec (dd alone defaults to zeros).
    DiskData dataFor(DiskProfile p) const;
    QString commitRegime() const { return commitAppend ? QStringLiteral("append") : QStringLiteral("overwrite"); }
};
