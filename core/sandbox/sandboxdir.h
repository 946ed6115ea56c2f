#pragma once

#include "core/common/proberror.h"

#include <QString>

// What the slapd and the 389-ds sandboxes share when they make their directory: a ProbeError for an I/O fault,
// and a fresh directory under a parent after checking that the parent has room for the entries.
namespace SandboxDir {

ProbeError ioError(const QString& detail, ProbeError::Kind kind = ProbeError::Kind::Io);

// Refuses (NoSpace, saying how much is free and needed) when parent has less than needBytes free, else creates
// parent/PREFIXxxxxxx and returns its path; it is kept, so the caller removes it when a later step fails.
// Empty with *error set when it cannot.
QString make(const QString& parent, const QString& prefix, qint64 needBytes, int entries, ProbeError* error);

} // namespace SandboxDir
