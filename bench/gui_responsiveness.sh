#!/usr/bin/env bash
# gui_responsiveness.sh [BUILD_DIR] — does the window stay responsive with a big history and a live load?
#
# Makes two real disk records (dirbench-cli disk --json, 8 MiB, 1 s each) in a temporary data directory, then runs
# the driver (bench/gui_responsiveness.cpp, QT_QPA_PLATFORM=offscreen): a history of RUNS runs (default 10,000)
# written through the store, the main window, and the steps open History, filter (typed), show 500 more, compare
# two, a live search load against a sandbox slapd (LOAD_SECONDS, default 10), export a PDF report of them. A
# 1 ms precise-timer heartbeat (HEARTBEAT_MS; 0 = a zero timer, which keeps the GUI thread busy) measures the
# longest event-loop stall of each step; target < 50 ms. TRACE_EVENTS_MS=N lists every event of N ms or more. HOME, XDG dirs, TMPDIR
# and DIRBENCH_HISTORY point into the temporary directory, which is removed at the end. Nice'd: a bench.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
runs=${RUNS:-10000}
load=${LOAD_SECONDS:-10}
cli=$build/bin/dirbench-cli
driver=$build/bench/gui_responsiveness
for p in "$cli" "$driver"; do
    [ -x "$p" ] || { echo "gui_responsiveness: $p is not built (cmake --build $build --target dirbench-cli gui_responsiveness)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/dirbench-gui-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{home,config,data,cache,tmp,disk}
export HOME=$work/home XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache
export XDG_RUNTIME_DIR=$work/tmp TMPDIR=$work/tmp DIRBENCH_HISTORY=$work/data/history.sqlite
export QT_QPA_PLATFORM=offscreen QT_LOGGING_RULES='qt.qpa.*=false'
records=()
for profile in rand-read commit; do
    out=$work/$profile.json
    extra=(); [ "$profile" = rand-read ] && extra=(--qd 4)
    nice -n 10 "$cli" disk --dir "$work/disk" --profile "$profile" --size 8M --duration 1 --interval 0.1 \
        "${extra[@]}" --quiet --no-history --json "$out" >/dev/null
    records+=(--record "$out")
done
echo "gui_responsiveness: $runs runs, a ${load}-second live load; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
nice -n 10 "$driver" --runs "$runs" --load-seconds "$load" --heartbeat-ms "${HEARTBEAT_MS:-1}" \
    --trace-events-ms "${TRACE_EVENTS_MS:-0}" "${records[@]}"
