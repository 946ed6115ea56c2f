#!/usr/bin/env bash
# Runs every fuzz target built in BUILD_DIR for SECONDS each, two at a time, from the corpora in tests/fuzz/corpus
# (new inputs go to a scratch copy, so the repository's corpora stay small). Fails on the first finding: the
# crashing input is kept in BUILD_DIR/findings/ and printed as a path.
# Usage: tests/fuzz/run.sh BUILD_DIR [SECONDS]        (default 60)
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [SECONDS]}
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build/findings"
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$here/../sanitizers/lsan.supp
export QT_QPA_PLATFORM=offscreen

run_one() {
    local target=$1 name=${1#fuzz_}
    local work="$build/corpus-$name"
    rm -rf "$work" && mkdir -p "$work" && cp -r "$here/corpus/$name/." "$work/" 2>/dev/null || true
    if "$build/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$build/findings/$target-" "$work" >"$build/$target.log" 2>&1; then
        echo "fuzz: $target: $(grep -E '^stat::number_of_executed_units' "$build/$target.log" | awk '{print $2}') runs" \
            "in ${seconds} s, no finding"
    else
        echo "fuzz: $target: FINDING (log $build/$target.log)"; tail -40 "$build/$target.log"
        return 1
    fi
}

targets=()
for t in "$build"/fuzz_*; do [ -x "$t" ] && [ -f "$t" ] && targets+=("$(basename "$t")"); done
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: no targets in $build" >&2; exit 1; }
status=0
for ((i = 0; i < ${#targets[@]}; i += 2)); do
    pids=()
    for t in "${targets[@]:i:2}"; do run_one "$t" & pids+=($!); done
    for p in "${pids[@]}"; do wait "$p" || status=1; done
done
exit $status
