#!/usr/bin/env bash
# inner_loops.sh [BUILD_DIR] — what two inner loops cost per operation: a search load's filter render (once per
# request; (uid=user[10000-99999]) under the uniform, zipf:1.0, hot:80/20 and sequential access distributions) and
# a disk test's unique data (the stamp that makes every 4 KiB of a write distinct, beside the full refill it
# replaces). Prints ns per operation and the share of one core at 100,000 requests or writes per second; no verdict.
# The driver is bench/inner_loops.cpp. BUILD_DIR (default build, scripts/run.sh's RelWithDebInfo build) must not be
# a sanitizer build: its figures would be the sanitizer's. REPEATS (default 5): timed loops per figure, the median
# is printed. Nice'd: a bench.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
driver=$build/bench/inner_loops
[ -x "$driver" ] || { echo "inner_loops: $driver is not built (cmake --build $build --target inner_loops)" >&2; exit 2; }
if grep -q -- '-fsanitize' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "inner_loops: $build is a sanitizer build; its figures would be the sanitizer's (use scripts/run.sh's build)" >&2
  exit 2
fi
echo "inner_loops: $(date '+%Y-%m-%d %H:%M'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
  "$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt") build"
nice -n 10 "$driver" "${REPEATS:-5}"
