#!/usr/bin/env bash
# report_render.sh — how long does `dirbench-cli report` take to render the PDF of 8 runs? (target: < 2 s)
#
# Makes 8 real records first (not timed): a random-read and a sequential-write disk test and the directory suite on
# a scratch file, a 389-ds sizing, the eDirectory article's cloud table, and — against a private sandbox slapd —
# a search load, a search+modify mix and a thread sweep of 1, 2 and 4 client threads. Then renders
#     dirbench-cli report --in A.json ... --in H.json --pdf report.pdf
# RUNS times (default 5) and prints each run's wall time, the median, the PDF's pages and the pages before the
# appendix of full settings (target: at most 10). The report is rendered offscreen (no display needed).
#
# Usage:  bench/report_render.sh [BUILD_DIR]   (default: build-perf, then build; or DIRBENCH_CLI=path)
# Env:    RUNS=5 KEEP=1 (keep the records and the PDF in the scratch directory)
# Needs:  slapd and ldap-utils (the sandbox), python3, pdfinfo and pdftotext (poppler-utils).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib/ldapbench.sh
source bench/lib/ldapbench.sh
RUNS=${RUNS:-5}
[[ -n ${1:-} ]] && DIRBENCH_CLI=$1/bin/dirbench-cli && export DIRBENCH_CLI
for tool in pdfinfo pdftotext; do
    command -v "$tool" >/dev/null || lb_die "$tool is needed (apt-get install poppler-utils)"
done

lb_init dirbench-report-bench
lb_find_cli
export QT_QPA_PLATFORM=offscreen
rec=$LB_WORK/records
mkdir -p "$rec"
cli() { "$LB_CLI" "$@" --no-history >/dev/null 2>"$LB_WORK/last.err" || lb_die "dirbench-cli $1: $(cat "$LB_WORK/last.err")"; }

echo "making 8 records (not timed) ..."
cli disk --dir "$LB_WORK" --profile rand-read --size 32M --duration 2 --json "$rec/1-rand-read.json" --quiet
cli disk --dir "$LB_WORK" --profile seq-write --size 32M --duration 2 --json "$rec/2-seq-write.json" --quiet
cli disk --dir "$LB_WORK" --profile directory --size 32M --duration 2 --json "$rec/3-suite.json" --quiet
cli sizing --server 389ds --entries 200000 --entry-cache-bytes-per-entry 3000 --db-size-mb 900 --threads 8 \
    --json "$rec/4-sizing.json"
cli cloud compare --seed-example --json "$rec/5-cloud.json"
lb_sandbox_start 2000
common=(--uri "$SBX_URI" --bind-dn "$SBX_BIND_DN" --password-file "$SBX_PASSWORD_FILE" --base "$SBX_PEOPLE_BASE")
cli ldap search "${common[@]}" --filter 'uid=user[0-1999]' --duration 3 --threads 2 --json "$rec/6-search.json"
cli ldap mixed "${common[@]}" --mix search=80,modify=20 --filter 'uid=user[0-1999]' \
    --dn "uid=user[0-1999],$SBX_PEOPLE_BASE" --attr description --value 'bench [0-99]' --duration 3 --threads 2 \
    --json "$rec/7-mixed.json"
cli experiment threads "${common[@]}" --filter 'uid=user[0-1999]' --points 1,2,4 --seconds-per-point 2 \
    --json "$rec/8-sweep.json"

ins=()
for f in "$rec"/*.json; do ins+=(--in "$f"); done
pdf=$LB_WORK/report.pdf
times=()
for i in $(seq 1 "$RUNS"); do
    start=$(date +%s.%N)
    "$LB_CLI" report "${ins[@]}" --pdf "$pdf" >/dev/null 2>"$LB_WORK/report.err" ||
        lb_die "report: $(cat "$LB_WORK/report.err")"
    end=$(date +%s.%N)
    t=$(python3 -c "print(f'{$end - $start:.3f}')")
    times+=("$t")
    echo "run $i: ${t} s"
done
pages=$(pdfinfo "$pdf" | awk '/^Pages:/ {print $2}')
appendix=0
for p in $(seq 1 "$pages"); do
    if pdftotext -f "$p" -l "$p" "$pdf" - | grep -q "Appendix: full settings"; then
        appendix=$p
        break
    fi
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
echo
echo "report of 8 runs: median ${median} s over $RUNS renders (target < 2 s); $pages pages, $((appendix - 1)) before" \
    "the appendix of full settings (target <= 10)"
exit 0
