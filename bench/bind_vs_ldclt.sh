#!/usr/bin/env bash
# bind_vs_ldclt.sh — DirBench's connect+bind+unbind load against ldclt's (389-ds's load client), plain and LDAPS.
#
# A private slapd (dirbench-cli sandbox --tls: back-mdb, ENTRIES entries, a self-signed RSA-2048 certificate)
# takes, per operation, a new TCP (or TLS) connection, a simple bind as a uniformly random
# uid=userN,ou=people,dc=example,dc=com with N in 10000..99999, and an unbind:
#   ldclt     -e bindeach,bindonly,randombinddnfromfile=FILE -n THREADS
#             ("bindeach": bindonly alone binds once per thread and counts empty loops). FILE holds one
#             "DN<tab>password" line per user: ldclt's -w with randombinddn rewrites any 'X' of the password
#             (its random-number placeholder), and the sandbox's generated password may contain one. The file is
#             mode 0600 in the scratch directory and removed at the end, like the sandbox's own password file.
#             LDAPS: -H ldaps://... with LDAPTLS_CACERT=the sandbox's CA (ldclt's -Z wants an NSS database,
#             not a PEM file: with -Z every thread dies).
#   DirBench  dirbench-cli ldap bind --mode new-connection --dn 'uid=user[10000-99999],...' --password-file F
#             --threads THREADS (plus --ca-file for LDAPS)
# Each tool runs with THREADS_LIST threads, ROUNDS times per protocol, alternating (the order flips from pair to
# pair). Counted the same way for both over a DURATION-second window that starts 2 s after the client:
#   ops/s = the server's monitorOpCompleted of cn=Bind,cn=Operations,cn=Monitor (minus the admin bind of the
#   reading ldapsearch) / window wall time; client CPU = utime+stime of the client's /proc/PID/stat, per op.
# The connections the server accepted in the window are printed as a cross-check (one per bind).
#
# Target: DirBench's best ops/s >= ldclt's best, for plain LDAP and for LDAPS.
#
# Usage:  bench/bind_vs_ldclt.sh            (no arguments; root, or ldclt already installed)
# Env:    DURATION=20   seconds per run          ROUNDS=3      runs per configuration (medians)
#         QUICK=1       DURATION=5, ROUNDS=1 (about a minute)
#         ENTRIES=100000   PROTOCOLS="ldap ldaps"   THREADS_LIST="4 8 16"
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
    d_dur=5 d_rounds=1
else
    d_dur=20 d_rounds=3
fi
DURATION=${DURATION:-$d_dur}
ROUNDS=${ROUNDS:-$d_rounds}
ENTRIES=${ENTRIES:-100000}
read -r -a PROTOS <<<"${PROTOCOLS:-ldap ldaps}"
read -r -a THREADS <<<"${THREADS_LIST:-4 8 16}"

bad() {
    echo "${0##*/}: $*" >&2
    usage
}
[[ $DURATION =~ ^[1-9][0-9]*$ ]] || bad "DURATION must be a whole number of seconds >= 1"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || bad "ROUNDS must be >= 1"
[[ $ENTRIES =~ ^[0-9]+$ ]] || bad "ENTRIES must be a number"
((ENTRIES >= 100000)) || bad "ENTRIES must be >= 100000 (uids up to user99999)"
((${#PROTOS[@]} > 0)) || bad "PROTOCOLS is empty"
for p in "${PROTOS[@]}"; do [[ $p == ldap || $p == ldaps ]] || bad "PROTOCOLS: '$p' is neither ldap nor ldaps"; done
for t in "${THREADS[@]}"; do [[ $t =~ ^[1-9][0-9]*$ ]] || bad "THREADS_LIST: '$t' is not a thread count"; done

# shellcheck source=bench/lib/ldapbench.sh
. "$(cd "$(dirname "$0")" && pwd)/lib/ldapbench.sh"
lb_init bind_vs_ldclt
lb_need_ldclt
lb_find_cli
lb_sandbox_start "$ENTRIES" --tls
[[ -n ${SBX_LDAPS_URI:-} && -n ${SBX_CA_FILE:-} ]] || lb_die "the sandbox printed no LDAPS_URI/CA_FILE"
PY=$(lb_py)
TSV=$LB_WORK/runs.tsv
: >"$TSV"
LEAD=2
DN_PATTERN='uid=user[10000-99999],ou=people,dc=example,dc=com'

BINDFILE=$LB_WORK/ldclt-binddn.txt
(
    umask 077
    awk -v pw="$(head -n1 "$SBX_PASSWORD_FILE")" 'BEGIN {
        for (i = 10000; i <= 99999; i++) printf "uid=user%d,ou=people,dc=example,dc=com\t%s\n", i, pw }' >"$BINDFILE"
) || lb_die "cannot write $BINDFILE"

start_client() { # TOOL PROTO THREADS LOG RECORD
    local uri=$SBX_URI ca=()
    [[ $2 == ldaps ]] && uri=$SBX_LDAPS_URI ca=(--ca-file "$SBX_CA_FILE") # --ca-file is refused without TLS
    if [[ $1 == ldclt ]]; then
        LDAPTLS_CACERT=$SBX_CA_FILE lb_start "$4" ldclt -H "$uri" -e "bindeach,bindonly,randombinddnfromfile=$BINDFILE" \
            -n "$3" -q
    else
        lb_start "$4" "$LB_CLI" ldap bind --uri "$uri" "${ca[@]}" --mode new-connection \
            --dn "$DN_PATTERN" --password-file "$SBX_PASSWORD_FILE" --threads "$3" \
            --duration $((LEAD + DURATION + 10)) --quiet --json "$5"
    fi
}

measure() { # TOOL PROTO THREADS ROUND
    local tag=$1.$2.$3.$4 ops wall user sys conns note
    local log=$LB_WORK/$tag.log rec=$LB_WORK/$tag.json
    start_client "$1" "$2" "$3" "$log" "$rec"
    local pid=$LB_PID
    local srv
    read -r ops wall user sys conns srv < <(lb_window Bind "$pid" "$LEAD" "$DURATION")
    ops=$((ops > 0 ? ops : 0))
    if [[ $1 == ldclt ]]; then
        lb_stop "$pid"
        note="ldclt: $(grep -o 'Exit status.*' "$log" | head -n1)$(grep -o 'Global error.*' "$log" | head -n1 | sed 's/^/; /')"
    else
        lb_stop "$pid" # as ldclt: SIGINT after the window (DirBench's record then says "cancelled")
        local status cops cpu p50 p99 failure
        read -r status cops cpu p50 p99 failure < <(python3 "$PY" record "$rec")
        note="DirBench's own figures: $cops binds, $cpu µs/op, p50 $p50 ms, p99 $p99 ms"
        [[ $status == ok || $status == cancelled ]] || note="$note; STATUS $status ${failure//_/ }"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "bind $2" "$1" "$3" "$4" "$ops" "$wall" "$user" "$sys" "$srv" >>"$TSV"
    awk -v t="$1" -v p="$2" -v c="$3" -v r="$4" -v o="$ops" -v w="$wall" -v u="$user" -v s="$sys" \
        -v k="$conns" -v v="$srv" -v n="$note" 'BEGIN {
        printf "  round %s  %-5s %-8s %2s thr %7.0f binds/s  client %6.1f µs/op (%.2f user + %.2f sys s in %.2f s)  server %6.1f µs/op  %d connections  %s\n",
            r, p, t, c, (w > 0 ? o / w : 0), (o > 0 ? (u + s) * 1e6 / o : 0), u, s, w, (o > 0 ? v * 1e6 / o : 0), k, n }'
}

echo "load average before: $(lb_loadavg)   ($(nproc) CPUs)"
echo "ldclt: $(ldclt 2>&1 | awk '/version/ { print $NF; exit }'); $DURATION s per run, $ROUNDS round(s); threads: ${THREADS[*]}"
for proto in "${PROTOS[@]}"; do
    for ((r = 1; r <= ROUNDS; r++)); do
        for i in "${!THREADS[@]}"; do
            if (((r + i) % 2 == 1)); then
                measure ldclt "$proto" "${THREADS[$i]}" "$r"
                measure dirbench "$proto" "${THREADS[$i]}" "$r"
            else
                measure dirbench "$proto" "${THREADS[$i]}" "$r"
                measure ldclt "$proto" "${THREADS[$i]}" "$r"
            fi
        done
    done
done
echo "load average after: $(lb_loadavg)"
echo
python3 "$PY" table "$TSV" 1.0
exit 0
