#!/usr/bin/env bash
# Installs what is missing, builds the test configuration and runs the whole test suite with ctest.
# The test configuration is the one with AddressSanitizer + UndefinedBehaviorSanitizer and warnings as errors
# (-Werror lives here only; the package's Release build in scripts/package.sh has neither). Third-party leaks are
# suppressed in tests/sanitizers/lsan.supp, each with its reason; any finding in DirBench's code fails its test.
# Usage: scripts/test.sh [extra ctest arguments]
# Environment: BUILD_DIR (default build-asan), SANITIZE=0 for a plain Release build instead (faster, no sanitizers)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
dirbench_install "${DIRBENCH_PKGS[@]}" "${DIRBENCH_TEST_PKGS[@]}"
root=$(pwd)
if [ "${SANITIZE:-1}" = 1 ]; then
  BUILD_DIR=${BUILD_DIR:-build-asan}
  san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DDIRBENCH_WERROR=ON \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCMAKE_CXX_FLAGS="$san" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export LSAN_OPTIONS=suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0
else
  BUILD_DIR=${BUILD_DIR:-build-ci}
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDIRBENCH_WERROR=ON >/dev/null
fi
cmake --build "$BUILD_DIR" -j"$(nproc)"
cd "$BUILD_DIR"
# Disk tests measure real I/O; running them two at a time on 2 cores only makes both noisier.
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --no-tests=error -j1 "$@"
