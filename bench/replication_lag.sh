#!/usr/bin/env bash
# replication_lag.sh — replication lag under a write ramp, and how fast a stopped consumer is noticed.
#
# An OpenLDAP pair (dirbench-cli sandbox start --replicas 1: a provider and a syncrepl consumer, ENTRIES entries,
# on 127.0.0.1 only) and three runs of dirbench-cli:
#   1. the supplier's limit: a closed-loop modify load (dirbench-cli ldap modify, CAL_S s) -> its ok/s;
#   2. the ramp: dirbench-cli replication --mix modify=1 --ramp rate:100,200,400,...@STEP_S up to 1.2 x that limit
#      (STEPS overrides), markers at MARKER_RATE/s beside it -> per step the write rate (load + markers) and the
#      consumer's lag p50/p99 and its slope through the step, and the knee (the first step whose p99 exceeds 10 x
#      the first step's and keeps growing);
#   3. the detection delay: the probe alone (STOP_MARKER_RATE/s, STOP_DURATION s), the consumer SIGSTOPped for
#      STOP_S s at a known instant (STOP_LEAD s after the first interval line; CLOCK_MONOTONIC, the record's
#      t0_monotonic_s) -> the measured lag of the first marker written after the stop against the expected one
#      (STOP_S minus its offset after the stop): the difference is how long the watch took to see the catch-up.
#      Once per entry of WATCH_ARGS ('|'-separated extra options of the probe, e.g. "--poll-ms 5|--poll-ms 50";
#      the record's method, poll or push, is printed with each).
#
# Usage:  bench/replication_lag.sh          (no arguments)
# Env:    ENTRIES=100000    entries in the pair (ENTRIES=10000 for a quick run)
#         STEP_S=10         seconds per ramp step           STEPS=    e.g. 100,200,400 (default: from the limit)
#         MARKER_RATE=20    markers/s beside the ramp       CAL_S=5   seconds of the closed-loop calibration
#         THREADS=2 CONNECTIONS=2 OUTSTANDING=16            the write load's concurrency
#         STOP_S=3 STOP_LEAD=2 STOP_DURATION=10 STOP_MARKER_RATE=50
#         WATCH_ARGS=       see 3. (default: one run with the probe's defaults)
#         SYNC_WAIT=180     seconds to wait for the consumer to catch up before the ramp and each stop run
#         DIRBENCH_CLI=path   (default: build-perf/bin, build-core/bin, build/bin; it is copied first)
#         KEEP=1            keep the scratch directory (records, logs) and print its path
# Exit:   0 after the measurement; 2 bad usage; 1 cannot run (no CLI, no slapd or syncprov, a run failed).

set -u
export LC_ALL=C

usage() {
    sed -n '/^# Usage:/,/^# Exit:/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
[[ $# -eq 0 ]] || usage

ENTRIES=${ENTRIES:-100000}
STEP_S=${STEP_S:-10}
STEPS=${STEPS:-}
MARKER_RATE=${MARKER_RATE:-20}
CAL_S=${CAL_S:-5}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-2}
OUTSTANDING=${OUTSTANDING:-16}
STOP_S=${STOP_S:-3}
STOP_LEAD=${STOP_LEAD:-2}
STOP_DURATION=${STOP_DURATION:-10}
STOP_MARKER_RATE=${STOP_MARKER_RATE:-50}
WATCH_ARGS=${WATCH_ARGS:-}

bad() {
    echo "${0##*/}: $*" >&2
    usage
}
whole() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
if ! whole "$ENTRIES" || ((ENTRIES < 100 || ENTRIES > 10000000)); then bad "ENTRIES must be 100 to 10000000"; fi
if ! whole "$STEP_S" || ((STEP_S > 600)); then bad "STEP_S must be 1 to 600 seconds"; fi
[[ -z $STEPS || $STEPS =~ ^[0-9]+(,[0-9]+)*$ ]] || bad "STEPS must be rates separated by commas"
for v in MARKER_RATE CAL_S THREADS CONNECTIONS OUTSTANDING STOP_S STOP_LEAD STOP_DURATION STOP_MARKER_RATE; do
    whole "${!v}" || bad "$v must be a whole number >= 1"
done
((STOP_LEAD + STOP_S + 2 <= STOP_DURATION)) || bad "STOP_DURATION must leave room for STOP_LEAD + STOP_S + 2 s"

# shellcheck source=bench/lib/ldapbench.sh
. "$(cd "$(dirname "$0")" && pwd)/lib/ldapbench.sh"
lb_init replication_lag
lb_find_cli
PY=$LB_HERE/replicationlag.py
REPLICA_URI=
REPLICA_PID=

start_pair() {
    local out=$LB_WORK/sandbox.env key value
    echo "starting an OpenLDAP pair (provider + 1 syncrepl consumer) with $ENTRIES entries..."
    "$LB_CLI" sandbox start --replicas 1 --entries "$ENTRIES" --dir "$LB_WORK" >"$out" 2>"$LB_WORK/sandbox.err" ||
        lb_die "sandbox start failed: $(cat "$LB_WORK/sandbox.err")"
    while IFS='=' read -r key value || [[ -n $key ]]; do
        case $key in
        URI) SBX_URI=$value ;;
        BIND_DN) SBX_BIND_DN=$value ;;
        PASSWORD_FILE) SBX_PASSWORD_FILE=$value ;;
        PEOPLE_BASE) SBX_PEOPLE_BASE=$value ;;
        DIR) SBX_DIR=$value ;;
        REPLICA1_URI) REPLICA_URI=$value ;;
        REPLICA1_PID) REPLICA_PID=$value ;;
        esac
    done <"$out"
    [[ -n ${SBX_URI:-} && -n $REPLICA_URI && -n $REPLICA_PID && -n ${SBX_DIR:-} ]] ||
        lb_die "sandbox printed no URI, REPLICA1_URI, REPLICA1_PID or DIR"
    [[ $SBX_URI == ldap://127.0.0.1:* && $REPLICA_URI == ldap://127.0.0.1:* ]] ||
        lb_die "the pair is not on 127.0.0.1 ($SBX_URI, $REPLICA_URI)"
    echo "supplier $SBX_URI, consumer $REPLICA_URI (pid $REPLICA_PID)"
}

start_pair
AUTH=(--bind-dn "$SBX_BIND_DN" --password-file "$SBX_PASSWORD_FILE")
MODIFY=(--dn "uid=user[0-$((ENTRIES - 1))],$SBX_PEOPLE_BASE" --attr description --value 'bench-[0-999999]')
CONC=(--threads "$THREADS" --connections "$CONNECTIONS" --outstanding "$OUTSTANDING")
MARKER=cn=dirbench-bench-marker,dc=example,dc=com

echo
echo "== 1. the supplier's modify limit (closed loop, $CAL_S s)"
"$LB_CLI" ldap modify --uri "$SBX_URI" "${AUTH[@]}" "${MODIFY[@]}" "${CONC[@]}" --duration "$CAL_S" --quiet \
    --no-history --json "$LB_WORK/limit.json" >"$LB_WORK/limit.log" 2>&1 || lb_die "calibration failed: $(tail -3 "$LB_WORK/limit.log")"
LIMIT=$(python3 "$PY" okrate "$LB_WORK/limit.json")
echo "closed-loop modify: $LIMIT ok/s"
[[ -n $STEPS ]] || STEPS=$(python3 "$PY" steps "$LIMIT")

# The consumer may still be working off a backlog (the calibration's, the ramp's): the ramp and each stop start on
# a pair in step (the same contextCSN on both servers), waited for up to SYNC_WAIT s.
context_csn() {
    ldapsearch -x -LLL -o ldif-wrap=no -H "$1" -D "$SBX_BIND_DN" -y "$SBX_PASSWORD_FILE" -b dc=example,dc=com -s base \
        contextCSN 2>/dev/null | awk 'tolower($1) == "contextcsn:" { print $2 }' | sort | tr '\n' ' '
}
wait_in_sync() {
    local waited=0 a b
    while :; do
        a=$(context_csn "$SBX_URI")
        b=$(context_csn "$REPLICA_URI")
        [[ -n $a && $a == "$b" ]] && break
        ((waited >= ${SYNC_WAIT:-180})) && lb_die "the consumer did not catch up within ${SYNC_WAIT:-180} s"
        sleep 1
        waited=$((waited + 1))
    done
    echo "the consumer is in step with the supplier (waited ${waited} s)"
}


echo
echo "== 2. lag against a write ramp: rate:$STEPS@$STEP_S (modify), markers $MARKER_RATE/s"
wait_in_sync # the calibration's backlog would make the first step's lag, the knee's yardstick, too high
"$LB_CLI" replication --supplier "$SBX_URI" --consumer "$REPLICA_URI" "${AUTH[@]}" --marker-dn "$MARKER" \
    --marker-rate "$MARKER_RATE" --mix modify=1 "${MODIFY[@]}" "${CONC[@]}" --ramp "rate:$STEPS@$STEP_S" \
    --warmup 2 --no-history --json "$LB_WORK/ramp.json" >"$LB_WORK/ramp.log" 2>&1
rc=$?
[[ -s $LB_WORK/ramp.json ]] || lb_die "the ramp wrote no record (exit $rc): $(tail -5 "$LB_WORK/ramp.log")"
python3 "$PY" ramp "$LB_WORK/ramp.json" # a failed run says so, with what it measured

echo
echo "== 3. detection delay: the consumer stopped for $STOP_S s, markers $STOP_MARKER_RATE/s"
wait_in_sync
IFS='|' read -r -a WATCHES <<<"$WATCH_ARGS"
((${#WATCHES[@]})) || WATCHES=("")
i=0
for w in "${WATCHES[@]}"; do
    i=$((i + 1))
    read -r -a extra <<<"$w"
    echo "-- probe options: ${w:-(defaults)}"
    python3 "$PY" stop "$REPLICA_PID" "$STOP_S" "$STOP_LEAD" "$LB_WORK/stop$i.json" -- "$LB_CLI" replication \
        --supplier "$SBX_URI" --consumer "$REPLICA_URI" "${AUTH[@]}" --marker-dn "$MARKER" \
        --marker-rate "$STOP_MARKER_RATE" --duration "$STOP_DURATION" "${extra[@]}" --no-history \
        --json "$LB_WORK/stop$i.json" || lb_die "the stop run failed"
    wait_in_sync
done
