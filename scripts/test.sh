#!/usr/bin/env bash
# Installs what is missing, builds (Release, warnings as errors) and runs the whole test suite with ctest.
# Usage: scripts/test.sh [extra ctest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
dirbench_install "${DIRBENCH_PKGS[@]}" "${DIRBENCH_TEST_PKGS[@]}"
BUILD_DIR=${BUILD_DIR:-build-ci}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDIRBENCH_WERROR=ON >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
cd "$BUILD_DIR"
# Disk tests measure real I/O; running them two at a time on 2 cores only makes both noisier.
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --no-tests=error -j1 "$@"
