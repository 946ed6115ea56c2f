#!/bin/bash
# Makes one record of every kind DirBench writes, with the real dirbench-cli against throwaway sandboxes on
# 127.0.0.1, into this folder (tst_recordopen opens each in its page). Usage: make.sh BUILD_DIR
# Short runs: the records are for opening, not for their figures.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=$(cd "$1" && pwd)/bin/dirbench-cli
work=$(mktemp -d)
export DIRBENCH_HISTORY=$work/history.sqlite
stop() { "$cli" sandbox stop --dir "$work/s1" >/dev/null 2>&1 || true; "$cli" sandbox stop --dir "$work/s2" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
mkdir -p "$work/s1" "$work/s2" "$work/disk"
eval "$("$cli" sandbox start --entries 2000 --access-log --dir "$work/s1" | sed -n 's/^\(URI\|ACCESS_LOG\|PEOPLE_BASE\)=/S1_\1=/p')"
eval "$("$cli" sandbox start --entries 500 --replicas 1 --dir "$work/s2" | sed -n 's/^\(URI\|REPLICA1_URI\|BIND_DN\|PASSWORD_FILE\)=/S2_\1=/p')"
people=$S1_PEOPLE_BASE
target=(--uri "$S1_URI" --base "$people" --filter "(uid=user[0-1999])" --threads 1 --connections 1)
load=("${target[@]}" --duration 1 --quiet)
q() { "$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; echo "make.sh: failed: $*" >&2; exit 1; }; }
q "$cli" disk --dir "$work/disk" --profile seq-write --size 16M --duration 1 --quiet --json "$here/disk.dirbench.json"
q "$cli" disk --dir "$work/disk" --profile seq-write --size 16M --duration 1 --under-load --lead 0.5 --quiet "${target[@]}" --json "$here/disk-under-load.dirbench.json"
q "$cli" ldap probe --uri "$S1_URI" --json "$here/ldap-probe.dirbench.json"
q "$cli" ldap search "${load[@]}" --json "$here/ldap-search.dirbench.json"
q "$cli" ldap mixed --uri "$S1_URI" --base "$people" --filter "(uid=user[0-1999])" --mix search=9,compare=1 --dn "uid=user[0-1999],$people" --attr uid --value "user[0-1999]" --duration 1 --quiet --json "$here/ldap-mixed.dirbench.json"
q "$cli" ldap search --uri "$S1_URI" --base "$people" --filter "(uid=user[0-1999])" --threads 2 --duration 1 --quiet --agents local:2 --json "$here/ldap-agents.dirbench.json"
q "$cli" replication --supplier "$S2_URI" --consumer "$S2_REPLICA1_URI" --bind-dn "$S2_BIND_DN" --password-file "$S2_PASSWORD_FILE" --marker-dn "cn=dirbench-marker,dc=example,dc=com" --marker-rate 10 --duration 2 --json "$here/replication.dirbench.json"
q "$cli" workload analyze --log "$S1_ACCESS_LOG" --json "$here/workload-analysis.json" # an analysis, not a run
q "$cli" replay --log "$S1_ACCESS_LOG" --uri "$S1_URI" --key-space "uid=user[0-1999]" --duration 1 --json "$here/replay.dirbench.json"
q "$cli" curve --mode working-set --uri "$S1_URI" --base "$people" --filter "(uid=user[0-1999])" --cache-entries 1000 --points 50,100 --seconds-per-point 1 --warmup 0 --threads 1 --connections 1 --json "$here/curve.dirbench.json"
q "$cli" experiment threads --uri "$S1_URI" --base "$people" --filter "(uid=user[0-1999])" --points 1,2 --seconds-per-point 1 --json "$here/thread-sweep.dirbench.json"
q "$cli" sizing --server 389ds --threads 8 --dbcache-mb 685 --entries 250000 --entry-cache-bytes-per-entry 3000 --json "$here/sizing.dirbench.json"
q "$cli" cloud compare --seed-example --json "$here/cloud-compare.dirbench.json"
echo "make.sh: records written to $here"
