#pragma once

#include "core/common/proberror.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

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
    QJsonObject toJson() const;

    static QString profileName(DiskProfile p);
    static std::optional<DiskProfile> profileFromName(const QString& name);
    static QStringList profileNames();
    static QString profileDescription(DiskProfile p);
    static QString engineName(IoEngineChoice e);
    static QString dataName(DiskData d); // "unique" | "zeros" (Default: "default")
    // "unique", "zeros", and the old name "random" (= unique).
    static std::optional<DiskData> dataFromName(const QString& name);
    // The data a profile's writes carry under this spec (dd alone defaults to zeros).
    DiskData dataFor(DiskProfile p) const;
    QString commitRegime() const { return commitAppend ? QStringLiteral("append") : QStringLiteral("overwrite"); }
};
