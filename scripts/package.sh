#!/usr/bin/env bash
# Builds the Debian package: a Release unity build (no tests, no -Werror; the same unity build as scripts/run.sh,
# so a clash of file-local names shows here first) in its own directory, then cpack -G DEB.
# Prints the path of the .deb as the only line on stdout; build output goes to stderr.
# Usage: scripts/package.sh [extra cmake arguments]
# Environment: BUILD_DIR (default build-pkg), JOBS (default: all CPUs), CCACHE_DISABLE=1 to compile without ccache
# (used when installed)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
dirbench_install "${DIRBENCH_PKGS[@]}" "${DIRBENCH_PACKAGE_PKGS[@]}" >&2
BUILD_DIR=${BUILD_DIR:-build-pkg}
# Debian's hardening flags, as a Debian package build has them (stack protector, fortify, relro, bindnow).
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
flags="$(dpkg-buildflags --get CXXFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
export CXXFLAGS="${flags//-g /}" # no debug info: the package strips it anyway, and it halves the build
export LDFLAGS="$(dpkg-buildflags --get LDFLAGS)"
dirbench_ccache "$BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDIRBENCH_BUILD_TESTS=OFF -DCMAKE_UNITY_BUILD=ON "$DIRBENCH_LAUNCHER" "$@" >&2
cmake --build "$BUILD_DIR" -j"${JOBS:-$(nproc)}" >&2
echo "package: build done at $SECONDS s ($(dirbench_ccache_summary))" >&2
rm -f "$BUILD_DIR"/dirbench_*.deb
(cd "$BUILD_DIR" && cpack -G DEB) >&2
echo "package: cpack done at $SECONDS s" >&2
debs=("$BUILD_DIR"/dirbench_*.deb)
if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then
  echo "package: expected one dirbench_*.deb in $BUILD_DIR, found: ${debs[*]}" >&2
  exit 1
fi
realpath "${debs[0]}"
