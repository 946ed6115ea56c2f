#!/usr/bin/env bash
# remote_disk.sh — does running a disk test on a host over ssh cost the test? (`disk --host`, the Disk page's
# "Run on: a host"). The same profiles run here and on a host namespace of the multi-host test topology
# (tests/integration/netns/topology.sh: its own sshd on a bridge, made and removed by this script), alternating
# PAIRS times (the order flips each pair); both test the same directory (the namespaces share the file system), so
# the ratio prices only the agent, ssh and the stream. For each profile it prints each pair, the ratio of the
# medians (host / here, MB/s for sequential, IOPS for random and commit; target 0.95 to 1.05), and the time from
# the command's start to its first live interval line on each side (target under 2 s on a reachable host; the
# host's includes ssh's connection and the agent's start).
#
# Usage:  bench/remote_disk.sh          (no arguments; as root)
# Env:    DURATION=5 (seconds per run)   SIZE=256M   PAIRS=3   PROFILES="seq-write rand-read commit"
#         DIRBENCH_CLI=path (default build/bin/dirbench-cli)   KEEP=1 keep the scratch directory
# Exit:   0 after a measurement; 2 bad usage; 1 cannot run (not root, no sshd, no CLI).
set -u
export LC_ALL=C
[[ $# -eq 0 ]] || { sed -n '/^# Usage:/,/^# Exit:/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
cli=${DIRBENCH_CLI:-$here/build/bin/dirbench-cli}
DURATION=${DURATION:-5}
SIZE=${SIZE:-256M}
PAIRS=${PAIRS:-3}
read -r -a PROFILES <<<"${PROFILES:-seq-write rand-read commit}"
[[ -x $cli ]] || { echo "remote_disk: $cli is not built (cmake --build build --target dirbench-cli)" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || { echo "remote_disk: run as root (it makes network namespaces and an sshd)" >&2; exit 1; }
[[ -x /usr/sbin/sshd ]] || { echo "remote_disk: install openssh-server (apt-get install openssh-server)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/var/tmp}/dirbench-remote-disk.XXXXXX")
topo=$work/netns
cleanup() {
    sh "$here/tests/integration/netns/topology.sh" down "$topo" >/dev/null 2>&1
    if [[ ${KEEP:-0} == 1 ]]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
sh "$here/tests/integration/netns/topology.sh" up "$topo" || { echo "remote_disk: topology.sh up failed" >&2; exit 1; }
mkdir -p "$work/dir"

# run SIDE PROFILE N: one test; prints "figure first_point_s"
run() {
    local side=$1 profile=$2 n=$3 extra=() host=()
    [[ $profile == rand-read ]] && extra=(--qd 8)
    [[ $side == host ]] && host=(--host a1 --ssh-option "-F$topo/ssh_config" --agent-command "$cli")
    local json=$work/$side-$profile-$n.json start
    start=$(date +%s.%N)
    "$cli" disk "${host[@]}" --dir "$work/dir" --profile "$profile" --size "$SIZE" --duration "$DURATION" \
        "${extra[@]}" --no-history --json "$json" 2>"$work/$side-$profile-$n.err" |
        while IFS= read -r line; do
            if [[ $line == *" t= "* && ! -e $json.first ]]; then date +%s.%N >"$json.first"; fi
        done
    python3 - "$json" "$start" "$profile" <<'PY'
import json, sys
rec = json.load(open(sys.argv[1]))
if rec.get("status") != "ok":
    sys.exit(f"remote_disk: {sys.argv[1]}: {rec.get('status')}: {rec.get('failure')}")
s = rec["summary"]
figure = s["mb_per_s"] if sys.argv[3].startswith("seq") else s["iops"]
first = float(open(sys.argv[1] + ".first").read()) - float(sys.argv[2])
print(f"{figure:.1f} {first:.2f}")
PY
}

echo "remote_disk: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); ${SIZE} for ${DURATION} s, $PAIRS pairs"
for profile in "${PROFILES[@]}"; do
    unit=IOPS; [[ $profile == seq-* ]] && unit=MB/s
    locals=() hosts=() firstL=() firstH=()
    for ((i = 1; i <= PAIRS; i++)); do
        order=(here host); ((i % 2 == 0)) && order=(host here)
        for side in "${order[@]}"; do
            out=$(run "$side" "$profile" "$i") || exit 1
            read -r fig first <<<"$out"
            if [[ $side == here ]]; then locals+=("$fig"); firstL+=("$first"); else hosts+=("$fig"); firstH+=("$first"); fi
        done
        echo "$profile pair $i: here ${locals[-1]} $unit, host ${hosts[-1]} $unit"
    done
    python3 - "$profile" "$unit" "${locals[*]}" "${hosts[*]}" "${firstL[*]}" "${firstH[*]}" <<'PY'
import statistics as st, sys
p, unit = sys.argv[1], sys.argv[2]
l, h, fl, fh = ([float(x) for x in a.split()] for a in sys.argv[3:7])
r = st.median(h) / st.median(l)
ok = "met" if 0.95 <= r <= 1.05 else "NOT met"
print(f"{p}: median here {st.median(l):,.1f} {unit}, host {st.median(h):,.1f} {unit}; host/here = {r:.3f} "
      f"(target 0.95-1.05: {ok})")
print(f"{p}: first live point after start: here {st.median(fl):.2f} s, host {st.median(fh):.2f} s "
      f"(target < 2 s: {'met' if max(fh) < 2 else 'NOT met'}, slowest {max(fh):.2f} s)")
PY
done
