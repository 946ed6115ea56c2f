#!/usr/bin/env bash
# Installs what is missing, builds the program it starts (no test), and starts the DirBench GUI with the demo
# directory (--demo; not when --uri or --no-demo is given). Without a display it says so, builds dirbench-cli instead
# and runs a short headless demo with it. The other program: cmake --build build --target dirbench-cli (or dirbench).
# Usage: scripts/run.sh [arguments for dirbench]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
dirbench_install "${DIRBENCH_PKGS[@]}"
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja "${DIRBENCH_RUN_CMAKE_ARGS[@]}" >/dev/null
display=
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ -n "${QT_QPA_PLATFORM:-}" ]; then display=1; fi
target=${DIRBENCH_RUN_TARGETS[1]}
[ -n "$display" ] && target=${DIRBENCH_RUN_TARGETS[0]}
cmake --build "$BUILD_DIR" -j"$(nproc)" --target "$target"
if [ -n "$display" ]; then
  demo=(--demo)
  for a in "$@"; do [[ $a == --uri* || $a == --no-demo ]] && demo=(); done
  exec "$BUILD_DIR/bin/dirbench" "${demo[@]}" "$@"
fi
echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset): running a short headless demo instead." >&2
echo "For the GUI, run this from a desktop session, or with ssh -X, or: xvfb-run -a scripts/run.sh" >&2
cli="$BUILD_DIR/bin/dirbench-cli"
demo_dir=${DIRBENCH_DEMO_DIR:-/var/tmp}
echo
echo "== dirbench-cli disk --profile dd --dir $demo_dir   (the seed's dd command)"
"$cli" disk --profile dd --dir "$demo_dir" --quiet
echo
echo "== dirbench-cli sandbox start --entries 10000   (the demo directory: a private slapd on 127.0.0.1)"
env_file=$(mktemp)
trap '[ -n "${DIR:-}" ] && "$cli" sandbox stop --dir "$DIR" >/dev/null 2>&1; rm -f "$env_file"' EXIT
"$cli" sandbox start --entries 10000 >"$env_file"
# shellcheck disable=SC1090
source "$env_file"
echo
echo "== dirbench-cli ldap probe --uri $URI"
"$cli" ldap probe --uri "$URI" --bind-dn "$BIND_DN" --password-file "$PASSWORD_FILE" | sed -n 1,12p # not head: the CLI would die of SIGPIPE
echo
echo "== dirbench-cli ldap search --uri $URI --filter 'uid=user[0-9999]' --duration 5"
"$cli" ldap search --uri "$URI" --bind-dn "$BIND_DN" --password-file "$PASSWORD_FILE" --base "$PEOPLE_BASE" \
  --filter 'uid=user[0-9999]' --attrs 1.1 --duration 5
