#include "core/common/buildinfo.h"

#ifndef DIRBENCH_LIBURING_VERSION
#error "core/CMakeLists.txt defines DIRBENCH_LIBURING_VERSION from pkg-config"
#endif

QString BuildInfo::version()
{
    return QStringLiteral(DIRBENCH_VERSION);
}

QString BuildInfo::liburingVersion()
{
    return QStringLiteral(DIRBENCH_LIBURING_VERSION);
}
