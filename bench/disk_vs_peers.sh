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
#   rand-read QD32            fio io_uring direct randread 4k QD32, on a      --profile rand-read --size S
#                               laid-out SIZE file, time_based RR_SECONDS       --duration RR_SECONDS
#                             (IOPS, and p50/p99 of fio's total latency lat_ns)
#   rand-write QD32           fio ... randwrite on a laid-out file            --profile rand-write
#   seq-write 1 pass          fio io_uring direct write 1m QD8 --size SIZE     --profile seq-write --size S
#                               (a fresh file, fallocated: DirBench reserves its fresh file's blocks too)
#   seq-write 1 pass, no      same fio job with --fallocate=none (diagnostic)  same DirBench run
#     fallocate
#   seq-write timed           fio ... --time_based --runtime SW_SECONDS        --duration SW_SECONDS
#   seq-read 1 pass           fio io_uring direct read 1m QD8 on a laid-out    --profile seq-read --size S
#                               SIZE file
#   seq-read timed            fio ... read --time_based --runtime SR_SECONDS   --duration SR_SECONDS
#   commit                    fio --rw=write --bs=4k --ioengine=sync           --profile commit --size 64M
#                               --fdatasync=1 (buffered), laid-out 64 MiB file,  --duration CM_SECONDS
#                               time_based CM_SECONDS
#
# The same file state for both tools. DirBench prepares its own unnamed file (core/disk/diskengine.cpp,
# iobackends.cpp prefill()): it writes every block first with 1 MiB writes (O_DIRECT through the test's own fd;
# for commit buffered, reserved with posix_fallocate first), fdatasyncs, and (buffered) drops the file's cached
# pages. fio gets the same: "laid-out" above means a separate fio pass writes the whole file with direct 1 MiB
# writes (fio's default data), the file is fsynced and its pages dropped (posix_fadvise DONTNEED), and only then
# the measured fio job starts on it. fio's own layout (--overwrite=1, the old way) wrote through the page cache,
# so every O_DIRECT write of the measured job had to invalidate a cached page (DirBench was 1.54x fio).
# Data: DirBench's default (unique: every 4 KiB of every write distinct) and fio's default (random buffers,
# scrambled per write); DB_DATA=zeros runs both with zeros (fio --zero_buffers). Random jobs use fio's random
# map (each block once per pass), as DirBench's random profiles follow a permutation of the blocks per pass.
#
# Witness: before and after each tool's run the script reads the counters of the disk(s) under DIR
# (/sys/class/block/DEV/stat; a partition counts as its disk, device-mapper/md as their members) and prints the
# device's I/Os and bytes in the test's direction next to the tool's own count. For DirBench the whole-process
# delta includes its (untimed) preparing writes, so the record's own device figure for the measured span
# (summary.devices, witness devices) is printed too. fio's layout pass is outside the window. The counters
# include any other work on the device at the same time.
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
# tool batches submissions), not a different disk. commit compares commits/s only: fio's write latency
# leaves out the fdatasync, DirBench's commit latency includes it.
#
# MB/s = 10^6 bytes/s everywhere (dd's own unit). For dd the MB/s is computed from the bytes and
# seconds dd prints (dd rounds its printed rate to two digits, e.g. "1.8 GB/s"); the printed rate
# is parsed too (GB/s and kB/s converted) and shown as a cross-check.
#
# Usage:  bench/disk_vs_peers.sh DIR          (DIR on the disk to test, not tmpfs; needs ~2 GiB free)
# Env:    QUICK=1         ~2 minutes instead of ~7 (3 dd pairs, 2 fio pairs, 2 s runs, 512 MiB file)
#         DD_PAIRS=5 PAIRS=3 RR_SECONDS=10 RW_SECONDS=10 SW_SECONDS=10 SR_SECONDS=10 CM_SECONDS=10 SIZE_MIB=1024
#         RAND_QD=32
#         RAND_WRITE=1 SEQ_TIMED=1 SEQ_READ=1 COMMIT=1   set to 0 to skip those tests (SEQ_TIMED: both timed
#                         sequential tests)
#         DB_DATA=unique|zeros  data for the fio comparisons (default: each tool's default, unique for
#                         DirBench and random for fio; zeros gives DirBench --data zeros and fio --zero_buffers)
#         DIRBENCH_CLI=path   CLI to use (default: build-core/bin/dirbench-cli, then build/bin/);
#                         it is copied first, because the build tree is rebuilt from time to time.
# Needs:  python3 (JSON and statistics); fio (installed with apt-get if missing, needs root).
# Exit:   0 after a measurement, whatever the ratios (it is a measurement, not a test);
#         2 on bad usage (no DIR, DIR not a directory, bad DB_DATA); 1 if it cannot run (no CLI, no fio, no space).

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
SR_SECONDS=${SR_SECONDS:-$d_secs}
SIZE_MIB=${SIZE_MIB:-$d_size}
RAND_QD=${RAND_QD:-32}
RAND_WRITE=${RAND_WRITE:-1}
SEQ_TIMED=${SEQ_TIMED:-1}
SEQ_READ=${SEQ_READ:-1}
COMMIT=${COMMIT:-1}
CM_SECONDS=${CM_SECONDS:-$d_secs}
CM_SIZE_MIB=64 # DirBench's commit default
DB_DATA=${DB_DATA:-}
# The data: each tool's default unless DB_DATA says otherwise (both then write the same kind).
DB_DATA_ARGS=() FIO_DATA_ARGS=()
case $DB_DATA in
'') ;;
unique | random) DB_DATA_ARGS=(--data unique) ;;
zeros) DB_DATA_ARGS=(--data zeros) FIO_DATA_ARGS=(--zero_buffers) ;;
*)
    echo "$0: DB_DATA must be unique or zeros, not '$DB_DATA'" >&2
    exit 2
    ;;
esac

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
import json, os, re, statistics, sys

def num(x):
    return "n/a" if x is None else (f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.1f}")

def out(*xs):
    # one line for bash's `set_result`: "-" stands for a value the tool did not give
    print(*("-" if x is None else x for x in xs))

def db(path, ddir):
    # dirbench-cli RunRecord -> mb_per_s iops p50_us p99_us mean_us ops bytes syncs span_ios span_bytes
    # (span_*: the record's own device counters over the measured span, witness devices, in direction ddir)
    r = json.load(open(path))
    if r.get("status") != "ok":
        print("FAILED", r.get("status"), r.get("failure", "")); return
    s = r["summary"]; lat = s.get("latency_us", {})
    devs = [d for d in s.get("devices", []) if d.get("witness", True)]
    ios = [d.get(ddir + "_ios") for d in devs]; byts = [d.get(ddir + "_bytes") for d in devs]
    span_ios = sum(ios) if devs and None not in ios else None
    span_bytes = sum(byts) if devs and None not in byts else None
    syncs = s.get("ops") if r.get("spec", {}).get("profile") == "commit" else None
    out(s["mb_per_s"], s["iops"], lat.get("p50"), lat.get("p99"), lat.get("mean"), s.get("ops"), s.get("bytes"),
        syncs, span_ios, span_bytes)

def fio(path, ddir):
    # fio JSON -> mb_per_s iops p50_us p99_us mean_us ops bytes syncs - -, latency = the total latency (lat_ns:
    # issue to completion, the span DirBench times: from preparing the request to reaping its completion)
    j = json.load(open(path)); job = j["jobs"][0]
    if job.get("error"):
        print("FAILED", "fio error", job["error"]); return
    d = job[ddir]; pct = d.get("lat_ns", {}).get("percentile") or d["clat_ns"]["percentile"]
    mean = d.get("lat_ns", d["clat_ns"])["mean"]
    syncs = job.get("sync", {}).get("total_ios") or None
    out(d["bw_bytes"] / 1e6, d["iops"], pct["50.000000"] / 1e3, pct["99.000000"] / 1e3, mean / 1e3,
        d.get("total_ios"), d.get("io_bytes"), syncs, None, None)

def dd(path):
    # "8192+0 records out" and "536870912 bytes (537 MB, 512 MiB) copied, 0.305548 s, 1.8 GB/s"
    #   -> exact MB/s, printed MB/s, writes, bytes
    unit = {"B": 1e-6, "kB": 1e-3, "KB": 1e-3, "MB": 1.0, "GB": 1e3, "TB": 1e6}
    recs = None
    for line in open(path):
        r = re.match(r"(\d+)\+(\d+) records out", line)
        if r:
            recs = int(r[1]) + int(r[2])
        m = re.match(r"(\d+) bytes .*copied, ([\d.]+) s, ([\d.]+) (\w*B)/s", line)
        if m:
            b, s, rate, u = int(m[1]), float(m[2]), float(m[3]), m[4]
            out(b / s / 1e6 if s > 0 else 0, rate * unit.get(u, float("nan")), recs, b); return
    print("FAILED", "no rate in dd output")

def drop(path):
    # the file's dirty pages to disk, then its cached pages dropped: what DirBench's prepared file looks like
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    print("ok")

def witness(ddir, devs, tool, before, after, ops, byts, syncs, span_ios, span_bytes):
    # one line: the device's own I/Os, bytes and flushes over the tool's run, next to the tool's count
    b = [int(x) for x in before.split()]; a = [int(x) for x in after.split()]
    if len(a) != 5 or len(b) != 5:
        print(f"device counters unreadable ({devs})"); return
    d = [y - x for x, y in zip(b, a)]
    ios, sect = (d[0], d[1]) if ddir == "read" else (d[2], d[3])
    verb = "reads" if ddir == "read" else "writes"
    f = lambda x: "?" if x in ("-", "", None) else f"{float(x):,.0f}"
    mb = lambda x: "?" if x in ("-", "", None) else f"{float(x) / 1e6:,.0f} MB"
    line = (f"{devs}: {ios:,} {verb}, {sect * 512 / 1e6:,.0f} MB, {d[4]:,} flushes"
            f" | {tool}: {f(ops)} {verb}, {mb(byts)}" + (f", {f(syncs)} syncs" if syncs not in ("-", "") else ""))
    if span_ios not in ("-", ""):
        line += f" | record, measured span: {f(span_ios)} {verb}, {mb(span_bytes)}"
    print(line)

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
        {"db": lambda: db(sys.argv[2], sys.argv[3]), "fio": lambda: fio(sys.argv[2], sys.argv[3]),
         "dd": lambda: dd(sys.argv[2]), "drop": lambda: drop(sys.argv[2]),
         "witness": lambda: witness(*sys.argv[2:12]), "summary": lambda: summary(sys.argv[2]),
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

# ---------------------------------------------------------------- the device as witness
# The disk(s) under DIR: the file system's device (from st_dev, else df's source); a partition counts as its
# disk, device-mapper and md as their member disks.
WIT_DEVS=()
add_dev() {
    local name=$1 sys=/sys/class/block/$1 m
    [[ -n $name && -e $sys/stat ]] || return
    if compgen -G "$sys/slaves/*" >/dev/null; then
        for m in "$sys"/slaves/*; do add_dev "$(basename "$m")"; done
        return
    fi
    if [[ -e $sys/partition ]]; then
        add_dev "$(basename "$(dirname "$(readlink -f "$sys")")")"
        return
    fi
    [[ " ${WIT_DEVS[*]} " == *" $name "* ]] || WIT_DEVS+=("$name")
}
majmin=$(python3 -c 'import os, sys; d = os.stat(sys.argv[1]).st_dev; print(f"{os.major(d)}:{os.minor(d)}")' "$DIR")
[[ -e /sys/dev/block/$majmin ]] && add_dev "$(basename "$(readlink -f "/sys/dev/block/$majmin")")"
if [[ ${#WIT_DEVS[@]} -eq 0 ]]; then
    fsrc=$(df -P "$DIR" | awk 'NR==2 {print $1}')
    [[ $fsrc == /dev/* && -e $fsrc ]] && add_dev "$(basename "$(readlink -f "$fsrc")")"
fi
WIT_NAME=$(IFS=+ && echo "${WIT_DEVS[*]:-none}")

# wit_read -> "read_ios read_sectors write_ios write_sectors flushes", summed over WIT_DEVS
wit_read() {
    local d f r=0 rs=0 w=0 ws=0 fl=0
    for d in "${WIT_DEVS[@]}"; do
        read -r -a f <"/sys/class/block/$d/stat" || continue
        ((r += f[0], rs += f[2], w += f[4], ws += f[6], fl += ${f[15]:-0}))
    done
    echo "$r $rs $w $ws $fl"
}

# witness DIRECTION TOOL BEFORE AFTER OPS BYTES SYNCS SPAN_IOS SPAN_BYTES -> sets R_WIT
witness() {
    if [[ ${#WIT_DEVS[@]} -eq 0 ]]; then
        R_WIT="no block device found under $DIR"
        return
    fi
    R_WIT=$(pick witness "$1" "$WIT_NAME" "$2" "$3" "$4" "${5:--}" "${6:--}" "${7:--}" "${8:--}" "${9:--}")
}

# ---------------------------------------------------------------- runners
# Each runner sets R_MBPS R_IOPS R_P50 R_P99 R_MEAN (empty on failure) and R_WIT, and prints nothing itself.
R_MBPS='' R_IOPS='' R_P50='' R_P99='' R_MEAN='' R_OPS='' R_BYTES='' R_SYNCS='' R_SPAN_IOS='' R_SPAN_BYTES='' R_WIT=''
set_result() {
    if [[ $1 == FAILED ]]; then
        R_MBPS='' R_IOPS='' R_P50='' R_P99='' R_MEAN='' R_OPS='' R_BYTES='' R_SYNCS='' R_SPAN_IOS='' R_SPAN_BYTES=''
        echo "    run failed: $*" >&2
    else
        R_MBPS=$1 R_IOPS=$2 R_P50=$3 R_P99=$4 R_MEAN=$5 R_OPS=$6 R_BYTES=$7 R_SYNCS=$8 R_SPAN_IOS=$9 R_SPAN_BYTES=${10}
        local v
        for v in R_MBPS R_IOPS R_P50 R_P99 R_MEAN; do [[ ${!v} == - ]] && printf -v "$v" ''; done
    fi
}

run_dd() {
    rm -f "$DDFILE"
    local before after
    before=$(wit_read)
    dd if=/dev/zero of="$DDFILE" bs=64k count=8k conv=fdatasync 2>"$WORK/dd.err"
    after=$(wit_read)
    rm -f "$DDFILE"
    local out
    out=$(pick dd "$WORK/dd.err")
    if [[ $out == FAILED* ]]; then
        set_result FAILED "${out#FAILED }: $(tail -1 "$WORK/dd.err")"
        R_WIT=''
        return
    fi
    read -r R_MBPS DD_PRINTED R_OPS R_BYTES <<<"$out"
    R_IOPS='' R_P50='' R_P99='' R_MEAN=''
    witness write dd "$before" "$after" "$R_OPS" "$R_BYTES" 1
}

# run_db PROFILE [dirbench-cli options...]
run_db() {
    local profile=$1 ddir='write' data=("${DB_DATA_ARGS[@]}") before after
    shift
    [[ $profile == *read* ]] && ddir='read'
    [[ $profile == dd ]] && data=() # the seed's zeros, as the dd it is compared with
    before=$(wit_read)
    "$CLI" disk --profile "$profile" --dir "$DIR" "$@" "${data[@]}" --json - >"$WORK/db.json" 2>"$WORK/db.err"
    after=$(wit_read)
    # shellcheck disable=SC2046
    set_result $(pick db "$WORK/db.json" "$ddir")
    witness "$ddir" "DirBench (whole process, its preparing writes included)" "$before" "$after" "$R_OPS" \
        "$R_BYTES" "$R_SYNCS" "$R_SPAN_IOS" "$R_SPAN_BYTES"
}

# fio_layout FILE SIZE_MIB: the file as DirBench prepares its own: every block written with direct 1 MiB writes
# (fio's default data, or zeros), fsynced, its cached pages dropped. Not timed, outside the witness window.
fio_layout() {
    local file=$1 mib=$2 res
    rm -f "$file"
    fio --name=layout --filename="$file" --ioengine=io_uring --direct=1 --rw=write --bs=1m --iodepth=8 \
        --size="${mib}m" "${FIO_DATA_ARGS[@]}" --output-format=json --output="$WORK/layout.json" \
        >"$WORK/layout.err" 2>&1 || return 1
    [[ $(pick drop "$file") == ok ]] || return 1
    res=$(fincore --bytes --noheadings --output RES "$file" 2>/dev/null | tr -d ' ')
    [[ -z $res || $res == 0 ]] || echo "    note: $res bytes of the laid-out file still cached after DONTNEED" >&2
    return 0
}

# run_fio NAME RW STATE IO SIZE_MIB [fio options...]    (one file in DIR, removed afterwards)
#   STATE: fresh (fio creates the file, fallocated unless told otherwise) or laid-out (fio_layout first)
#   IO:    direct (io_uring, O_DIRECT) or sync (the sync engine, buffered: commit)
run_fio() {
    local name=$1 rw=$2 state=$3 io=$4 mib=$5 ddir='read' before after
    shift 5
    [[ $rw == *write* ]] && ddir='write'
    local file="$FIOPREFIX.$name" ioargs=(--ioengine=io_uring --direct=1)
    [[ $io == sync ]] && ioargs=(--ioengine=sync --direct=0)
    rm -f "$file"
    if [[ $state == laid-out ]] && ! fio_layout "$file" "$mib"; then
        set_result FAILED "laying out $file: $(tail -1 "$WORK/layout.err")"
        R_WIT=''
        return
    fi
    before=$(wit_read)
    fio --name="$name" --filename="$file" "${ioargs[@]}" --rw="$rw" --size="${mib}m" \
        --lat_percentiles=1 --percentile_list=50:99:99.9 --unlink=1 "${FIO_DATA_ARGS[@]}" \
        --output-format=json --output="$WORK/fio.json" "$@" >"$WORK/fio.err" 2>&1
    after=$(wit_read)
    rm -f "$file"
    # shellcheck disable=SC2046
    set_result $(pick fio "$WORK/fio.json" "$ddir")
    witness "$ddir" fio "$before" "$after" "$R_OPS" "$R_BYTES" "$R_SYNCS"
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
            run_peer; run_dirbench
        else
            order="DirBench first"
            run_dirbench; run_peer
        fi
        on_pair "$test" "$i" "$n" "$peername" "$order"
        printf '      witness %s: %s\n' "$peername" "$P_WIT" "DirBench" "$D_WIT"
    done
}
run_peer() {
    "${peer[@]}"
    P_MBPS=$R_MBPS P_IOPS=$R_IOPS P_P50=$R_P50 P_P99=$R_P99 P_MEAN=$R_MEAN P_WIT=$R_WIT
}
run_dirbench() {
    "${db[@]}"
    D_MBPS=$R_MBPS D_IOPS=$R_IOPS D_P50=$R_P50 D_P99=$R_P99 D_MEAN=$R_MEAN D_WIT=$R_WIT
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

# on_pair_commits: commits/s only (fio's write latency leaves out the fdatasync that DirBench's includes)
on_pair_commits() {
    local test=$1 i=$2 n=$3 peername=$4 order=$5
    printf '  %s pair %d/%d (%s): %s\n' "$test" "$i" "$n" "$order" \
        "$(show_metric "$test" commits/s "$i" "$peername" "$P_IOPS" "$D_IOPS")"
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
echo "disk_vs_peers: DirBench vs dd/fio in $DIR ($fs; device witness: $WIT_NAME)"
echo "  $(fio --version), $(dd --version | head -1), CLI copied from ${src:-?}"
echo "  pairs: dd $DD_PAIRS, fio $PAIRS; rand-read ${RR_SECONDS}s, rand-write ${RW_SECONDS}s, seq-write timed ${SW_SECONDS}s, commit ${CM_SECONDS}s; file ${SIZE_MIB} MiB; data ${DB_DATA:-"each tool's default (DirBench unique, fio random)"}"
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
echo "== rand-read 4 KiB QD$RAND_QD, ${RR_SECONDS}s, on a laid-out file: fio randread vs dirbench-cli --profile rand-read"
on_pair() { on_pair_iops "$@"; }
pair_loop "rand-read QD$RAND_QD" "$PAIRS" fio \
    run_fio randread randread laid-out direct "$SIZE_MIB" --bs=4k --iodepth="$RAND_QD" --time_based --runtime="$RR_SECONDS" -- \
    run_db rand-read "${SZ[@]}" --qd "$RAND_QD" --duration "$RR_SECONDS"
for u in IOPS "p50 us" "p99 us" "mean us"; do pick section "$TSV" "rand-read QD$RAND_QD" "$u"; done

if [[ $RAND_WRITE == 1 ]]; then
    echo
    echo "== rand-write 4 KiB QD$RAND_QD, ${RW_SECONDS}s, on a laid-out file (direct writes, cache dropped): fio randwrite vs dirbench-cli --profile rand-write"
    on_pair() { on_pair_iops "$@"; }
    pair_loop "rand-write QD$RAND_QD" "$PAIRS" fio \
        run_fio randwrite randwrite laid-out direct "$SIZE_MIB" --bs=4k --iodepth="$RAND_QD" --time_based --runtime="$RW_SECONDS" -- \
        run_db rand-write "${SZ[@]}" --qd "$RAND_QD" --duration "$RW_SECONDS"
    for u in IOPS "p50 us" "p99 us" "mean us"; do pick section "$TSV" "rand-write QD$RAND_QD" "$u"; done
fi

echo
echo "== seq-write 1 MiB QD8, one pass over ${SIZE_MIB} MiB, fresh file: fio write vs dirbench-cli --profile seq-write"
on_pair() { on_pair_mbps "$@"; }
pair_loop "seq-write 1 pass" "$PAIRS" fio \
    run_fio seqwrite write fresh direct "$SIZE_MIB" --bs=1m --iodepth=8 -- \
    run_db seq-write "${SZ[@]}"
pick section "$TSV" "seq-write 1 pass" MB/s

echo
echo "== diagnostic: the same with fio --fallocate=none (fio then extends an empty file; DirBench reserves its blocks)"
pair_loop "seq-write 1 pass, fio no fallocate" "$PAIRS" "fio" \
    run_fio seqwrite write fresh direct "$SIZE_MIB" --bs=1m --iodepth=8 --fallocate=none -- \
    run_db seq-write "${SZ[@]}"
pick section "$TSV" "seq-write 1 pass, fio no fallocate" MB/s

if [[ $SEQ_TIMED == 1 ]]; then
    echo
    echo "== seq-write 1 MiB QD8, ${SW_SECONDS}s over a ${SIZE_MIB} MiB file: fio --time_based vs dirbench-cli --duration"
    pair_loop "seq-write ${SW_SECONDS}s" "$PAIRS" fio \
        run_fio seqwrite write fresh direct "$SIZE_MIB" --bs=1m --iodepth=8 --time_based --runtime="$SW_SECONDS" -- \
        run_db seq-write "${SZ[@]}" --duration "$SW_SECONDS"
    pick section "$TSV" "seq-write ${SW_SECONDS}s" MB/s
fi

if [[ $SEQ_READ == 1 ]]; then
    echo
    echo "== seq-read 1 MiB QD8, one pass over a laid-out ${SIZE_MIB} MiB file: fio read vs dirbench-cli --profile seq-read"
    on_pair() { on_pair_mbps "$@"; }
    pair_loop "seq-read 1 pass" "$PAIRS" fio \
        run_fio seqread read laid-out direct "$SIZE_MIB" --bs=1m --iodepth=8 -- \
        run_db seq-read "${SZ[@]}"
    pick section "$TSV" "seq-read 1 pass" MB/s
    if [[ $SEQ_TIMED == 1 ]]; then
        echo
        echo "== seq-read 1 MiB QD8, ${SR_SECONDS}s over a laid-out ${SIZE_MIB} MiB file: fio --time_based vs dirbench-cli --duration"
        pair_loop "seq-read ${SR_SECONDS}s" "$PAIRS" fio \
            run_fio seqread read laid-out direct "$SIZE_MIB" --bs=1m --iodepth=8 --time_based --runtime="$SR_SECONDS" -- \
            run_db seq-read "${SZ[@]}" --duration "$SR_SECONDS"
        pick section "$TSV" "seq-read ${SR_SECONDS}s" MB/s
    fi
fi

if [[ $COMMIT == 1 ]]; then
    echo
    echo "== commit: 4 KiB buffered write + fdatasync, ${CM_SECONDS}s over a pre-written ${CM_SIZE_MIB} MiB file: fio --ioengine=sync --fdatasync=1 vs dirbench-cli --profile commit"
    on_pair() { on_pair_commits "$@"; }
    pair_loop "commit" "$PAIRS" fio \
        run_fio commit write laid-out sync "$CM_SIZE_MIB" --bs=4k --fdatasync=1 --time_based --runtime="$CM_SECONDS" -- \
        run_db commit --size "${CM_SIZE_MIB}M" --duration "$CM_SECONDS"
    pick section "$TSV" "commit" commits/s
fi

echo
echo "== summary: ratio = DirBench median / peer median (latency: < 1 means DirBench saw less)"
echo "   took $((SECONDS - t_start)) s; load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
pick summary "$TSV"
exit 0
