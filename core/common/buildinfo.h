#pragma once

#include <QString>

// What this build of DirBench was made with, for Help → About and bug reports.
namespace BuildInfo {

QString version(); // DirBench's own: "0.1.0"
// The liburing the disk engine was built against (pkg-config's version; liburing 2.3 has no run-time query).
QString liburingVersion();

} // namespace BuildInfo
