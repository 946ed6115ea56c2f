#!/usr/bin/env bash
# replay_fidelity.sh [BUILD_DIR] — the round trip of issue 14 on a big directory: capture -> analyze -> replay ->
# capture again, and how closely the second log matches the first.
#
# A 389-ds sandbox of ENTRIES (default 100,000) uid=userN entries with its access log on (unbuffered) takes a
# search and compare load (Zipf 1.0 keys, RATE ops/s for SECONDS s over 16 connections); the log it wrote is
# analysed and saved (anonymised), the saved workload replayed at speed 1 against the same server (values mapped
# onto uid=user[0-ENTRIES-1]), and the part of the log the replay wrote analysed again. Prints, per operation kind
# and per template, the logged and replayed shares and their difference in percentage points (target: within 2),
# the connections (within 5 %), the fitted Zipf alpha (within 0.1), the replay's own fidelity table (the
# server's etime against the client's latency), the achieved against the logged rate (whole run: the ratio and the
# verdict at 5 %; per second: p50 and p99 of |achieved - logged| / logged) and the send lag (p50, p99, max). Traffic only to the sandbox on 127.0.0.1; everything it made
# is removed at the end. Python 3 reads the JSON.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
entries=${ENTRIES:-100000}
rate=${RATE:-1000}
seconds=${SECONDS_LOAD:-20}
cli=$build/bin/dirbench-cli
[ -x "$cli" ] || { echo "replay_fidelity: $cli is not built (cmake --build $build --target dirbench-cli)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "replay_fidelity: python3 is needed" >&2; exit 2; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/dirbench-replay-bench.XXXXXX")
sandbox=
cleanup() {
    [ -n "$sandbox" ] && "$cli" sandbox stop --server 389ds --dir "$sandbox" >/dev/null 2>&1 || true
    rm -rf "$scratch"
}
trap cleanup EXIT

echo "replay_fidelity: $entries entries, ${rate} ops/s for ${seconds} s; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$cli" sandbox start --server 389ds --entries "$entries" --access-log --dir "$scratch" >"$scratch/sandbox.env"
sandbox=$(sed -n 's/^DIR=//p' "$scratch/sandbox.env")
uri=$(sed -n 's/^URI=//p' "$scratch/sandbox.env")
bind=$(sed -n 's/^BIND_DN=//p' "$scratch/sandbox.env")
pw=$(sed -n 's/^PASSWORD_FILE=//p' "$scratch/sandbox.env")
people=$(sed -n 's/^PEOPLE_BASE=//p' "$scratch/sandbox.env")
log=$(sed -n 's/^ACCESS_LOG=//p' "$scratch/sandbox.env")
keys="uid=user[0-$((entries - 1))]"

# The bytes the log gained since OFFSET, into FILE, once their operation count stops growing (the server writes
# a RESULT line as it answers; the last may trail the client a moment).
tail_of() {
    local offset=$1 out=$2 last=-1 n i
    for ((i = 0; i < 40; i++)); do
        tail -c +"$((offset + 1))" "$log" >"$out"
        n=$(wc -l <"$out")
        [ "$n" = "$last" ] && return 0
        last=$n
        sleep 0.5
    done
}

start=$(stat -c %s "$log")
"$cli" ldap mixed --uri "$uri" --bind-dn "$bind" --password-file "$pw" --mix search=80,compare=20 --base "$people" \
    --filter "$keys" --dn "$keys,$people" --attr objectClass --value person --access zipf:1.0 --rate "$rate" \
    --duration "$seconds" --threads 2 --connections 8 --no-server-counters --no-history --quiet >/dev/null
tail_of "$start" "$scratch/first.log"
"$cli" workload analyze --log "$scratch/first.log" --json "$scratch/first.json" --save "$scratch/w.dbwl" >/dev/null
replayed=$(stat -c %s "$log")
"$cli" replay --workload "$scratch/w.dbwl" --uri "$uri" --shared-password-file "$pw" --key-space "$keys,$people" \
    --no-server-counters --no-history --quiet --json "$scratch/replay.json" >"$scratch/replay.txt"
tail_of "$replayed" "$scratch/second.log"
"$cli" workload analyze --log "$scratch/second.log" --json "$scratch/second.json" >/dev/null
sed -n '/^fidelity:/,$p' "$scratch/replay.txt"
python3 - "$scratch/first.json" "$scratch/second.json" "$scratch/replay.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ta, tb = sum(a["operations"].values()), sum(b["operations"].values())
worst = 0.0
print(f"\n{'kind':10} {'logged %':>9} {'replayed %':>10} {'pp':>6}")
for k, n in sorted(a["operations"].items()):
    sa, sb = 100 * n / ta, 100 * b["operations"].get(k, 0) / tb
    worst = max(worst, abs(sa - sb))
    print(f"{k:10} {sa:9.2f} {sb:10.2f} {sb - sa:+6.2f}")
tb_by = {(t["kind"], t["template"]): t for t in b["templates"]}
print(f"\n{'kind':8} {'template':42} {'logged %':>9} {'replayed %':>10} {'pp':>6}")
for t in a["templates"]:
    u = tb_by.get((t["kind"], t["template"]), {"share": 0})
    sa, sb = 100 * t["share"], 100 * u["share"]
    worst = max(worst, abs(sa - sb))
    print(f"{t['kind']:8} {t['template'][:42]:42} {sa:9.2f} {sb:10.2f} {sb - sa:+6.2f}")
# The server's log counts the replay's own setup connection (root DSE, counters) too: the record says how many.
# Replayed: the connects in the replay's window (it also holds the first load's trailing unbinds, on connections
# opened before it), less that setup connection.
own = int(json.load(open(sys.argv[3]))["summary"]["connections"]["setup"])
ca, seen = a["connections"], b["churn"]["connects"]
cb = seen - own
def alpha(x):
    for t in x["templates"]:
        if t["template"] == "(uid=?1)":
            return t["skew"].get("alpha")
aa, ab = alpha(a), alpha(b)
print(f"\nworst share difference: {worst:.2f} pp (target <= 2)")
print(f"connections: logged {ca}, replayed {cb} ({100 * (cb - ca) / ca:+.1f} %, target within 5 %;"
      f" the server saw {seen} connect, {own} of them the replay's own setup connection)")
print(f"Zipf alpha of (uid=?1): logged {aa}, replayed {ab} (target within 0.1)")
summary = json.load(open(sys.argv[3]))["summary"]
rate = summary["fidelity"].get("rate")
if rate:
    ps = rate["per_second"]
    pct = lambda v: "-" if v is None else f"{100 * v:.2f} %"
    print(f"rate: achieved {rate['achieved_ops_per_s']:.2f} ops/s, logged {rate['logged_ops_per_s']:.2f} ops/s,"
          f" ratio {rate['ratio']:.4f} (verdict {'passed' if rate['passed'] else 'FAILED'}: within 5 %)")
    print(f"rate per second, |achieved - logged| / logged over {ps['seconds'] - ps['quiet_seconds']} s:"
          f" p50 {pct(ps['p50'])}, p99 {pct(ps['p99'])}, max {pct(ps['max'])}")
lag = summary.get("send_lag_ms", {})
print(f"send lag: p50 {lag.get('p50')} ms, p99 {lag.get('p99')} ms, max {lag.get('max')} ms")
EOF
