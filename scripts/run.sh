#!/usr/bin/env bash
# Installs what is missing, builds, and starts the DirBench GUI. Without a display it says so and runs a short
# headless demo with dirbench-cli instead.
# Usage: scripts/run.sh [arguments for dirbench]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
dirbench_install "${DIRBENCH_PKGS[@]}"
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ -n "${QT_QPA_PLATFORM:-}" ]; then
  exec "$BUILD_DIR/bin/dirbench" "$@"
fi
echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset): running a short headless demo instead." >&2
echo "For the GUI, run this from a desktop session, or with ssh -X, or: xvfb-run -a scripts/run.sh" >&2
demo_dir=${DIRBENCH_DEMO_DIR:-${TMPDIR:-/var/tmp}}
echo
echo "== dirbench-cli disk --profile dd --dir $demo_dir   (the seed's dd command)"
"$BUILD_DIR/bin/dirbench-cli" disk --profile dd --dir "$demo_dir" --quiet
echo
echo "== dirbench-cli disk --profile seq-write --size 256M --duration 3 --dir $demo_dir   (direct I/O, sustained)"
"$BUILD_DIR/bin/dirbench-cli" disk --profile seq-write --size 256M --duration 3 --dir "$demo_dir"
