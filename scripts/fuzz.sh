#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang 14) and runs each for SECONDS (default 60), two at a time.
# Usage: scripts/fuzz.sh [SECONDS]        Environment: BUILD_DIR (default build-fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
dirbench_install "${DIRBENCH_PKGS[@]}" "${DIRBENCH_FUZZ_PKGS[@]}"
BUILD_DIR=${BUILD_DIR:-build-fuzz}
dirbench_ccache "$BUILD_DIR" # ccache when installed (CCACHE_DISABLE=1: without)
CC=clang-14 CXX=clang++-14 cmake -S tests/fuzz -B "$BUILD_DIR" -G Ninja "$DIRBENCH_LAUNCHER" >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
echo "fuzz: build done at $SECONDS s ($(dirbench_ccache_summary))"
bash tests/fuzz/run.sh "$BUILD_DIR" "${1:-60}"
echo "fuzz: done at $SECONDS s"
