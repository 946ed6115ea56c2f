#!/usr/bin/env bash
# ldap_vs_ldclt.sh — DirBench's LDAP search load against ldclt (389-ds's load client), same server, same load.
#
# A private slapd (dirbench-cli sandbox, back-mdb, ENTRIES entries) serves exact-match searches on a uniformly
# random uid in user10000..user99999 (ldclt zero-pads XXXXX, so it cannot address user0..user9999), base
# ou=people,dc=example,dc=com, scope sub, both tools bound the same way (BIND) and asking for the same
# attributes (ATTRS):
#   ldclt     -e esearch,random -f uid=userXXXXX -r10000 -R99999 -n THREADS [-a PENDING] [-e attrlist=1.1]
#             (stopped with SIGINT after DURATION s: ldclt's own samples are 10 s long)
#   DirBench  dirbench-cli ldap search --filter 'uid=user[10000-99999]' --threads T --connections C
#             --outstanding W --duration DURATION [--attrs 1.1]
# Each tool runs in three configurations (LDCLT_CONFIGS, DB_CONFIGS), ROUNDS times, the two tools alternating
# (the order flips from pair to pair) so a slow phase of the host hurts both alike.
#
# Counted the same way for both, over the same kind of window: each client is started, and after 2 s (its
# connections made) the script reads, at the start and at the end of a DURATION-second window,
#   - the server's own count: monitorOpCompleted of cn=Search,cn=Operations,cn=Monitor (ldapsearch as the
#     sandbox admin; the reading search itself is subtracted) -> ops/s = delta / window wall time;
#   - the client's CPU: utime+stime of /proc/PID/stat (all threads) -> µs per op (= ms per 1,000 ops);
#   - slapd's CPU the same way (shown, not judged: a client that batches also saves the server work).
# Start-up and shutdown of either tool are outside the window. DirBench's own figures (client-counted ops,
# its getrusage CPU per op, latency) are printed beside them as a cross-check.
#
# Target: DirBench at its best configuration >= 1.2 x ldclt's best ops/s, at <= 0.5 x ldclt's client CPU/op.
#
# Usage:  bench/ldap_vs_ldclt.sh            (no arguments; root, or ldclt already installed)
# Env:    DURATION=20   seconds per run          ROUNDS=3      runs per configuration (medians)
#         QUICK=1       DURATION=5, ROUNDS=1, WARMUP=2 (about a minute)
#         ENTRIES=100000                          WARMUP=5      seconds of unrecorded load first
#         ATTRS=all     all: both tools get whole entries (ldclt's default); 1.1: both get no attributes
#         BIND=anon     anon | admin (the sandbox rootdn, for both tools; ldclt takes the password with -w)
#         LDCLT_CONFIGS="8 32 4x16"   THREADS or THREADSxPENDING (-a)
#         DB_CONFIGS="8x1x1 32x1x1 2x4x16"   THREADSxCONNECTIONSxOUTSTANDING
#         COALESCED_CONFIGS="2x4x16"   DirBench configurations also run with --coalesce-reads (read batching, opt-in:
#                       its latencies include the hold); judged as a second group against the same ldclt runs.
#                       Empty: none.
#         DIRBENCH_CLI=path   (default: build-perf/bin, build-core/bin, build/bin; it is copied first)
#         KEEP=1        keep the scratch directory (logs, records) and print its path
# Exit:   0 after a measurement (whatever the verdict); 2 bad usage; 1 cannot run (no CLI, no ldclt, no slapd).

set -u
export LC_ALL=C

usage() {
    sed -n '/^# Usage:/,/^# Exit:/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
[[ $# -eq 0 ]] || usage

if [[ ${QUICK:-0} == 1 ]]; then
    d_dur=5 d_rounds=1 d_warm=2
else
    d_dur=20 d_rounds=3 d_warm=5
fi
DURATION=${DURATION:-$d_dur}
ROUNDS=${ROUNDS:-$d_rounds}
WARMUP=${WARMUP:-$d_warm}
ENTRIES=${ENTRIES:-100000}
ATTRS=${ATTRS:-all}
BIND=${BIND:-anon}
read -r -a LDCLT_CFG <<<"${LDCLT_CONFIGS:-8 32 4x16}"
read -r -a DB_CFG <<<"${DB_CONFIGS:-8x1x1 32x1x1 2x4x16}"
read -r -a DBC_CFG <<<"${COALESCED_CONFIGS-2x4x16}"

bad() {
    echo "${0##*/}: $*" >&2
    usage
}
[[ $DURATION =~ ^[1-9][0-9]*$ ]] || bad "DURATION must be a whole number of seconds >= 1"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || bad "ROUNDS must be >= 1"
[[ $WARMUP =~ ^[0-9]+$ ]] || bad "WARMUP must be a whole number of seconds"
[[ $ENTRIES =~ ^[0-9]+$ ]] || bad "ENTRIES must be a number"
((ENTRIES >= 100000)) || bad "ENTRIES must be >= 100000 (uids up to user99999)"
[[ $ATTRS == all || $ATTRS == 1.1 ]] || bad "ATTRS must be all or 1.1"
[[ $BIND == anon || $BIND == admin ]] || bad "BIND must be anon or admin"
((${#LDCLT_CFG[@]} == ${#DB_CFG[@]})) || bad "LDCLT_CONFIGS and DB_CONFIGS need the same number of entries"
for c in "${LDCLT_CFG[@]}"; do [[ $c =~ ^[0-9]+(x[0-9]+)?$ ]] || bad "bad ldclt config '$c'"; done
for c in "${DB_CFG[@]}" "${DBC_CFG[@]}"; do [[ $c =~ ^[0-9]+x[0-9]+x[0-9]+$ ]] || bad "bad DirBench config '$c'"; done

# shellcheck source=bench/lib/ldapbench.sh
. "$(cd "$(dirname "$0")" && pwd)/lib/ldapbench.sh"
lb_init ldap_vs_ldclt
lb_need_ldclt
lb_find_cli
lb_sandbox_start "$ENTRIES"
PY=$(lb_py)
TSV=$LB_WORK/runs.tsv
: >"$TSV"
GROUP="search attrs=$ATTRS bind=$BIND"

ldclt_auth=()
db_auth=()
if [[ $BIND == admin ]]; then
    ldclt_auth=(-D "$SBX_BIND_DN" -w "$(head -n1 "$SBX_PASSWORD_FILE")")
    db_auth=(--bind-dn "$SBX_BIND_DN" --password-file "$SBX_PASSWORD_FILE")
fi
ldclt_attrs=()
db_attrs=()
if [[ $ATTRS == 1.1 ]]; then
    ldclt_attrs=(-e attrlist=1.1)
    db_attrs=(--attrs 1.1)
fi

LEAD=2 # seconds between starting a client and the measured window (connections made, threads running)

start_ldclt() { # CONFIG LOG
    local threads=${1%%x*} pending=()
    [[ $1 == *x* ]] && pending=(-a "${1#*x}")
    lb_start "$2" ldclt -H "$SBX_URI" -b "$SBX_PEOPLE_BASE" -f uid=userXXXXX -e esearch,random -r10000 -R99999 \
        -n "$threads" "${pending[@]}" -q "${ldclt_attrs[@]}" "${ldclt_auth[@]}"
}

start_db() { # CONFIG LOG SECONDS RECORD [--coalesce-reads]
    local t c w
    IFS=x read -r t c w <<<"$1"
    lb_start "$2" "$LB_CLI" ldap search --uri "$SBX_URI" "${db_auth[@]}" --base "$SBX_PEOPLE_BASE" \
        --filter 'uid=user[10000-99999]' "${db_attrs[@]}" --threads "$t" --connections "$c" --outstanding "$w" \
        --duration "$3" --quiet --json "$4" ${5:+"$5"}
}

measure() { # TOOL CONFIG ROUND (TOOL: ldclt, dirbench, or dirbench-coalesced)
    local tag=$1.$2.$3 ops wall user sys note group=$GROUP
    local log=$LB_WORK/$tag.log rec=$LB_WORK/$tag.json
    if [[ $1 == ldclt ]]; then
        start_ldclt "$2" "$log"
    elif [[ $1 == dirbench-coalesced ]]; then
        start_db "$2" "$log" $((LEAD + DURATION + 10)) "$rec" --coalesce-reads
        group="$GROUP coalesced-reads"
        set -- dirbench "$2" "$3"
    else
        start_db "$2" "$log" $((LEAD + DURATION + 10)) "$rec"
    fi
    local pid=$LB_PID
    local srv
    read -r ops wall user sys _ srv < <(lb_window Search "$pid" "$LEAD" "$DURATION")
    if [[ $1 == ldclt ]]; then
        lb_stop "$pid"
        note="ldclt: $(grep -o 'Exit status.*' "$log" | head -n1)"
    else
        lb_stop "$pid" # as ldclt: SIGINT after the window (DirBench's record then says "cancelled")
        local status cops cpu p50 p99 failure
        read -r status cops cpu p50 p99 failure < <(python3 "$PY" record "$rec")
        note="DirBench's own figures (its whole run): $cops ops, $cpu µs/op, p50 $p50 ms, p99 $p99 ms"
        [[ $status == ok || $status == cancelled ]] || note="$note; STATUS $status ${failure//_/ }"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$group" "$1" "$2" "$3" "$ops" "$wall" "$user" "$sys" "$srv" >>"$TSV"
    awk -v t="$1" -v c="$2" -v r="$3" -v o="$ops" -v w="$wall" -v u="$user" -v s="$sys" -v v="$srv" -v n="$note" 'BEGIN {
        printf "  round %s  %-8s %-7s %7.0f ops/s  client %5.1f µs/op (%.2f user + %.2f sys s in %.2f s)  server %5.1f µs/op  %s\n",
            r, t, c, (w > 0 ? o / w : 0), (o > 0 ? (u + s) * 1e6 / o : 0), u, s, w, (o > 0 ? v * 1e6 / o : 0), n }'
}

echo "load average before: $(lb_loadavg)   ($(nproc) CPUs)"
echo "ldclt: $(ldclt 2>&1 | awk '/version/ { print $NF; exit }'); attrs: $ATTRS; bind: $BIND; $DURATION s per run, $ROUNDS round(s)"
if ((WARMUP > 0)); then
    echo "warm-up: $WARMUP s of each tool (not recorded)"
    start_db "${DB_CFG[-1]}" "$LB_WORK/warm.db.log" "$WARMUP" "$LB_WORK/warm.json"
    wait "$LB_PID"
    start_ldclt "${LDCLT_CFG[-1]}" "$LB_WORK/warm.ldclt.log"
    sleep "$WARMUP"
    lb_stop "$LB_PID"
fi
for ((r = 1; r <= ROUNDS; r++)); do
    for i in "${!DB_CFG[@]}"; do
        if (((r + i) % 2 == 1)); then
            measure ldclt "${LDCLT_CFG[$i]}" "$r"
            measure dirbench "${DB_CFG[$i]}" "$r"
        else
            measure dirbench "${DB_CFG[$i]}" "$r"
            measure ldclt "${LDCLT_CFG[$i]}" "$r"
        fi
    done
    for c in "${DBC_CFG[@]}"; do measure dirbench-coalesced "$c" "$r"; done
done
# The coalesced group is judged against the same ldclt runs.
((${#DBC_CFG[@]})) && awk -F'\t' -v OFS='\t' -v g="$GROUP coalesced-reads" '$2 == "ldclt" { $1 = g; print }' "$TSV" >>"$TSV.c" &&
    cat "$TSV.c" >>"$TSV"
echo "load average after: $(lb_loadavg)"
echo
python3 "$PY" table "$TSV" 1.2 0.5
exit 0
