#!/usr/bin/env bash
# log_parse.sh — `dirbench-cli workload analyze` on a generated 1 GB access log in each format DirBench reads:
# MB/s for the whole command and its peak RSS (/usr/bin/time -v), beside 389-ds's own logconv (/usr/bin/logconv)
# on the 389 log when it is installed.
#
# The log (bench/lib/gen389log.cpp, compiled here): 200 connections in flight, interleaved line by line, each
# connecting, binding (3 % rebinds), running 5..400 operations (search 85 % on uid=userN with Zipf(1.0) keys over
# 100,000 users, AND and substring filters too; modify 10 %, add/delete 3 %, compare 2 %), unbinding and closing;
# nanosecond timestamps, wtime/optime/etime, notes=U on 1 % of searches. bench/lib/convlog.cpp writes the same
# operations as the other formats: OpenLDAP 2.5 logfile prefix ("hex.hex 0xthread"), 2.4 prefix (whole hex
# seconds), syslog RFC 3164 and RFC 5424 around the 2.5 messages, and slapo-accesslog LDIF. Each converted log is
# a little smaller or larger than the 389 one; its MB/s is of its own size.
# Target: >= 100 MB/s for the whole command (read, parse, join, template, analyse, write the JSON) in each format,
# peak RSS < 200 MB.
#
# Usage:  bench/log_parse.sh
# Env:    SIZE_MB=1000   size of the 389 log   RUNS=3   runs per format (the median is the verdict)
#         FORMATS="389 ol25 ol24 rfc3164 rfc5424 ldif"   the formats to measure
#         LOGCONV=1      also time logconv (default: when /usr/bin/logconv or logconv.pl is installed; 0 = skip)
#         LOGCONV_MB=100 logconv reads the first this many MB of the 389 log (it is a Perl script: the whole GB
#                        takes many minutes); its MB/s is of that part
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
g++ -O2 -std=c++17 -o "$scratch/convlog" bench/lib/convlog.cpp
log=$scratch/access
t0=$(date +%s.%N)
"$scratch/gen389log" "$SIZE_MB" >"$log"
t1=$(date +%s.%N)
echo "389 log: $(stat -c %s "$log") bytes, $(wc -l <"$log") lines, generated in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"

secondsOf() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$1"; }
rssOf() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure NAME FILE: RUNS runs of `workload analyze`; one row (median MB/s, largest peak RSS, operations).
verdict=PASS
measure() {
  local name=$1 file=$2 bytes rates=() rss=0 r wall ops
  bytes=$(stat -c %s "$file")
  cat "$file" >/dev/null # into the page cache, as for every run after
  for run in $(seq 1 "$RUNS"); do
    /usr/bin/time -v -o "$scratch/time" "$CLI" workload analyze --log "$file" --json "$scratch/w.json" \
      >"$scratch/out.$name" 2>"$scratch/err.$name" || { echo "$name: exit $? $(head -c 400 "$scratch/err.$name")"; verdict=FAIL; return; }
    wall=$(secondsOf "$scratch/time")
    r=$(rssOf "$scratch/time"); [ "$r" -gt "$rss" ] && rss=$r
    rates+=("$(awk -v b="$bytes" -v s="$wall" 'BEGIN { printf "%.1f", b / 1e6 / s }')")
  done
  ops=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["operations_total"])' "$scratch/w.json")
  local med; med=$(median "${rates[@]}")
  printf '%-8s %12s %10s %12s %12s  %s\n' "$name" "$bytes" "$med" "$rss" "$ops" "${rates[*]}"
  awk -v m="$med" -v r="$rss" 'BEGIN { exit !(m >= 100 && r < 200) }' || verdict=FAIL
  grep -h 'warning' "$scratch/err.$name" || true
}

printf '%-8s %12s %10s %12s %12s  %s\n' format bytes MB/s peak_RSS_MB operations "MB/s of each run"
for f in ${FORMATS:-389 ol25 ol24 rfc3164 rfc5424 ldif}; do
  if [ "$f" = 389 ]; then
    measure 389 "$log"
  else
    "$scratch/convlog" "$f" <"$log" >"$scratch/access.$f"
    measure "$f" "$scratch/access.$f"
    rm -f "$scratch/access.$f"
  fi
done

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
  lwall=$(secondsOf "$scratch/time.logconv")
  lrss=$(rssOf "$scratch/time.logconv")
  echo "logconv ($logconv) on the first $pbytes bytes: $lwall s, $(awk -v b="$pbytes" -v s="$lwall" 'BEGIN { printf "%.1f", b / 1e6 / s }') MB/s, peak RSS ${lrss} MB"
fi
echo "verdict: $verdict (every format >= 100 MB/s for the whole command, peak RSS < 200 MB)"
