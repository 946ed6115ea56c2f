#!/usr/bin/env bash
# log_parse.sh — `dirbench-cli workload analyze` on a generated 1 GB 389-ds access log: MB/s for the whole command
# and its peak RSS (/usr/bin/time -v), beside 389-ds's own logconv.pl (/usr/bin/logconv) when it is installed.
#
# The log (bench/lib/gen389log.cpp, compiled here): 200 connections in flight, interleaved line by line, each
# connecting, binding (3 % rebinds), running 5..400 operations (search 85 % on uid=userN with Zipf(1.0) keys over
# 100,000 users, AND and substring filters too; modify 10 %, add/delete 3 %, compare 2 %), unbinding and closing;
# nanosecond timestamps, wtime/optime/etime, notes=U on 1 % of searches.
# Target: >= 100 MB/s for the whole command (read, parse, join, template, analyse, write the JSON).
#
# Usage:  bench/log_parse.sh
# Env:    SIZE_MB=1000   size of the log      RUNS=3   runs (the median is the verdict)
#         LOGCONV=1      also time logconv (default: when /usr/bin/logconv or logconv.pl is installed; 0 = skip)
#         LOGCONV_MB=100 logconv reads the first this many MB of the log (it is a Perl script: the whole GB takes
#                        many minutes); its MB/s is of that part
#         DIRBENCH_CLI=path   (default: build/bin/dirbench-cli)      KEEP=1  keep the scratch directory
# Exit:   0 after a measurement (whatever the verdict); 1 cannot run (no CLI, no compiler).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-1000}
RUNS=${RUNS:-3}
CLI=${DIRBENCH_CLI:-build/bin/dirbench-cli}
[ -x "$CLI" ] || { echo "log_parse: no dirbench-cli at $CLI (build it, or set DIRBENCH_CLI)" >&2; exit 1; }
command -v g++ >/dev/null || { echo "log_parse: g++ is needed for the generator" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "log_parse: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }
scratch=$(mktemp -d /tmp/dirbench-logparse.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$scratch"' EXIT

g++ -O2 -std=c++17 -o "$scratch/gen389log" bench/lib/gen389log.cpp
log=$scratch/access
t0=$(date +%s.%N)
"$scratch/gen389log" "$SIZE_MB" >"$log"
t1=$(date +%s.%N)
bytes=$(stat -c %s "$log")
lines=$(wc -l <"$log")
echo "log: $bytes bytes, $lines lines, generated in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
cat "$log" >/dev/null # into the page cache, as for every run after

rates=()
printf '%-5s %10s %10s %12s %12s\n' run wall_s MB/s peak_RSS_MB operations
for run in $(seq 1 "$RUNS"); do
  /usr/bin/time -v -o "$scratch/time.$run" "$CLI" workload analyze --log "$log" --json "$scratch/w.json" \
    >"$scratch/out.$run" 2>"$scratch/err.$run"
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$scratch/time.$run")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$scratch/time.$run")
  ops=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["operations_total"])' "$scratch/w.json")
  rate=$(awk -v b="$bytes" -v s="$wall" 'BEGIN { printf "%.1f", b / 1e6 / s }')
  printf '%-5s %10s %10s %12s %12s\n' "$run" "$wall" "$rate" "$rss" "$ops"
  rates+=("$rate")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
med=$(median "${rates[@]}")
echo "summary: $(sed -n 2p "$scratch/out.1")"
sed -n 3,8p "$scratch/out.1"

logconv=""
for c in /usr/bin/logconv.pl /usr/bin/logconv; do [ -x "$c" ] && logconv=$c && break; done
if [ "${LOGCONV:-1}" = 0 ]; then
  echo "logconv: skipped (LOGCONV=0)"
elif [ -z "$logconv" ]; then
  echo "logconv: not installed (389-ds-base ships /usr/bin/logconv.pl or /usr/bin/logconv): no comparison"
else
  part=$scratch/access.part
  head -c "$((${LOGCONV_MB:-100} * 1000000))" "$log" | sed '$d' >"$part"
  pbytes=$(stat -c %s "$part")
  mkdir -p "$scratch/logconv.d"
  /usr/bin/time -v -o "$scratch/time.logconv" "$logconv" -D "$scratch/logconv.d" "$part" >"$scratch/logconv.out" 2>&1 || true
  lwall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$scratch/time.logconv")
  lrss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$scratch/time.logconv")
  echo "logconv ($logconv) on the first $pbytes bytes: $lwall s, $(awk -v b="$pbytes" -v s="$lwall" 'BEGIN { printf "%.1f", b / 1e6 / s }') MB/s, peak RSS ${lrss} MB"
fi
echo "median: $med MB/s for the whole command; target >= 100 MB/s: $(awk -v m="$med" 'BEGIN { print (m >= 100) ? "PASS" : "FAIL" }')"
