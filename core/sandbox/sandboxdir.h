#pragma once

#include "core/common/proberror.h"
#include "core/sandbox/sandboxinfo.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

class RunContext;

// The steps the slapd and the 389-ds sandboxes share when they start: validate the options they have in common,
// make their directory, write the one generated password and fill in the SandboxInfo fields both servers give.
namespace SandboxDir {

ProbeError ioError(const QString& detail, ProbeError::Kind kind = ProbeError::Kind::Io);
// Cancelled when ctx was asked to stop (whatever e says), else e.
ProbeError cancelledOr(RunContext* ctx, const ProbeError& e);
void setPhase(RunContext* ctx, const QString& phase, double progress);

// Validate: entries and port in range, parentDir (empty: QDir::tempPath()) a directory whose canonical path (set
// in *parent) the configuration files can quote (no quote, backslash, control character; no '%' with noPercent).
ProbeError validate(int entries, int port, const QString& parentDir, bool noPercent, QString* parent);

// Refuses (NoSpace, saying how much is free and needed) when parent has less than needBytes free, else creates
// parent/PREFIXxxxxxx and returns its path; it is kept, so the caller removes it when a later step fails.
// Empty with *error set when it cannot.
QString make(const QString& parent, const QString& prefix, qint64 needBytes, int entries, ProbeError* error);
// Directories: the subdirectories of dir; InvalidSpec "parentDir" when dir/ldapi is too long for a socket path.
ProbeError makeSubdirs(const QString& dir, const QStringList& subdirs);
ProbeError checkSocketPath(const QString& socketPath, const QString& parent);

// Identity: writes DIR/password (0600, `password`, or a new random one when empty) and returns its {SSHA} hash in
// *hash; fills the fields of *info both servers have (dir, entries, base, peopleBase, bindDn, passwordFile, ldapiUri).
ProbeError identity(const QString& dir, int entries, const QString& bindDn, SandboxInfo* info, QByteArray* hash,
    const QByteArray& password = {});

// Writes to a temporary name, then renames: readers never see half a file. No fsync: the files are throwaway.
bool writeReplacing(const QString& path, const QByteArray& data);

// The sandboxes directly under parent (empty: QDir::tempPath()) whose directory is named prefix* and whose owner
// process (SandboxInfo::ownerPid) is gone, stopped with `stop`: the demo directories of GUIs that were killed.
// Returns their directories.
using LoadSandbox = std::optional<SandboxInfo> (*)(const QString& dir);
using StopSandbox = bool (*)(const SandboxInfo& info, ProbeError* error);
QStringList stopOrphans(const QString& parent, const QString& prefix, LoadSandbox load, StopSandbox stop);

} // namespace SandboxDir
