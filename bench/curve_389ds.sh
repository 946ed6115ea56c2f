#!/usr/bin/env bash
# curve_389ds.sh — the 389-ds entry-cache coverage vs ops/s curve, measured by DirBench on a real 389-ds.
#
# A private 389 Directory Server (dirbench-cli sandbox start --server 389ds: ns-slapd from 389-ds-base, BDB,
# ENTRIES generated inetOrgPerson entries of about 1 KB) serves exact-match searches on a uniformly random
# uid in user0..user{ENTRIES-1} (whole entries returned, as ldclt does), and dirbench-cli curve sweeps the
# entry cache (nsslapd-cachememsize, autosize off) over POINTS twice:
#   online    one server process, resized online between points (the record warns "online")
#   restart   the sandbox restarted before each point (--restart; its smallest point is 1 %)
# Each point: the cache filled by one subtree search, WARMUP s of load, then POINT_SECONDS s measured; the hit ratio
# is per search, from the interval deltas of entrycachehits/entrycachetries (389-ds looks up twice per search).
#
# What to compare with (shared/reference/ldap-servers-measured.md §4, 389-ds 2.3.1, 100k entries, ldclt 8
# threads, 20 s warm-up + 20 s): online about 7.1k ops/s at ~0 % coverage rising to 15.3k at ~97 %;
# restarted per point 10.5k at 1 %, 13.6k at 50 %, 19.4k at ~99 %.
#
# Measured here (2026-11-30, 389-ds 2.3.1, 100k entries, 7,769 bytes per cached entry, POINT_SECONDS=10
# WARMUP=10, default load 2x4x4). Run 1 shared the 2 cores with three other jobs (load average 5-13); run 2 had
# them at nice 19 (load average 2-16 counting them, the bench had the CPUs), so its absolute ops/s are the better
# ones; single points vary by +-20 %:
#   target %          0     10     25     50     75    100
#   run 2 online  ops/s 5768   4584   5247   6370   7955   8261   hit % 0.3 10.3 25.4 50.4 74.9 100.0
#                 fit t_hit 117 us, t_miss 201 us
#   run 2 restart ops/s 4811   4978   5162   6254   8325  12121   hit % 1.3 10.2 25.1 50.3 75.1 100.0
#                 fit t_hit 88 us, t_miss 217 us  (1 % -> 100 %: x2.52; the reference 10.5k -> 19.4k: x1.85)
#   run 1 online  ops/s 4855   4014   4891   7113   5670   7156   fit t_hit 137 us, t_miss 224 us
#   run 1 restart ops/s 5453   4856   5691   6433   6081   8979   fit t_hit 125 us, t_miss 198 us
# Sandbox (generate + import + start) 23-71 s for 100k entries; each sweep 178-200 s.
#
# Usage:  bench/curve_389ds.sh          (no arguments; 389-ds-base installed; root or a user with a name)
# Env:    ENTRIES=100000   POINTS=0,10,25,50,75,100   POINT_SECONDS=20   WARMUP=20
#         QUICK=1          ENTRIES=10000, POINT_SECONDS=5, WARMUP=3 (about three minutes)
#         MODES="online restart"
#         THREADS=2 CONNECTIONS=4 OUTSTANDING=4   the load (dirbench-cli curve --threads ...)
#         DIRBENCH_CLI=path   (default: build-curve/bin, build-perf/bin, build/bin; copied first)
#         KEEP=1           keep the scratch directory (records, logs) and print its path
# Exit:   0 after the measurement; 2 bad usage; 1 cannot run (no CLI, no 389-ds-base) or a sweep failed.

set -u
export LC_ALL=C

usage() {
    sed -n '/^# Usage:/,/^# Exit:/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
[[ $# -eq 0 ]] || usage

if [[ ${QUICK:-0} == 1 ]]; then
    d_entries=10000 d_sec=5 d_warm=3
else
    d_entries=100000 d_sec=20 d_warm=20
fi
ENTRIES=${ENTRIES:-$d_entries}
SECONDS_PER_POINT=${POINT_SECONDS:-$d_sec}
WARMUP=${WARMUP:-$d_warm}
POINTS=${POINTS:-0,10,25,50,75,100}
MODES=${MODES:-online restart}
LOAD=(--threads "${THREADS:-2}" --connections "${CONNECTIONS:-4}" --outstanding "${OUTSTANDING:-4}")

die() {
    echo "${0##*/}: $*" >&2
    exit 1
}

root=$(cd "$(dirname "$0")/.." && pwd)
cli_src=${DIRBENCH_CLI:-}
if [[ -z $cli_src ]]; then
    for b in build-curve build-perf build; do
        [[ -x $root/$b/bin/dirbench-cli ]] && { cli_src=$root/$b/bin/dirbench-cli; break; }
    done
fi
[[ -n $cli_src && -x $cli_src ]] || die "dirbench-cli not found (build it, or set DIRBENCH_CLI)"
command -v ns-slapd >/dev/null 2>&1 || [[ -x /usr/sbin/ns-slapd ]] ||
    die "ns-slapd not found: apt-get install -y --no-install-recommends 389-ds-base"

work=$(mktemp -d "${TMPDIR:-/tmp}/curve389.XXXXXX") || die "cannot make a scratch directory"
cli=$work/dirbench-cli
cp "$cli_src" "$cli" || die "cannot copy $cli_src"
sbx_dir=
cleanup() {
    [[ -n $sbx_dir ]] && "$cli" sandbox stop --server 389ds --dir "$sbx_dir" >/dev/null 2>&1
    if [[ ${KEEP:-0} == 1 ]]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "389-ds sandbox: $ENTRIES entries (load average $(cut -d' ' -f1-3 /proc/loadavg))"
t0=$(date +%s.%N)
"$cli" sandbox start --server 389ds --entries "$ENTRIES" --dir "$work" --json >"$work/sandbox.json" 2>"$work/sandbox.log" ||
    { cat "$work/sandbox.log" >&2; die "the 389-ds sandbox did not start"; }
t1=$(date +%s.%N)
read -r sbx_dir uri bind_dn pw_file base < <(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
print(s["dir"], s["uri"], s["bind_dn"].replace(" ", "\x01"), s["password_file"], s["people_base"])' "$work/sandbox.json")
bind_dn=${bind_dn//$'\x01'/ }
awk -v a="$t0" -v b="$t1" -v u="$uri" -v d="$sbx_dir" 'BEGIN { printf "sandbox ready in %.1f s: %s (%s)\n", b - a, u, d }'

status=0
for mode in $MODES; do
    extra=()
    [[ $mode == restart ]] && extra=(--restart --sandbox-dir "$sbx_dir")
    echo "sweep ($mode): points $POINTS %, ${SECONDS_PER_POINT} s each after ${WARMUP} s of warm-up"
    ts=$(date +%s)
    "$cli" curve --uri "$uri" --bind-dn "$bind_dn" --password-file "$pw_file" --base "$base" \
        --filter "uid=user[0-$((ENTRIES - 1))]" --mode cache-sweep --points "$POINTS" \
        --seconds-per-point "$SECONDS_PER_POINT" --warmup "$WARMUP" "${LOAD[@]}" "${extra[@]}" \
        --json "$work/$mode.json" --no-history --quiet >"$work/$mode.log" 2>&1 || status=1
    echo "  took $(($(date +%s) - ts)) s"
done

python3 - "$work" $MODES <<'EOF'
import json, os, sys
work, modes = sys.argv[1], sys.argv[2:]
for mode in modes:
    path = os.path.join(work, mode + ".json")
    try:
        r = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"\n{mode}: no record ({e})")
        continue
    s = r.get("summary", {})
    print(f"\n{mode}: status {r.get('status')} {r.get('failure') or ''}")
    print(f"  bytes per cached entry {s.get('bytes_per_entry')}, entries {s.get('entries'):.0f}")
    print(f"  {'target %':>8} {'coverage %':>10} {'hit %':>7} {'ops/s':>10} {'cache entries':>13} {'p99 ms':>8}")
    for p in s.get("points", []):
        hit = p.get("hit_ratio")
        lat = p.get("latency_ms") or {}
        print(f"  {p['target']*100:8.1f} {p['coverage']*100:10.1f} {'-' if hit is None else f'{hit*100:.1f}':>7}"
              f" {p['ops_per_s']:10.1f} {p.get('cache_entries') or 0:13.0f} {lat.get('p99') or 0:8.3f}")
    if s.get("t_hit_us") is not None:
        print(f"  fitted: t_hit {s['t_hit_us']} us, t_miss {s['t_miss_us']} us ({(s.get('fit') or {}).get('method')})")
    for w in r.get("warnings", []):
        print(f"  warning ({w['code']}): {w['message'][:160]}")
EOF
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
