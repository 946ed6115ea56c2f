#!/usr/bin/env bash
# gui_overhead.sh — what the GUI costs a search load: the same load from the GUI (MainWindow offscreen, the LDAP
# page's form, live charts drawing every interval; dirbench-gui-load drives it) and from dirbench-cli, against the
# same sandbox slapd on 127.0.0.1, alternating PAIRS times (the order flips from pair to pair, so a slow phase of
# the host hurts both alike). Each prints its run's ok/s; the script prints each pair and the ratio of the medians.
#
# Target: GUI ok_per_s / CLI ok_per_s >= 0.95 (the GUI costs < 5 %).
#
# MODE=replay prices the Replay page the same way: a workload (a generated 389-ds access log of CONNS connections,
# each a bind and SEARCHES searches by uid, analysed into a .dbwl by dirbench-cli) replayed as fast as possible
# (closed loop: what the client costs shows in ok/s) from the Replay page and with dirbench-cli replay.
#
# The server gets a CPU of its own and both clients the others (SPLIT_CPUS=1, with 2 CPUs or more), as a server
# runs on a machine of its own in use. On one CPU with slapd, the GUI's load threads would weigh against the server
# too: the window runs its jobs 5 nice levels below itself (MainWindow, for bench/gui_responsiveness.sh's stall
# target), so a co-located server takes a share from them that it cannot take from the CLI, which runs at the
# shell's nice. SPLIT_CPUS=0 measures that case (about 0.93 here).
#
# Other users of the host (its load average is printed) compete with both clients, and the GUI's load threads run
# 5 nice levels down, the CLI's at the shell's: CLI_NICE=5 runs the CLI at the same level, so that the pair prices
# only the window's own work. The CPU per operation of each client process is printed too: the figure that other
# users of the host move least. So is each run's steal time (/proc/stat: the hypervisor running other guests on
# these CPUs), which moves single pairs by far more than the 5 % measured.
#
# Usage:  bench/gui_overhead.sh          (no arguments)
# Env:    MODE=search (or replay)    CONNS=400 SEARCHES=100 (replay's workload)
#         DURATION=10 seconds per run    PAIRS=3    THREADS=2    CONNECTIONS=2    ENTRIES=10000    SPLIT_CPUS=1
#         CLI_NICE=0 (the CLI's nice level)    INTERVAL=0.5 (both sides; the GUI draws a batch every interval)
#         BUILD_DIR (default build: dirbench-cli and dirbench-gui-load are built there, niced)
#         KEEP=1 keep the scratch directory (records, logs)
# Exit:   0 after a measurement (whatever the verdict); 1 cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source bench/lib/ldapbench.sh
DURATION=${DURATION:-10} PAIRS=${PAIRS:-3} THREADS=${THREADS:-2} CONNECTIONS=${CONNECTIONS:-2}
ENTRIES=${ENTRIES:-10000} BUILD_DIR=${BUILD_DIR:-build} SPLIT_CPUS=${SPLIT_CPUS:-1} INTERVAL=${INTERVAL:-0.5}
lb_init gui_overhead
nice -n 10 cmake --build "$BUILD_DIR" -j2 --target dirbench-cli dirbench-gui-load >/dev/null ||
    lb_die "cannot build dirbench-cli and dirbench-gui-load in $BUILD_DIR"
export DIRBENCH_CLI=$root/$BUILD_DIR/bin/dirbench-cli
gui=$LB_WORK/dirbench-gui-load
cp "$root/$BUILD_DIR/tests/ui/dirbench-gui-load" "$gui"
lb_find_cli
lb_sandbox_start "$ENTRIES"
last=$((ENTRIES - 1))
client=() # the clients' CPUs: all but the server's (the last one)
cpus=$(nproc)
if [ "$SPLIT_CPUS" = 1 ] && [ "$cpus" -ge 2 ]; then
    taskset -a -p -c "$((cpus - 1))" "$SBX_PID" >/dev/null || lb_die "taskset: cannot pin slapd ($SBX_PID)"
    client=(taskset -c "0-$((cpus - 2))")
    echo "CPUs: slapd on CPU $((cpus - 1)), the clients on 0-$((cpus - 2))"
else
    echo "CPUs: slapd and the clients share all $cpus"
fi
MODE=${MODE:-search}
target=(--uri "$SBX_URI" --bind-dn "$SBX_BIND_DN" --password-file "$SBX_PASSWORD_FILE")
if [ "$MODE" = replay ]; then
    # The log: CONNS connections a tenth of a second apart, each binding as a user and searching SEARCHES users by
    # uid (ranks spread over the entries); times to the microsecond, as 389-ds 1.4+ writes them.
    python3 - "$LB_WORK/access" "${CONNS:-400}" "${SEARCHES:-100}" "$ENTRIES" <<'PY'
import random, sys
path, conns, searches, entries = sys.argv[1], *map(int, sys.argv[2:5])
rnd = random.Random(7)
def stamp(t):
    return "[01/Dec/2026:10:%02d:%02d.%09d +0000] " % (int(t) // 60, int(t) % 60, int((t % 1) * 1e9))
with open(path, "w") as f:
    for c in range(1, conns + 1):
        t = c * 0.1
        f.write(stamp(t) + f"conn={c} fd=64 slot=64 connection from 127.0.0.1 to 127.0.0.1\n")
        f.write(stamp(t) + f'conn={c} op=0 BIND dn="uid=user{c % entries},ou=people,dc=example,dc=com" method=128 version=3\n')
        f.write(stamp(t + 0.0002) + f"conn={c} op=0 RESULT err=0 tag=97 nentries=0 etime=0.000100\n")
        for op in range(1, searches + 1):
            t += 0.001
            uid = int(entries ** rnd.random()) % entries
            f.write(stamp(t) + f'conn={c} op={op} SRCH base="ou=people,dc=example,dc=com" scope=2 filter="(uid=user{uid})" attrs="cn mail"\n')
            f.write(stamp(t + 0.0002) + f"conn={c} op={op} RESULT err=0 tag=101 nentries=1 etime=0.000100\n")
        f.write(stamp(t + 0.001) + f"conn={c} op={searches + 1} UNBIND\n")
        f.write(stamp(t + 0.001) + f"conn={c} op={searches + 1} fd=64 closed - U1\n")
PY
    "$LB_CLI" workload analyze --log "$LB_WORK/access" --save "$LB_WORK/w.dbwl" >"$LB_WORK/analyze.log" 2>&1 ||
        lb_die "workload analyze: $(tail -3 "$LB_WORK/analyze.log")"
    keys=(--key-space "uid=user[0-$last],$SBX_PEOPLE_BASE")
    cli_run=(replay --workload "$LB_WORK/w.dbwl" "${target[@]}" --shared-password-file "$SBX_PASSWORD_FILE" "${keys[@]}"
        --as-fast-as-possible --interval "$INTERVAL")
    gui_run=(--workload "$LB_WORK/w.dbwl" "${target[@]}" "${keys[@]}" --interval "$INTERVAL")
else
    load=("${target[@]}" --base "$SBX_PEOPLE_BASE" --filter "uid=user[0-$last]" --threads "$THREADS"
        --connections "$CONNECTIONS" --duration "$DURATION" --interval "$INTERVAL")
    cli_run=(ldap search "${load[@]}")
    gui_run=("${load[@]}")
fi

run_cli() { # RECORD -> ok/s
    nice -n "${CLI_NICE:-0}" "${client[@]}" "$LB_CLI" "${cli_run[@]}" --quiet --json "$1" >"$1.log" 2>&1 || lb_die "dirbench-cli: $(tail -3 "$1.log")"
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["ok_per_s"])' "$1"
}
run_gui() { # RECORD -> ok/s
    QT_QPA_PLATFORM=offscreen DIRBENCH_HISTORY=$LB_WORK/gui-history.sqlite "${client[@]}" "$gui" "${gui_run[@]}" \
        --json "$1" >"$1.log" 2>&1 || lb_die "dirbench-gui-load: $(tail -3 "$1.log")"
    sed -n 's/^ok_per_s //p' "$1.log"
}
window_cpu() { sed -n 's/^window_cpu_s //p' "$1.log"; } # RECORD -> the window thread's CPU seconds in that run
# RECORD -> the client process's CPU per operation (µs; getrusage over the load, so the GUI's includes its window)
cpu_per_op() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["load_cpu_us_per_op"])' "$1"; }

if [ "$MODE" = replay ]; then
    echo "replay as fast as possible: ${CONNS:-400} logged connections of ${SEARCHES:-100} searches, $ENTRIES entries; $PAIRS pairs"
else
    echo "search load: $THREADS threads, $CONNECTIONS connections, ${DURATION}s, $ENTRIES entries; $PAIRS pairs"
fi
echo "load average before: $(lb_loadavg)"
guis=() clis=() gcpus=() ccpus=()
for i in $(seq 1 "$PAIRS"); do
    t0=$(lb_cpu_ticks)
    if ((i % 2)); then
        g=$(run_gui "$LB_WORK/gui.$i.json"); t1=$(lb_cpu_ticks); c=$(run_cli "$LB_WORK/cli.$i.json")
        gs=$(lb_steal_pct "$t0" "$t1") cs=$(lb_steal_pct "$t1" "$(lb_cpu_ticks)")
    else
        c=$(run_cli "$LB_WORK/cli.$i.json"); t1=$(lb_cpu_ticks); g=$(run_gui "$LB_WORK/gui.$i.json")
        cs=$(lb_steal_pct "$t0" "$t1") gs=$(lb_steal_pct "$t1" "$(lb_cpu_ticks)")
    fi
    guis+=("$g") clis+=("$c")
    gc=$(cpu_per_op "$LB_WORK/gui.$i.json") cc=$(cpu_per_op "$LB_WORK/cli.$i.json")
    gcpus+=("$gc") ccpus+=("$cc")
    printf 'pair %d: GUI %s ok/s, CLI %s ok/s, GUI/CLI %s; CPU per operation GUI %s µs, CLI %s µs; the window thread used %s s of CPU; steal GUI %s %%, CLI %s %%\n' \
        "$i" "$g" "$c" "$(python3 -c "print(f'{$g / $c:.3f}')")" "$gc" "$cc" "$(window_cpu "$LB_WORK/gui.$i.json")" "$gs" "$cs"
done
# The same load on both sides, or the ratio prices something else (an anonymous GUI load once did: the server's
# ACLs, not the window): the specs must be the same.
python3 - "$LB_WORK/gui.1.json" "$LB_WORK/cli.1.json" <<'PY' || lb_die "the GUI and the CLI ran different loads"
import json, sys
g, c = (json.load(open(p))["spec"] for p in sys.argv[1:3])
diff = [k for k in sorted(set(g) | set(c)) if g.get(k) != c.get(k)]
for k in diff:
    print(f"spec.{k}: GUI {g.get(k)!r}, CLI {c.get(k)!r}", file=sys.stderr)
sys.exit(1 if diff else 0)
PY
python3 - "${guis[*]}" "${clis[*]}" "${gcpus[*]}" "${ccpus[*]}" <<'PY'
import statistics, sys
g, c, gc, cc = ([float(x) for x in a.split()] for a in sys.argv[1:5])
r = statistics.median(g) / statistics.median(c)
pairs = statistics.median(a / b for a, b in zip(g, c))
print(f"median: GUI {statistics.median(g):,.1f} ok/s, CLI {statistics.median(c):,.1f} ok/s; median pair ratio {pairs:.3f}")
print(f"GUI ok_per_s / CLI ok_per_s = {r:.3f}  (target >= 0.95: {'met' if r >= 0.95 else 'NOT met'})")
# The witness that other users of the host do not move: what each operation cost the client process in CPU. With
# the clients' CPU the bottleneck, ok/s goes as its inverse, so CLI/GUI CPU per operation is the GUI's share.
cpu = statistics.median(cc) / statistics.median(gc)
print(f"CPU per operation: GUI {statistics.median(gc):.2f} µs, CLI {statistics.median(cc):.2f} µs (medians); "
      f"CLI / GUI = {cpu:.3f}  (the throughput a client-bound GUI keeps; target >= 0.95: {'met' if cpu >= 0.95 else 'NOT met'})")
PY
echo "load average after: $(lb_loadavg)"
