#!/usr/bin/env bash
# ldif_stats.sh — how fast does `dirbench-cli sizing --ldif` read an LDIF? (target: >= 100 MB/s)
#
# Generates an LDIF of about SIZE_MB MB (default 100) in a temporary directory: inetOrgPerson entries of about
# 1 KB like the sandbox's (core/sandbox/ldifgenerator.h), with a folded description on every 4th entry, a base64
# value on every 8th, a comment every 1000 entries and a groupOfNames every 500 — so the reader's slow paths run
# too. Then it reads the file RUNS times (default 5) with
#     dirbench-cli sizing --server 389ds --ldif FILE --json - --no-history
# and prints, per run and as the median:
#   wall MB/s    file bytes / wall time of the whole command (process start, read, sizing, JSON out)
#   reader MB/s  the reader's own figure from the record (summary.ldif.mb_per_s: the read loop alone)
# MB = 10^6 bytes. The first read is preceded by one untimed read so the file is in the page cache for every timed
# run: this measures the parser, not the disk.
#
# Usage:  bench/ldif_stats.sh [BUILD_DIR]      (default: build; needs BUILD_DIR/bin/dirbench-cli and python3)
# Env:    SIZE_MB=100 RUNS=5 TMPDIR=/var/tmp
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-${BUILD_DIR:-build}}
CLI="$BUILD_DIR/bin/dirbench-cli"
SIZE_MB=${SIZE_MB:-100}
RUNS=${RUNS:-5}
[ -x "$CLI" ] || { echo "ldif_stats.sh: $CLI not found: build first (cmake --build $BUILD_DIR)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "ldif_stats.sh: python3 is needed to generate the LDIF" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/dirbench-ldif-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
ldif="$work/bench.ldif"

echo "generating ~${SIZE_MB} MB of LDIF in $ldif ..." >&2
python3 - "$ldif" "$SIZE_MB" <<'PY'
import base64, sys
path, target = sys.argv[1], int(sys.argv[2]) * 1000 * 1000
first = ["Ada", "Alan", "Barbara", "Brian", "Claude", "Dennis", "Donald", "Edsger", "Grace", "Hedy", "Ken", "Radia"]
last = ["Lovelace", "Turing", "Liskov", "Kernighan", "Shannon", "Ritchie", "Knuth", "Dijkstra", "Hopper", "Lamarr"]
words = ["directory", "service", "replica", "schema", "index", "cache", "entry", "attribute", "filter", "search",
         "bind", "modify", "account", "badge", "project", "budget", "review", "meeting", "office", "network"]
def fold(line):
    out, line = [line[:76]], line[76:]
    while line:
        out.append(" " + line[:75])
        line = line[75:]
    return "\n".join(out)
with open(path, "w", buffering=1 << 22) as f:
    f.write("version: 1\n\ndn: dc=example,dc=com\nobjectClass: top\nobjectClass: domain\ndc: example\n\n"
            "dn: ou=people,dc=example,dc=com\nobjectClass: organizationalUnit\nou: people\n\n")
    written, i = 0, 0
    while written < target:
        fn, ln = first[i % len(first)], last[(i // 7) % len(last)]
        desc = " ".join(words[(i * 7 + k) % len(words)] for k in range(48))
        e = [f"dn: uid=user{i},ou=people,dc=example,dc=com",
             "objectClass: top", "objectClass: person", "objectClass: organizationalPerson",
             "objectClass: inetOrgPerson", f"uid: user{i}", f"cn: {fn} {ln} {i}", f"sn: {ln}",
             f"givenName: {fn}", f"displayName: {fn} {ln}", f"initials: {fn[0]}. {ln[0]}.",
             f"mail: user{i}@example.com", f"telephoneNumber: +1 555 {i // 10000 % 1000:03d} {i % 10000:04d}",
             f"mobile: +1 556 {i * 31 % 1000:03d} {i * 17 % 10000:04d}", f"employeeNumber: {100000 + i}",
             f"employeeType: {['Employee', 'Contractor', 'Intern'][i % 3]}", f"departmentNumber: {i % 40}",
             f"title: {['Engineer', 'Manager', 'Analyst', 'Architect'][i % 4]}", f"l: {['Oslo', 'Lyon', 'Boston'][i % 3]}",
             f"street: {i % 300} Main Street", f"postalCode: {10000 + i % 89999}", f"roomNumber: {i % 900}",
             "userPassword: {SSHA}c2FsdGVkLWhhc2gtb2YtdGhlLXBhc3N3b3JkLWZvci1iZW5jaA=="]
        d = "description: " + desc
        e.append(fold(d) if i % 4 == 0 else d)
        if i % 8 == 0:
            e.append("jpegPhoto:: " + base64.b64encode(bytes((i + k) % 256 for k in range(96))).decode())
        block = ("# generated block %d\n" % i if i % 1000 == 0 else "") + "\n".join(e) + "\n\n"
        if i % 500 == 0 and i > 0:
            members = "\n".join(f"member: uid=user{i - k},ou=people,dc=example,dc=com" for k in range(1, 20))
            block += f"dn: cn=group{i},dc=example,dc=com\nobjectClass: groupOfNames\ncn: group{i}\n{members}\n\n"
        f.write(block)
        written += len(block)
        i += 1
PY
bytes=$(stat -c %s "$ldif")
echo "file: $bytes bytes ($(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB)" >&2

"$CLI" sizing --server 389ds --ldif "$ldif" --json - --no-history >/dev/null 2>&1 # warm the page cache

walls=()
readers=()
printf '%-5s %12s %12s %12s %10s\n' run wall_s wall_MB/s reader_MB/s entries
for run in $(seq 1 "$RUNS"); do
  t0=$(date +%s.%N)
  json=$("$CLI" sizing --server 389ds --ldif "$ldif" --json - --no-history 2>/dev/null)
  t1=$(date +%s.%N)
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
  wall_mbps=$(awk -v b="$bytes" -v s="$wall" 'BEGIN { printf "%.1f", b / 1e6 / s }')
  read -r reader entries < <(python3 -c 'import json, sys
l = json.load(sys.stdin)["summary"]["ldif"]
print("%.1f %d" % (l["mb_per_s"], l["entries"]))' <<<"$json")
  printf '%-5s %12s %12s %12s %10s\n' "$run" "$wall" "$wall_mbps" "$reader" "$entries"
  walls+=("$wall_mbps")
  readers+=("$reader")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
wall_med=$(median "${walls[@]}")
reader_med=$(median "${readers[@]}")
verdict=$(awk -v m="$wall_med" 'BEGIN { print (m >= 100) ? "PASS" : "FAIL" }')
echo
echo "median: wall $wall_med MB/s (whole command), reader $reader_med MB/s; target >= 100 MB/s (wall): $verdict"
