#!/usr/bin/env bash
# agents_scale.sh — what one coordinator costs as agents grow (issue 15), and whether a 3-agent run's merged
# figures agree with the agents' own counts and with the server.
#
# A private slapd (dirbench-cli sandbox, ENTRIES entries) takes a search load from `--agents local:N` (N agent
# processes of this build, no ssh) for N in AGENTS_LIST, each agent at RATE_PER_AGENT ops/s on one thread, for
# DURATION seconds with 1 s intervals. For each N it prints:
#   coordinator CPU per interval  (utime+stime of the coordinator from /proc/PID/stat over the whole run, agents
#                                  not included, divided by the number of intervals: launch, clock probes,
#                                  merging and record included)
#   coordinator peak RSS          (VmHWM of /proc/PID/status, read until it exits)
#   start spread                  (the record's start_spread_ms: the agents' actual starts on this clock)
#   merged ok vs Σ agents         (must be equal)
# Then a 3-agent run: merged ok_per_s, the sum of the agents' own ok / their seconds, and the server's
# search_completed per second over the run (cn=Monitor, read by the coordinator only).
#
# Usage:  bench/agents_scale.sh            (no arguments)
# Env:    DURATION=6   AGENTS_LIST="2 8 32 64"   RATE_PER_AGENT=20   ENTRIES=10000
#         DIRBENCH_CLI=path   (default: build-perf/bin, build-core/bin, build/bin; it is copied first)
#         KEEP=1       keep the scratch directory (records, logs) and print its path
# Exit:   0 after a measurement; 2 bad usage; 1 cannot run (no CLI, no slapd).

set -u
export LC_ALL=C

usage() {
    sed -n '/^# Usage:/,/^# Exit:/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
[[ $# -eq 0 ]] || usage
DURATION=${DURATION:-6}
RATE=${RATE_PER_AGENT:-20}
ENTRIES=${ENTRIES:-10000}
read -r -a COUNTS <<<"${AGENTS_LIST:-2 8 32 64}"
[[ $DURATION =~ ^[1-9][0-9]*$ ]] || usage
[[ $RATE =~ ^[1-9][0-9]*$ ]] || usage
for n in "${COUNTS[@]}"; do [[ $n =~ ^[1-9][0-9]*$ ]] || usage; done

# shellcheck source=bench/lib/ldapbench.sh
. "$(cd "$(dirname "$0")" && pwd)/lib/ldapbench.sh"
lb_init agents_scale
lb_find_cli
lb_sandbox_start "$ENTRIES"
PY=python3
TCK=$(getconf CLK_TCK)

# run N JSON -> prints "cpu_s peak_kb" of the coordinator
run() {
    local n=$1 json=$2 pid ticks0 hwm=0 line
    "$LB_CLI" ldap search --uri "$SBX_URI" --bind-dn "$SBX_BIND_DN" --password-file "$SBX_PASSWORD_FILE" \
        --base "$SBX_PEOPLE_BASE" --filter "(uid=user[0-$((ENTRIES - 1))])" --agents "local:$n" \
        --agent-command "$LB_CLI" --threads "$n" --rate $((n * RATE)) --duration "$DURATION" \
        --no-history --quiet --json "$json" >"$json.out" 2>"$json.err" &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        line=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null) && [[ -n $line ]] && hwm=$line
        line=$(lb_ticks "$pid")
        [[ $line != "0 0" ]] && ticks0=$line
        sleep 0.1
    done
    wait "$pid"
    read -r ut st <<<"${ticks0:-0 0}"
    echo "$(awk -v t=$((ut + st)) -v k="$TCK" 'BEGIN {printf "%.3f", t / k}') $hwm"
}

printf '%7s %22s %16s %16s %22s\n' agents "coord CPU/interval ms" "coord peak RSS" "start spread ms" "merged ok = Σ agents"
for n in "${COUNTS[@]}"; do
    json=$LB_WORK/scale-$n.json
    read -r cpu hwm <<<"$(run "$n" "$json")"
    "$PY" - "$json" "$cpu" "$hwm" "$n" <<'PYEOF'
import json, sys
path, cpu, hwm, n = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
try:
    r = json.load(open(path))
except Exception as e:
    print(f"{n:7d}  no record ({e}); see {path}.err"); sys.exit(0)
iv = max(1, len(r.get("intervals", [])))
agents = sum(a.get("ok", 0) for a in r.get("agents", []))
ok = r["summary"]["ok"]
print(f"{n:7d} {1000 * cpu / iv:22.1f} {hwm / 1024:13.1f} MB {r.get('start_spread_ms', float('nan')):16.3f} "
      f"{'yes' if ok == agents else 'NO'} ({int(ok)} / {int(agents)}) {r['status']}")
PYEOF
done

json=$LB_WORK/three.json
run 3 "$json" >/dev/null
"$PY" - "$json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["summary"]
own = sum(a["ok"] / max(1e-9, a["summary"]["seconds"]) for a in r["agents"])
srv = (s.get("server") or {}).get("search_completed")
print()
print(f"3 agents: merged ok_per_s {s['ok_per_s']:.1f}, Σ agents' own ok/s {own:.1f}, "
      f"cn=Monitor search_completed/s {srv / s['seconds'] if srv is not None else float('nan'):.1f} "
      f"(the server's includes the coordinator's monitor reads and the warm-up's last 50 ms)")
PYEOF
