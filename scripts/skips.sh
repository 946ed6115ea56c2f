#!/usr/bin/env bash
# skips.sh LOG ALLOWED — the skipped test functions in ctest's LastTest.log (LOG: one or more of them, concatenated),
# each printed with its reason, checked against ALLOWED (tests/allowed-skips.txt). Exit 0 when every skip is on the
# list, 1 when one is not (each such skip is named), 2 when a file cannot be read or an entry of the list has no
# reason. scripts/test.sh runs it after its ctest runs.
#
# A skip is Qt Test's line "SKIP   : Class::function(tag) reason" in the output of the ctest test it belongs to
# ("N/M Test: name" opens each test's section of the log); it is named test::function(tag), "(tag)" only for a
# data-driven function. An entry of the list is "test::function  reason" (every data row of the function may
# skip) or "test::function(tag)  reason" (only that row); blank lines and lines starting with # are comments.
set -euo pipefail
log=${1:?usage: skips.sh LOG ALLOWED} allowed=${2:?usage: skips.sh LOG ALLOWED}
for f in "$log" "$allowed"; do
  [ -r "$f" ] || { echo "test: skips: cannot read $f" >&2; exit 2; }
done
awk -v listname="$(basename "$(dirname "$allowed")")/$(basename "$allowed")" '
  # The list: key (test::function or test::function(tag)), then its reason.
  FILENAME == ARGV[1] {
    if ($0 ~ /^[ \t]*(#|$)/) next
    if (!match($0, /^[A-Za-z0-9_.-]+::[A-Za-z0-9_]+(\([^)]*\))?/)) {
      printf "test: skips: %s:%d: not test::function(tag) reason: %s\n", FILENAME, FNR, $0 > "/dev/stderr"
      bad = 1; next
    }
    key = substr($0, 1, RLENGTH); reason = substr($0, RLENGTH + 1)
    gsub(/^[ \t]+|[ \t]+$/, "", reason)
    if (reason == "") {
      printf "test: skips: %s:%d: %s has no reason\n", FILENAME, FNR, key > "/dev/stderr"
      bad = 1; next
    }
    allow[key] = 1; next
  }
  /^[0-9]+\/[0-9]+ Test: / { test = $3; next }
  /^SKIP   : / {
    line = substr($0, 10)
    if (!match(line, /^[A-Za-z0-9_]+::[A-Za-z0-9_]+\(/)) next
    head = substr(line, 1, RLENGTH - 1); rest = substr(line, RLENGTH + 1)
    fn = substr(head, index(head, "::") + 2)
    close_at = index(rest, ") "); if (close_at == 0) close_at = length(rest)
    tag = substr(rest, 1, close_at - 1); reason = substr(rest, close_at + 2)
    name = test "::" fn; full = tag == "" ? name : name "(" tag ")"
    ok = (name in allow) || (full in allow)
    printf "test: skipped: %s: %s%s\n", full, reason, ok ? "" : "  [NOT on " listname "]"
    ++skipped
    if (!ok) notallowed[++n] = full
  }
  END {
    fflush() # the skips above come before the verdict on stderr, in a log that holds both
    if (bad) exit 2
    if (n > 0) {
      printf "test: FAILED: %d of %d skipped test functions are not on %s (a test may skip only where what it " \
        "needs cannot be had on this machine; say why there, or make the test run):\n", n, skipped, listname \
        > "/dev/stderr"
      for (i = 1; i <= n; ++i) printf "test:   %s\n", notallowed[i] > "/dev/stderr"
      exit 1
    }
    printf "test: %d skipped test functions%s\n", skipped, skipped ? ", each on " listname : ""
  }
' "$allowed" "$log"
