#!/usr/bin/env bash
# shellcheck disable=SC2317  # runners are called indirectly (arrays in pair_loop), shellcheck cannot see it
# disk_vs_peers.sh DIR — does DirBench measure what the trusted tools measure?
#
# Runs DirBench's disk engine (dirbench-cli disk) and the tool people already trust for the same
# test, on the same directory, in ALTERNATING pairs, and compares the medians:
#
#   test                      peer                                           DirBench
#   dd (seed)                 dd if=/dev/zero of=DIR/ddtest.PID bs=64k        --profile dd
#                               count=8k conv=fdatasync
#   rand-read QD32            fio io_uring direct randread 4k QD32,           --profile rand-read --size S
#                               SIZE file, time_based RR_SECONDS                --duration RR_SECONDS
#                             (IOPS, and p50/p99 of fio's total latency lat_ns)
#   rand-write QD32           fio ... randwrite, --overwrite=1 (file laid out  --profile rand-write
#                               first, as DirBench prefills it)
#   seq-write 1 pass          fio io_uring direct write 1m QD8 --size SIZE     --profile seq-write --size S
#   seq-write 1 pass, no      same fio job with --fallocate=none (diagnostic:  same DirBench run
#     fallocate               fio then writes into an empty file like DirBench)
#   seq-write timed           fio ... --time_based --runtime SW_SECONDS        --duration SW_SECONDS
#
# How to read it: every line "ratio" is DirBench / peer (for latency too: < 1 means DirBench saw
# lower latency). The final table shows the peer median, the DirBench median, their ratio and
# whether it is within 0.9–1.1. Each pair runs back to back and the order flips from pair to pair
# (odd pairs: peer first), so a slow phase of the host hurts both tools alike; the per-pair ratios
# are printed too, with their median, because neighbours in time are the fairest comparison.
# On a VM with a host write-back cache single runs vary by ±10–50 %: judge medians, not runs.
# For the random tests the mean latency is printed next to QD/IOPS: in a closed loop at a fixed
# queue depth mean latency = QD / IOPS (Little's law) for any honest tool, so a p50/p99 ratio
# that differs from 1/IOPS-ratio shows a different *shape* of the latency distribution (how the
# tool batches submissions), not a different disk.
#
# MB/s = 10^6 bytes/s everywhere (dd's own unit). For dd the MB/s is computed from the bytes and
# seconds dd prints (dd rounds its printed rate to two digits, e.g. "1.8 GB/s"); the printed rate
# is parsed too (GB/s and kB/s converted) and shown as a cross-check.
#
# Usage:  bench/disk_vs_peers.sh DIR          (DIR on the disk to test, not tmpfs; needs ~2 GiB free)
# Env:    QUICK=1         ~1 minute instead of ~4-5 (3 dd pairs, 2 fio pairs, 2 s runs, 512 MiB file)
#         DD_PAIRS=5 PAIRS=3 RR_SECONDS=10 RW_SECONDS=10 SW_SECONDS=10 SIZE_MIB=1024 RAND_QD=32
#         RAND_WRITE=1 SEQ_TIMED=1   set to 0 to skip those tests
#         DB_DATA=random  DirBench --data for the fio comparisons (fio writes random bytes; DirBench's default is zeros, as dd)
#         DIRBENCH_CLI=path   CLI to use (default: build-core/bin/dirbench-cli, then build/bin/);
#                         it is copied first, because the build tree is rebuilt from time to time.
# Needs:  python3 (JSON and statistics); fio (installed with apt-get if missing, needs root).
# Exit:   0 after a measurement, whatever the ratios (it is a measurement, not a test);
#         2 on bad usage (no DIR, DIR not a directory); 1 if it cannot run (no CLI, no fio, no space).

set -u
export LC_ALL=C # dd prints "1.8 GB/s" with a '.', not a locale comma

usage() {
    echo "usage: $0 DIR   (a directory on the disk to test; env: QUICK=1, PAIRS, DD_PAIRS, RR_SECONDS, ...)" >&2
    exit 2
}
[[ $# -eq 1 ]] || usage
DIR=$1
[[ -n $DIR && -d $DIR ]] || {
    echo "$0: '$DIR' is not a directory" >&2
    usage
}
DIR=$(cd "$DIR" && pwd) || exit 2

if [[ ${QUICK:-0} == 1 ]]; then
    d_dd=3 d_pairs=2 d_secs=2 d_size=512
else
    d_dd=5 d_pairs=3 d_secs=10 d_size=1024
fi
DD_PAIRS=${DD_PAIRS:-$d_dd}
PAIRS=${PAIRS:-$d_pairs}
RR_SECONDS=${RR_SECONDS:-$d_secs}
RW_SECONDS=${RW_SECONDS:-$d_secs}
SW_SECONDS=${SW_SECONDS:-$d_secs}
SIZE_MIB=${SIZE_MIB:-$d_size}
RAND_QD=${RAND_QD:-32}
RAND_WRITE=${RAND_WRITE:-1}
SEQ_TIMED=${SEQ_TIMED:-1}
DB_DATA=${DB_DATA:-random}

die() {
    echo "$0: $*" >&2
    exit 1
}

# ---------------------------------------------------------------- scratch space and cleanup
WORK=$(mktemp -d "${TMPDIR:-/tmp}/disk_vs_peers.XXXXXX") || die "cannot create a scratch directory"
DDFILE="$DIR/ddtest.$$"
FIOPREFIX="$DIR/dirbench-peer-fio.$$"
cleanup() {
    rm -f "$DDFILE" "$FIOPREFIX".* 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo; echo "interrupted" >&2; exit 130' INT TERM

# ---------------------------------------------------------------- prerequisites
command -v python3 >/dev/null || die "python3 is needed (JSON parsing)"

if ! command -v fio >/dev/null; then
    echo "fio not found: installing it (apt-get install -y --no-install-recommends fio)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends fio >/dev/null ||
        { apt-get update >/dev/null && apt-get install -y --no-install-recommends fio >/dev/null; } ||
        die "could not install fio"
fi

# The CLI: copy it, so that a rebuild during the run cannot swap it under us. Wait a little if it
# is missing or half-written (a build is in progress).
here=$(cd "$(dirname "$0")" && pwd)
CLI=$WORK/dirbench-cli
for _ in $(seq 1 24); do
    src=${DIRBENCH_CLI:-}
    if [[ -z $src ]]; then
        for c in "$here/../build-core/bin/dirbench-cli" "$here/../build/bin/dirbench-cli"; do
            [[ -x $c ]] && { src=$c; break; }
        done
    fi
    if [[ -n $src && -x $src ]] && cp "$src" "$CLI" 2>/dev/null && "$CLI" disk --help >/dev/null 2>&1; then
        break
    fi
    rm -f "$CLI"
    echo "waiting for dirbench-cli (${DIRBENCH_CLI:-build-core/bin or build/bin})..." >&2
    sleep 5
done
[[ -x $CLI ]] || die "no working dirbench-cli found (set DIRBENCH_CLI)"

need_kib=$(((SIZE_MIB + 512 + 256) * 1024))
avail_kib=$(df -Pk "$DIR" | awk 'NR==2 {print $4}')
((avail_kib >= need_kib)) || die "$DIR has $((avail_kib / 1024)) MiB free, needs $((need_kib / 1024)) MiB"

# ---------------------------------------------------------------- JSON and statistics (python3)
cat >"$WORK/pick.py" <<'PY'
import json, re, statistics, sys

def num(x):
    return "n/a" if x is None else (f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.1f}")

def db(path):
    # dirbench-cli RunRecord -> mb_per_s iops p50_us p99_us mean_us (or FAILED and a reason)
    r = json.load(open(path))
    if r.get("status") != "ok":
        print("FAILED", r.get("status"), r.get("failure", "")); return
    s = r["summary"]; lat = s.get("latency_us", {})
    print(s["mb_per_s"], s["iops"], lat.get("p50"), lat.get("p99"), lat.get("mean"))

def fio(path, ddir):
    # fio JSON -> mb_per_s iops p50_us p99_us mean_us of the total latency (lat_ns: issue to completion,
    # the span DirBench times: from preparing the request to reaping its completion)
    j = json.load(open(path)); job = j["jobs"][0]
    if job.get("error"):
        print("FAILED", "fio error", job["error"]); return
    d = job[ddir]; pct = d.get("lat_ns", {}).get("percentile") or d["clat_ns"]["percentile"]
    mean = d.get("lat_ns", d["clat_ns"])["mean"]
    print(d["bw_bytes"] / 1e6, d["iops"], pct["50.000000"] / 1e3, pct["99.000000"] / 1e3, mean / 1e3)

def dd(path):
    # "536870912 bytes (537 MB, 512 MiB) copied, 0.305548 s, 1.8 GB/s" -> exact MB/s, printed MB/s
    unit = {"B": 1e-6, "kB": 1e-3, "KB": 1e-3, "MB": 1.0, "GB": 1e3, "TB": 1e6}
    for line in open(path):
        m = re.match(r"(\d+) bytes .*copied, ([\d.]+) s, ([\d.]+) (\w*B)/s", line)
        if m:
            b, s, rate, u = int(m[1]), float(m[2]), float(m[3]), m[4]
            print(b / s / 1e6 if s > 0 else 0, rate * unit.get(u, float("nan"))); return
    print("FAILED", "no rate in dd output")

def ratio(a, b):
    return a / b if a is not None and b else None

def summary(tsv):
    # rows: test unit pair tool value  (tool = peer|dirbench); order of first appearance kept
    tests, data = [], {}
    peers = {}
    for line in open(tsv):
        test, unit, pair, tool, peer, value = line.rstrip("\n").split("\t")
        key = (test, unit)
        if key not in data:
            tests.append(key); data[key] = {}
        peers[key] = peer
        data[key].setdefault(int(pair), {})[tool] = None if value == "" else float(value)
    rows = []
    for key in tests:
        pairs = data[key]
        pv = [p["peer"] for p in pairs.values() if p.get("peer") is not None]
        dv = [p["dirbench"] for p in pairs.values() if p.get("dirbench") is not None]
        pr = [ratio(p.get("dirbench"), p.get("peer")) for p in pairs.values()]
        pr = [x for x in pr if x is not None]
        pm = statistics.median(pv) if pv else None
        dm = statistics.median(dv) if dv else None
        r = ratio(dm, pm)
        rows.append((f"{key[0]} ({key[1]})", peers[key], num(pm), num(dm),
                     "n/a" if r is None else f"{r:.2f}",
                     "n/a" if not pr else f"{statistics.median(pr):.2f}",
                     "n/a" if r is None else ("yes" if 0.9 <= r <= 1.1 else "NO"),
                     f"{len(pv)}/{len(dv)}"))
    head = ("test", "peer", "peer median", "DirBench median", "ratio", "pair ratios median",
            "within 0.9–1.1", "runs peer/DB")
    w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    fmt = lambda r: "  ".join(str(c).ljust(w[i]) if i < 2 else str(c).rjust(w[i]) for i, c in enumerate(r))
    print(fmt(head)); print("  ".join("-" * x for x in w))
    for r in rows: print(fmt(r))

def section(tsv, test, unit):
    # one line: medians and ratio for one test/metric, printed after its pairs
    pv, dv, pr = [], [], []
    pairs = {}
    for line in open(tsv):
        t, u, pair, tool, peer, value = line.rstrip("\n").split("\t")
        if (t, u) == (test, unit) and value != "":
            pairs.setdefault(pair, {})[tool] = float(value)
    for p in pairs.values():
        if "peer" in p: pv.append(p["peer"])
        if "dirbench" in p: dv.append(p["dirbench"])
        if "peer" in p and "dirbench" in p and p["peer"]: pr.append(p["dirbench"] / p["peer"])
    pm = statistics.median(pv) if pv else None; dm = statistics.median(dv) if dv else None
    r = ratio(dm, pm)
    print(f"  => {test} {unit}: peer median {num(pm)}, DirBench median {num(dm)}, ratio "
          f"{'n/a' if r is None else f'{r:.2f}'} (median of pair ratios "
          f"{'n/a' if not pr else f'{statistics.median(pr):.2f}'})")

if __name__ == "__main__":
    mode = sys.argv[1]
    try:
        {"db": lambda: db(sys.argv[2]), "fio": lambda: fio(sys.argv[2], sys.argv[3]),
         "dd": lambda: dd(sys.argv[2]), "summary": lambda: summary(sys.argv[2]),
         "section": lambda: section(sys.argv[2], sys.argv[3], sys.argv[4])}[mode]()
    except Exception as e:  # unreadable or truncated output: report, never abort the run
        print("FAILED", type(e).__name__, str(e)[:120])
PY
pick() { python3 "$WORK/pick.py" "$@"; }
TSV=$WORK/results.tsv
: >"$TSV"
# record TEST UNIT PAIR TOOL PEERNAME VALUE   (empty VALUE = the run failed)
record() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$TSV"; }
fmt() { python3 -c 'import sys; x=float(sys.argv[1]); print(f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.1f}")' "$1" 2>/dev/null || echo "$1"; }
ratio() { python3 -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f"{a/b:.2f}" if b else "n/a")' "$1" "$2" 2>/dev/null || echo n/a; }

# ---------------------------------------------------------------- runners
# Each runner sets R_MBPS R_IOPS R_P50 R_P99 R_MEAN (empty on failure) and prints nothing itself.
R_MBPS='' R_IOPS='' R_P50='' R_P99='' R_MEAN=''
set_result() {
    if [[ $1 == FAILED ]]; then
        R_MBPS='' R_IOPS='' R_P50='' R_P99='' R_MEAN=''
        echo "    run failed: $*" >&2
    else
        R_MBPS=$1 R_IOPS=$2 R_P50=$3 R_P99=$4 R_MEAN=$5
    fi
}

run_dd() {
    rm -f "$DDFILE"
    dd if=/dev/zero of="$DDFILE" bs=64k count=8k conv=fdatasync 2>"$WORK/dd.err"
    rm -f "$DDFILE"
    local out
    out=$(pick dd "$WORK/dd.err")
    if [[ $out == FAILED* ]]; then
        set_result FAILED "${out#FAILED }: $(tail -1 "$WORK/dd.err")"
        return
    fi
    read -r R_MBPS DD_PRINTED <<<"$out"
    R_IOPS='' R_P50='' R_P99='' R_MEAN=''
}

# run_db PROFILE [dirbench-cli options...]
run_db() {
    local profile=$1
    shift
    "$CLI" disk --profile "$profile" --dir "$DIR" "$@" --json - >"$WORK/db.json" 2>"$WORK/db.err"
    # shellcheck disable=SC2046
    set_result $(pick db "$WORK/db.json")
}

# run_fio NAME RW [fio options...]    (reads/writes one file in DIR, removed afterwards)
# Random jobs get --norandommap (and writes --scramble_buffers=0): DirBench draws offsets with replacement and
# reuses its buffers, so fio is asked to do the same work; its defaults cost it CPU that, on 2 shared cores,
# shows up as lower IOPS.
run_fio() {
    local name=$1 rw=$2 ddir='read'
    shift 2
    [[ $rw == *write* ]] && ddir='write'
    rm -f "$FIOPREFIX.$name"
    fio --name="$name" --filename="$FIOPREFIX.$name" --ioengine=io_uring --direct=1 --rw="$rw" \
        --lat_percentiles=1 --percentile_list=50:99:99.9 --unlink=1 \
        --output-format=json --output="$WORK/fio.json" "$@" >"$WORK/fio.err" 2>&1
    rm -f "$FIOPREFIX.$name"
    # shellcheck disable=SC2046
    set_result $(pick fio "$WORK/fio.json" "$ddir")
}

# pair_loop TEST N PEERNAME PEERCMD... -- DBCMD...   runs N alternating pairs; the caller's
# on_pair function records and prints the metrics of interest from P_* (peer) and D_* (DirBench).
pair_loop() {
    local test=$1 n=$2 peername=$3
    shift 3
    local peer=() db=()
    while [[ $# -gt 0 && $1 != -- ]]; do peer+=("$1"); shift; done
    shift
    db=("$@")
    local i order
    for ((i = 1; i <= n; i++)); do
        if ((i % 2)); then
            order="peer first"
            "${peer[@]}"; P_MBPS=$R_MBPS P_IOPS=$R_IOPS P_P50=$R_P50 P_P99=$R_P99 P_MEAN=$R_MEAN
            "${db[@]}"; D_MBPS=$R_MBPS D_IOPS=$R_IOPS D_P50=$R_P50 D_P99=$R_P99 D_MEAN=$R_MEAN
        else
            order="DirBench first"
            "${db[@]}"; D_MBPS=$R_MBPS D_IOPS=$R_IOPS D_P50=$R_P50 D_P99=$R_P99 D_MEAN=$R_MEAN
            "${peer[@]}"; P_MBPS=$R_MBPS P_IOPS=$R_IOPS P_P50=$R_P50 P_P99=$R_P99 P_MEAN=$R_MEAN
        fi
        on_pair "$test" "$i" "$n" "$peername" "$order"
    done
}

# show_metric TEST UNIT PAIR PEERNAME PEERVALUE DBVALUE -> records it, returns "peer X | DirBench Y | ratio Z"
show_metric() {
    local test=$1 unit=$2 pair=$3 peername=$4 pv=$5 dv=$6
    record "$test" "$unit" "$pair" peer "$peername" "$pv"
    record "$test" "$unit" "$pair" dirbench "$peername" "$dv"
    local r=n/a
    [[ -n $pv && -n $dv ]] && r=$(ratio "$dv" "$pv")
    printf '%s %s %s | DirBench %s %s | ratio %s' "$peername" "${pv:+$(fmt "$pv")}" "$unit" \
        "${dv:+$(fmt "$dv")}" "$unit" "$r"
}

on_pair_mbps() {
    local test=$1 i=$2 n=$3 peername=$4 order=$5 extra=
    [[ $test == dd* && -n $P_MBPS ]] && extra="  (dd printed $(fmt "$DD_PRINTED") MB/s)"
    printf '  %s pair %d/%d (%s): %s%s\n' "$test" "$i" "$n" "$order" \
        "$(show_metric "$test" MB/s "$i" "$peername" "$P_MBPS" "$D_MBPS")" "$extra"
}

on_pair_iops() {
    local test=$1 i=$2 n=$3 peername=$4 order=$5
    printf '  %s pair %d/%d (%s): %s\n' "$test" "$i" "$n" "$order" \
        "$(show_metric "$test" IOPS "$i" "$peername" "$P_IOPS" "$D_IOPS")"
    printf '      latency p50: %s\n' "$(show_metric "$test" "p50 us" "$i" "$peername" "$P_P50" "$D_P50")"
    printf '      latency p99: %s\n' "$(show_metric "$test" "p99 us" "$i" "$peername" "$P_P99" "$D_P99")"
    printf '      latency mean: %s  (QD/IOPS: fio %s, DirBench %s)\n' \
        "$(show_metric "$test" "mean us" "$i" "$peername" "$P_MEAN" "$D_MEAN")" \
        "${P_IOPS:+$(fmt "$(python3 -c "print($RAND_QD * 1e6 / $P_IOPS)")")}" "${D_IOPS:+$(fmt "$(python3 -c "print($RAND_QD * 1e6 / $D_IOPS)")")}"
}

# ---------------------------------------------------------------- run
fs=$(df -PT "$DIR" | awk 'NR==2 {print $2 " on " $1}')
echo "disk_vs_peers: DirBench vs dd/fio in $DIR ($fs)"
echo "  $(fio --version), $(dd --version | head -1), CLI copied from ${src:-?}"
echo "  pairs: dd $DD_PAIRS, fio $PAIRS; rand-read ${RR_SECONDS}s, rand-write ${RW_SECONDS}s, seq-write timed ${SW_SECONDS}s; file ${SIZE_MIB} MiB; DirBench data $DB_DATA"
echo "  $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
case $fs in tmpfs* | ramfs* | overlay*) echo "  WARNING: $DIR is on ${fs%% *}: this measures memory or a layer stack, not a disk" ;; esac
t_start=$SECONDS
SZ=(--size "${SIZE_MIB}M")

echo
echo "== dd: the seed's command vs dirbench-cli --profile dd (MB/s)"
on_pair() { on_pair_mbps "$@"; }
pair_loop "dd (seed)" "$DD_PAIRS" dd run_dd -- run_db dd
pick section "$TSV" "dd (seed)" MB/s

echo
echo "== rand-read 4 KiB QD$RAND_QD, ${RR_SECONDS}s: fio randread vs dirbench-cli --profile rand-read"
on_pair() { on_pair_iops "$@"; }
pair_loop "rand-read QD$RAND_QD" "$PAIRS" fio \
    run_fio randread randread --bs=4k --iodepth="$RAND_QD" --size="${SIZE_MIB}m" --norandommap --time_based --runtime="$RR_SECONDS" -- \
    run_db rand-read "${SZ[@]}" --qd "$RAND_QD" --duration "$RR_SECONDS" --data "$DB_DATA"
for u in IOPS "p50 us" "p99 us" "mean us"; do pick section "$TSV" "rand-read QD$RAND_QD" "$u"; done

if [[ $RAND_WRITE == 1 ]]; then
    echo
    echo "== rand-write 4 KiB QD$RAND_QD, ${RW_SECONDS}s: fio randwrite --overwrite=1 vs dirbench-cli --profile rand-write"
    on_pair() { on_pair_iops "$@"; }
    pair_loop "rand-write QD$RAND_QD" "$PAIRS" fio \
        run_fio randwrite randwrite --bs=4k --iodepth="$RAND_QD" --size="${SIZE_MIB}m" --overwrite=1 --norandommap \
            --scramble_buffers=0 --time_based \
        --runtime="$RW_SECONDS" -- \
        run_db rand-write "${SZ[@]}" --qd "$RAND_QD" --duration "$RW_SECONDS" --data "$DB_DATA"
    for u in IOPS "p50 us" "p99 us" "mean us"; do pick section "$TSV" "rand-write QD$RAND_QD" "$u"; done
fi

echo
echo "== seq-write 1 MiB QD8, one pass over ${SIZE_MIB} MiB: fio write vs dirbench-cli --profile seq-write"
on_pair() { on_pair_mbps "$@"; }
pair_loop "seq-write 1 pass" "$PAIRS" fio \
    run_fio seqwrite write --bs=1m --iodepth=8 --size="${SIZE_MIB}m" -- \
    run_db seq-write "${SZ[@]}" --data "$DB_DATA"
pick section "$TSV" "seq-write 1 pass" MB/s

echo
echo "== diagnostic: the same with fio --fallocate=none (fio then extends an empty file, as DirBench does)"
pair_loop "seq-write 1 pass, fio no fallocate" "$PAIRS" "fio" \
    run_fio seqwrite write --bs=1m --iodepth=8 --size="${SIZE_MIB}m" --fallocate=none -- \
    run_db seq-write "${SZ[@]}" --data "$DB_DATA"
pick section "$TSV" "seq-write 1 pass, fio no fallocate" MB/s

if [[ $SEQ_TIMED == 1 ]]; then
    echo
    echo "== seq-write 1 MiB QD8, ${SW_SECONDS}s over a ${SIZE_MIB} MiB file: fio --time_based vs dirbench-cli --duration"
    pair_loop "seq-write ${SW_SECONDS}s" "$PAIRS" fio \
        run_fio seqwrite write --bs=1m --iodepth=8 --size="${SIZE_MIB}m" --time_based --runtime="$SW_SECONDS" -- \
        run_db seq-write "${SZ[@]}" --duration "$SW_SECONDS" --data "$DB_DATA"
    pick section "$TSV" "seq-write ${SW_SECONDS}s" MB/s
fi

echo
echo "== summary: ratio = DirBench median / peer median (latency: < 1 means DirBench saw less)"
echo "   took $((SECONDS - t_start)) s; load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
pick summary "$TSV"
exit 0
