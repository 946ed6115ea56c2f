# shellcheck shell=bash
# bench/lib/ldapbench.sh — shared by ldap_vs_ldclt.sh and bind_vs_ldclt.sh (sourced, not run).
#
# What it gives the scripts:
#   lb_init NAME            scratch directory $LB_WORK, cleanup trap (stops the sandbox, removes $LB_WORK
#                           unless KEEP=1)
#   lb_find_cli             copies dirbench-cli to $LB_CLI (a rebuild during the run cannot swap it)
#   lb_need_ldclt           installs 389-ds-base (which ships ldclt) when ldclt is missing; no 389 instance
#   lb_sandbox_start N [--tls]   private slapd with N entries: SBX_URI, SBX_LDAPS_URI, SBX_CA_FILE,
#                           SBX_BIND_DN, SBX_PASSWORD_FILE, SBX_PEOPLE_BASE, SBX_DIR, SBX_PID
#   lb_monitor OPNAME       monitorOpCompleted of cn=OPNAME,cn=Operations,cn=Monitor (read as the admin)
#   lb_start OUT CMD...     starts the client CMD in the background (stdout+stderr to OUT): $LB_PID
#   lb_window OP PID LEAD SECONDS   after LEAD s, measures SECONDS s of the running client PID:
#                           prints "server_ops wall_s user_s sys_s connections server_cpu_s" — the server's count
#                           of OP completed (monitorOpCompleted delta, minus the reading search itself), the
#                           client's CPU (utime, stime of /proc/PID/stat, all its threads), the connections the
#                           server accepted (cn=Total,cn=Connections, minus the reading ones) and slapd's CPU
#                           (its /proc/PID/stat; it includes serving the few monitor reads), over the same window
#   lb_stop PID             SIGINT to the client (ldclt prints its summary and exits), then waits for it
#   lb_loadavg              the 1/5/15-minute load average
#   lb_cpu_ticks            "steal total" jiffies of all CPUs so far (/proc/stat): two readings give the share
#                           of time the hypervisor gave the CPUs to others (lb_steal_pct BEFORE AFTER)
#   lb_py                   path of ldapbench.py (tables and medians)

LB_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LB_WORK=
LB_CLI=
SBX_DIR=

lb_die() {
    echo "${0##*/}: $*" >&2
    exit 1
}

lb_cleanup() {
    [[ -n $LB_PID ]] && kill -INT "$LB_PID" 2>/dev/null && wait "$LB_PID" 2>/dev/null
    if [[ -n $SBX_DIR && -n $LB_CLI && -x $LB_CLI ]]; then
        "$LB_CLI" sandbox stop --dir "$SBX_DIR" >/dev/null 2>&1 || true
    fi
    SBX_DIR=
    if [[ ${KEEP:-0} == 1 && -n $LB_WORK ]]; then
        echo "kept: $LB_WORK"
    elif [[ -n $LB_WORK ]]; then
        rm -rf "$LB_WORK"
    fi
}

lb_init() {
    LB_WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || lb_die "cannot create a scratch directory"
    trap lb_cleanup EXIT
    trap 'echo; echo "interrupted" >&2; exit 130' INT TERM
    command -v python3 >/dev/null || lb_die "python3 is needed (JSON and medians)"
    command -v ldapsearch >/dev/null || lb_die "ldapsearch is needed (apt-get install ldap-utils)"
}

lb_find_cli() {
    local src c
    LB_CLI=$LB_WORK/dirbench-cli
    for _ in $(seq 1 24); do
        src=${DIRBENCH_CLI:-}
        if [[ -z $src ]]; then
            for c in "$LB_HERE/../../build-perf/bin/dirbench-cli" "$LB_HERE/../../build-core/bin/dirbench-cli" \
                "$LB_HERE/../../build/bin/dirbench-cli"; do
                [[ -x $c ]] && {
                    src=$c
                    break
                }
            done
        fi
        if [[ -n $src && -x $src ]] && cp "$src" "$LB_CLI" 2>/dev/null && "$LB_CLI" ldap --help >/dev/null 2>&1; then
            echo "dirbench-cli: $src"
            return 0
        fi
        rm -f "$LB_CLI"
        echo "waiting for dirbench-cli (${DIRBENCH_CLI:-build-perf, build-core or build /bin})..." >&2
        sleep 5
    done
    lb_die "no working dirbench-cli found (set DIRBENCH_CLI)"
}

lb_need_ldclt() {
    command -v ldclt >/dev/null && return 0
    echo "ldclt not found: installing 389-ds-base (apt-get install -y --no-install-recommends; no instance is made)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends 389-ds-base >/dev/null ||
        { apt-get update >/dev/null && apt-get install -y --no-install-recommends 389-ds-base >/dev/null; } ||
        lb_die "could not install 389-ds-base (ldclt)"
    command -v ldclt >/dev/null || lb_die "389-ds-base installed but no ldclt in PATH"
}

lb_sandbox_start() {
    local out=$LB_WORK/sandbox.env key value
    echo "starting a sandbox slapd with $1 entries${2:+ ($2)}..."
    "$LB_CLI" sandbox start --entries "$1" ${2:+"$2"} --dir "$LB_WORK" >"$out" 2>"$LB_WORK/sandbox.err" ||
        lb_die "sandbox start failed: $(cat "$LB_WORK/sandbox.err")"
    while IFS='=' read -r key value || [[ -n $key ]]; do
        case $key in
        URI) SBX_URI=$value ;;
        LDAPS_URI) SBX_LDAPS_URI=$value ;;
        CA_FILE) SBX_CA_FILE=$value ;;
        BIND_DN) SBX_BIND_DN=$value ;;
        PASSWORD_FILE) SBX_PASSWORD_FILE=$value ;;
        PEOPLE_BASE) SBX_PEOPLE_BASE=$value ;;
        DIR) SBX_DIR=$value ;;
        PID) SBX_PID=$value ;;
        esac
    done <"$out"
    [[ -n ${SBX_URI:-} && -n ${SBX_DIR:-} && -n ${SBX_PASSWORD_FILE:-} ]] || lb_die "sandbox printed no URI/DIR"
    export SBX_URI SBX_LDAPS_URI SBX_CA_FILE SBX_BIND_DN SBX_PASSWORD_FILE SBX_PEOPLE_BASE SBX_PID
    echo "sandbox: $SBX_URI (slapd pid $SBX_PID, $(slapd -VV 2>&1 | head -1 | sed 's/^@(#) \$//; s/ *(.*//'))"
}

lb_counter() { # DN ATTRIBUTE -> its value (read as the sandbox admin)
    ldapsearch -x -LLL -o ldif-wrap=no -H "$SBX_URI" -D "$SBX_BIND_DN" -y "$SBX_PASSWORD_FILE" -b "$1" -s base "$2" \
        2>/dev/null | awk -v a="$2:" 'tolower($1) == tolower(a) { print $2 }'
}

lb_monitor() {
    lb_counter "cn=$1,cn=Operations,cn=Monitor" monitorOpCompleted
}

LB_PID=
lb_start() {
    local out=$1
    shift
    "$@" >"$out" 2>&1 &
    LB_PID=$!
}

lb_ticks() { # PID -> "utime stime" in clock ticks (fields 14 and 15; the command name may hold spaces)
    local stat rest
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || {
        echo "0 0"
        return
    }
    rest=${stat##*) }
    awk '{ print $12, $13 }' <<<"$rest"
}

lb_window() {
    local op=$1 pid=$2 o0 o1 t0 t1 u0 s0 u1 s1 k0 k1 su0 ss0 su1 ss1 hz
    hz=$(getconf CLK_TCK)
    sleep "$3"
    k0=$(lb_counter "cn=Total,cn=Connections,cn=Monitor" monitorCounter)
    o0=$(lb_monitor "$op")
    t0=$(date +%s%N)
    read -r u0 s0 < <(lb_ticks "$pid")
    read -r su0 ss0 < <(lb_ticks "$SBX_PID")
    sleep "$4"
    read -r su1 ss1 < <(lb_ticks "$SBX_PID")
    read -r u1 s1 < <(lb_ticks "$pid")
    t1=$(date +%s%N)
    o1=$(lb_monitor "$op")
    k1=$(lb_counter "cn=Total,cn=Connections,cn=Monitor" monitorCounter)
    kill -0 "$pid" 2>/dev/null || {
        echo "0 0 0 0 0 0"
        return
    }
    awk -v o="$((o1 - o0 - 1))" -v t="$((t1 - t0))" -v u="$((u1 - u0))" -v s="$((s1 - s0))" -v hz="$hz" \
        -v k="$((k1 - k0 - 3))" -v sv="$((su1 + ss1 - su0 - ss0))" \
        'BEGIN { printf "%d %.3f %.2f %.2f %d %.2f\n", o, t / 1e9, u / hz, s / hz, k, sv / hz }'
}

lb_stop() {
    kill -INT "$1" 2>/dev/null
    wait "$1" 2>/dev/null
    LB_PID=
}

lb_loadavg() {
    cut -d' ' -f1-3 /proc/loadavg
}

lb_cpu_ticks() {
    awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print $9, t; exit }' /proc/stat
}

lb_steal_pct() { # "STEAL TOTAL" "STEAL TOTAL" -> steal in % of the CPU time between them
    python3 -c 'import sys; s0, t0 = map(int, sys.argv[1].split()); s1, t1 = map(int, sys.argv[2].split()); print(f"{100 * (s1 - s0) / max(1, t1 - t0):.1f}")' "$1" "$2"
}

lb_py() {
    echo "$LB_HERE/ldapbench.py"
}
