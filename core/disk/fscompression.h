#pragma once

#include <QString>
#include <QStringList>

struct RunRecord;

// File systems that compress what is written to them, so that data they can shrink (zeros, repeats) reaches the
// disk smaller than the test wrote it.
namespace FsCompression {

struct Info
{
    QString fsType; // "btrfs", "zfs", ...
    QString setting; // "compress-force=zstd:3", "compression=lz4", "chattr +c"; empty: no compression found
    bool compresses() const { return !setting.isEmpty(); }
};

// btrfs: the mount's compress / compress-force options, or the directory's compression flag (chattr +c, which
// new files inherit); bcachefs: compression / background_compression; f2fs: compress_algorithm; ZFS: the
// dataset's `compression` property, asked of `zfs get` only when the zfs tool is installed.
Info of(const QString& dir);
// The compression a mount's options turn on for a file system type ("" for none; ZFS keeps it in a property).
QString fromMountOptions(const QString& fsType, const QStringList& options);

// Warns `compressing-fs` when dir's file system compresses, and records environment.filesystem.compression.
void check(const QString& dir, RunRecord& rec);

} // namespace FsCompression
