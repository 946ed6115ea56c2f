#!/usr/bin/env bash
# Makes the README's screenshots from the real window after real runs: dirbench-screenshots (tests/ui/screenshots.cpp)
# starts a private sandbox slapd on 127.0.0.1, runs a disk test in a temporary directory, the LDAP loads, a curve and
# a thread sweep (and the demo directory with a replica for the Replication page), and saves every page at each size
# in a light and a dark palette, under QT_QPA_PLATFORM=offscreen (never in ctest's sanitizer run).
# Output: OUT/<palette>-<W>x<H>/<shot>.png.
# Usage: scripts/screenshots.sh [--readme] [OUT]   (OUT default build-shots/screenshots)
#   --readme  also copies the light 1366x768 set over docs/screenshots/<shot>.png (the README's images)
# Env: BUILD_DIR (default build-shots, a Release build), SIZES (default 1366x768,1920x1080), PALETTES ("light dark"),
#      SHOTS (comma list, default all: curve-guide sizing-page curve-page experiments-page advisor-page ldap-page
#      ldap-probe ldap-agents history-page disk-page disk-suite disk-under-load workload-page replication-page: the demo directory with a
#      replica and a 10 s marker probe), XVFB=1 to grab what an X server shows instead
#      (xvfb-run, QT_QPA_PLATFORM=xcb), CURVE_RECORD=file: the curve record the Curve page shows (the sandbox is
#      too small for a cache curve: its own sweep is flat; use a dirbench-cli curve --json record of a real server).
set -euo pipefail
cd "$(dirname "$0")/.."
readme=0
if [ "${1:-}" = --readme ]; then readme=1; shift; fi
source scripts/deps.sh
dirbench_install "${DIRBENCH_PKGS[@]}"
BUILD_DIR=${BUILD_DIR:-build-shots}
out=${1:-$BUILD_DIR/screenshots}
dirbench_ccache "$BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "$DIRBENCH_LAUNCHER" >/dev/null
nice -n 10 cmake --build "$BUILD_DIR" -j"$(nproc)" --target dirbench-screenshots dirbench-cli >/dev/null
prog=$BUILD_DIR/tests/ui/dirbench-screenshots
args=(--out "$out" --sizes "${SIZES:-1366x768,1920x1080}")
[ -n "${SHOTS:-}" ] && args+=(--shots "$SHOTS")
[ -n "${CURVE_RECORD:-}" ] && args+=(--curve-record "$CURVE_RECORD")
for palette in ${PALETTES:-light dark}; do
  echo "screenshots: $palette" >&2
  if [ "${XVFB:-0}" = 1 ]; then
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1920x1080x24" "$prog" "${args[@]}" --palette "$palette" --from-screen
  else
    QT_QPA_PLATFORM=offscreen "$prog" "${args[@]}" --palette "$palette"
  fi
done
if [ "$readme" = 1 ]; then
  cp -v "$out"/light-1366x768/*.png docs/screenshots/
fi
