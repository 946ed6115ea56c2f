#!/usr/bin/env bash
# lint.sh — the checks CI makes on the source besides the tests: the format (.clang-format, clang-format-14, every
# C++ file), clang-tidy-14 (.clang-tidy: bugprone and performance) and clazy (the Qt checks, CLAZY_CHECKS below)
# over the product code (core/, ui/, app/). Exit 1 when any of them finds something, with every finding printed.
#
# Usage:  bash scripts/lint.sh            after scripts/test.sh (it reads that build's compile_commands.json and
#                                          the moc files the build generated)
# Env:    BUILD_DIR (default build-asan), LINT_JOBS (default nproc), LINT=format,tidy,clazy (the parts to run),
#         LINT_FILES (a file listing the sources to analyse; default every product source),
#         LINT_SINCE=auto (CI: only what changed since a tree the whole lint passed on, below),
#         LINT_RECORD=1 (a whole lint that is clean writes this commit into .ci/lint-clean)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh

BUILD_DIR=${BUILD_DIR:-build-asan}
JOBS=${LINT_JOBS:-$(nproc)}
LINT=${LINT:-format,tidy,clazy}
# Only what the parts asked for (CI's format check needs clang-format alone).
need=(clang-format-14)
[[ $LINT == *tidy* ]] && need+=(clang-tidy-14)
[[ $LINT == *clazy* ]] && need+=(clazy)
dirbench_install "${need[@]}"
# clazy's level0 (no false positives) and the level1 checks that hold for this code; left out: level1's
# non-pod-global-static (every QStringLiteral table), and level0's qstring-ref (it asks for midRef(), a Qt 5 API).
CLAZY_CHECKS=level0,no-qstring-ref,connect-3arg-lambda,const-signal-or-slot,detaching-temporary,foreach,incorrect-emit,install-event-filter,overridden-signal,qhash-namespace,qproperty-without-notify,range-loop-detach,range-loop-reference,returning-data-from-temporary,rule-of-two-soft,skipped-base-method,virtual-signal
start=$(date +%s)
failed=0
stage() { echo "lint: $1 at $(($(date +%s) - start)) s"; }
# Compiler flags clang does not know (g++'s warnings) or that turn the analysers' warnings into errors.
extra=(--extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-error)
mapfile -t product < <(git ls-files 'core/*.cpp' 'ui/*.cpp' 'app/*.cpp')
# LINT_FILES=FILE: only the sources listed in FILE (one path a line), e.g. those a change touched.
[ -n "${LINT_FILES:-}" ] && mapfile -t product <"$LINT_FILES"
whole=$([ -z "${LINT_FILES:-}" ] && echo 1 || echo 0)

# LINT_SINCE=auto: the analysers' findings in a source can change only when the source, a header it includes or the
# analysers' settings change. .ci/lint-clean names a commit whose whole tree was clean; a source is analysed again
# when it or any file of this repository it depends on (the build's own dependency list, ninja -t deps) differs
# from that commit; only the repository's sources, never those the build generates (moc's). Settings (.clang-tidy,
# this script, the top CMake files) changed, no .ci/lint-clean, its commit not in this clone, or a build directory
# outside the repository: everything is analysed.
since_clean() {
  local base root
  base=$(tr -d ' \n' <.ci/lint-clean 2>/dev/null) || return 1
  git cat-file -e "$base^{commit}" 2>/dev/null || return 1
  root=$(pwd -P)
  [ "$(cd "$BUILD_DIR/.." && pwd -P)" = "$root" ] || return 1
  local changed
  changed=$( (git diff --name-only "$base" -- && git diff --name-only HEAD -- && git ls-files --others --exclude-standard) | sort -u)
  # The directories' own CMakeLists.txt only list sources and libraries (a new source is a changed file itself);
  # the compile flags live in the top CMakeLists.txt and cmake/.
  if echo "$changed" | grep -qE '^(\.clang-tidy|scripts/lint\.sh|CMakeLists\.txt|cmake/.*)$'; then
    echo "lint: the analysers' settings changed since $base: everything is analysed"
    return 1
  fi
  mapfile -t product < <(ninja -C "$BUILD_DIR" -t deps 2>/dev/null | awk -v root="$root/" -v list="$changed" '
    BEGIN { n = split(list, c, "\n"); for (i = 1; i <= n; i++) if (c[i] != "") changed[c[i]] = 1 }
    function rel(p) { if (index(p, root) == 1) return substr(p, length(root) + 1); sub(/^\.\.\//, "", p); return p }
    /^[^ \t]/ { if (src != "" && hit) print src; src = ""; hit = 0; next }
    /^[ \t]/ { p = rel($1); if (src == "" && p ~ /^(core|ui|app)\/.*\.cpp$/) src = p; if (p in changed) hit = 1 }
    END { if (src != "" && hit) print src }' | sort -u | comm -12 - <(git ls-files 'core/*.cpp' 'ui/*.cpp' 'app/*.cpp' | sort))
  echo "lint: ${#product[@]} sources changed (or depend on what changed) since $base, the last whole clean tree"
}
if [ "${LINT_SINCE:-}" = auto ] && [ "$whole" = 1 ] && [[ $LINT == *tidy* || $LINT == *clazy* ]]; then
  since_clean || mapfile -t product < <(git ls-files 'core/*.cpp' 'ui/*.cpp' 'app/*.cpp')
fi

if [[ $LINT == *format* ]]; then
  mapfile -t all < <(git ls-files '*.cpp' '*.h')
  bad=$(printf '%s\0' "${all[@]}" | xargs -0 -n 50 -P "$JOBS" clang-format-14 --dry-run 2>&1 | grep -oE '^[^:]+\.(cpp|h)' | sort -u || true)
  if [ -n "$bad" ]; then
    echo "lint: not formatted as .clang-format says (clang-format-14 -i FILE):" && echo "$bad" | sed 's/^/  /'
    failed=1
  fi
  stage "format checked (${#all[@]} files)"
fi

if [[ $LINT == *tidy* || $LINT == *clazy* ]] && [ ! -f "$BUILD_DIR/compile_commands.json" ]; then
  echo "lint: $BUILD_DIR/compile_commands.json is missing: run scripts/test.sh first (or set BUILD_DIR)" >&2
  exit 1
fi

# Findings as "path:line:col: warning: text [check]", once each (a header's finding repeats per source file).
findings() { sed 's/\x1b\[[0-9;]*m//g' | grep -E '^/.*: (warning|error): ' | sed "s|^$(pwd -P)/||" | sort -u; }

# report TOOL RC LOG: the findings in LOG, or the log's tail when the tool itself failed (a lint that did not run
# is never "clean").
report() {
  local out
  out=$(findings <"$3" || true)
  if [ -n "$out" ]; then
    echo "lint: $1 ($(echo "$out" | wc -l) findings):" && echo "$out" | sed 's/^/  /'
    failed=1
  elif [ "$2" != 0 ]; then
    echo "lint: $1 failed (exit $2) without a finding to show; its last lines:" && tail -n 20 "$3" | sed 's/^/  /'
    failed=1
  fi
}
log=$(mktemp)
db=$(mktemp -d)
trap 'rm -rf "$log" "$db"' EXIT
# The build's compile commands without its precompiled header (DIRBENCH_PCH): clang cannot read gcc's .gch, and
# without it a source that relies on the header for an include of its own is found out here.
if [[ $LINT == *tidy* || $LINT == *clazy* ]]; then
  sed -E 's# -Winvalid-pch##g; s# -include [^ "]*/cmake_pch\.hxx##g' "$BUILD_DIR/compile_commands.json" \
    >"$db/compile_commands.json"
fi

if [ "${#product[@]}" = 0 ] && [[ $LINT == *tidy* || $LINT == *clazy* ]]; then
  echo "lint: no source to analyse"
  LINT=${LINT//tidy/}
  LINT=${LINT//clazy/}
fi

if [[ $LINT == *tidy* ]]; then
  rc=0
  run-clang-tidy-14 -p "$db" -j "$JOBS" -quiet "${extra[@]/#--/-}" "${product[@]}" >"$log" 2>&1 || rc=$?
  report clang-tidy-14 "$rc" "$log"
  stage "clang-tidy done (${#product[@]} files)"
fi

if [[ $LINT == *clazy* ]]; then
  rc=0
  printf '%s\0' "${product[@]}" | xargs -0 -n 4 -P "$JOBS" clazy-standalone -p "$db" \
    --checks="$CLAZY_CHECKS" --header-filter="$(pwd -P)/(core|ui|app)/" --ignore-dirs="$BUILD_DIR" "${extra[@]}" \
    >"$log" 2>&1 || rc=$?
  report clazy "$rc" "$log"
  stage "clazy done"
fi

if [ "$failed" = 0 ]; then
  echo "lint: clean"
  if [ "${LINT_RECORD:-0}" = 1 ] && [ "$whole" = 1 ] && [ "${LINT_SINCE:-}" != auto ] && [ "$LINT" = format,tidy,clazy ] \
    && git diff --quiet HEAD --; then
    git rev-parse HEAD >.ci/lint-clean && echo "lint: .ci/lint-clean = $(cat .ci/lint-clean) (commit it)"
  fi
fi
exit "$failed"
