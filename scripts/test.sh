#!/usr/bin/env bash
# Installs what is missing, builds the test configuration and runs the whole test suite with ctest.
# The test configuration is the one with AddressSanitizer + UndefinedBehaviorSanitizer and warnings as errors
# (-Werror lives here only; the package's Release build in scripts/package.sh has neither). Third-party leaks are
# suppressed in tests/sanitizers/lsan.supp, each with its reason; any finding in DirBench's code fails its test.
# Every test has one label (tests/CMakeLists.txt): unit, ui and integration run two at a time, then io (the tests
# that measure disk I/O or time a real disk test) one at a time. Both runs happen even when the first fails.
# A test may skip only where something it needs cannot be had on this machine: every skipped test function is
# printed with its reason, and the script fails when one is not on tests/allowed-skips.txt (a program the suite needs
# and deps.sh installs is never missing here, and a server that does not start is a failure, not a skip).
# Usage: scripts/test.sh [extra ctest arguments, given to both runs: -L unit, -R tst_sandbox, ...]
# Environment: BUILD_DIR (default build-asan), SANITIZE=0 for a plain Release build instead (faster, no sanitizers),
# CCACHE_DISABLE=1 to compile without ccache, TEST_BESIDE="COMMAND" to run COMMAND at nice 19 beside the tests
# once the build is done (CI: the lint, which then takes the CPU the waiting tests leave idle; it is paused while
# the io tests measure the disk); its output is printed after the tests and its failure fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
dirbench_install "${DIRBENCH_PKGS[@]}" "${DIRBENCH_TEST_PKGS[@]}"
echo "test: packages checked at $SECONDS s"
root=$(pwd)
if [ "${SANITIZE:-1}" = 1 ]; then
  BUILD_DIR=${BUILD_DIR:-build-asan}
  dirbench_ccache "$BUILD_DIR"
  san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DDIRBENCH_WERROR=ON \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCMAKE_CXX_FLAGS="$san" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" "$DIRBENCH_LAUNCHER" >/dev/null
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export LSAN_OPTIONS=suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0
else
  BUILD_DIR=${BUILD_DIR:-build-ci}
  dirbench_ccache "$BUILD_DIR"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDIRBENCH_WERROR=ON "$DIRBENCH_LAUNCHER" >/dev/null
fi
cmake --build "$BUILD_DIR" -j"$(nproc)"
echo "test: build done at $SECONDS s ($(dirbench_ccache_summary))"
beside_pid=
if [ -n "${TEST_BESIDE:-}" ]; then
  beside_log=$(mktemp)
  setsid -w nice -n 19 bash -c "$TEST_BESIDE" >"$beside_log" 2>&1 & # its own process group: paused during io
  beside_pid=$!
  echo "test: started beside the tests (nice 19): $TEST_BESIDE"
fi
cd "$BUILD_DIR"
export QT_QPA_PLATFORM=offscreen

count() { ctest -N "$@" | sed -n 's/^Total Tests: //p'; }
labelled=0
for label in unit ui integration io; do
  n=$(count -L "^$label\$")
  labelled=$((labelled + n))
  summary+="${summary:+, }$n $label"
done
total=$(count)
echo "test: $total tests: $summary"
if [ "$labelled" -ne "$total" ]; then
  echo "test: $total tests but $labelled labels: each test needs exactly one of unit, ui, integration, io" >&2
  exit 1
fi

# ctest keeps every test's whole output, passed or not, in LastTest.log (of its latest run only): kept after each run
# for the skips (Qt Test's "SKIP   : Class::function(tag) reason" lines).
outputs=$(mktemp)
trap 'rm -f "$outputs"' EXIT
lastlog=Testing/Temporary/LastTest.log
keep_output() { [ -f "$lastlog" ] && cat "$lastlog" >>"$outputs" && rm -f "$lastlog"; return 0; }
rm -f "$lastlog"

# -L and -LE take regular expressions ("io" alone would match "integration" too).
rest=$(count -LE '^io$' "$@") io=$(count -L '^io$' "$@")
rc_rest=0 rc_io=0
if [ "$rest" -gt 0 ] || [ "$io" -eq 0 ]; then # with no test selected at all, --no-tests=error says so here
  echo "test: unit, ui and integration, two at a time ($rest tests)"
  ctest --output-on-failure --no-tests=error -j2 -LE '^io$' "$@" || rc_rest=$?
  keep_output
  echo "test: unit, ui and integration done at $SECONDS s (exit $rc_rest)"
else
  echo "test: unit, ui and integration: none selected"
fi
if [ "$io" -eq 0 ]; then
  echo "test: io: none selected"
else
  # Disk tests measure real I/O: beside another test both get noisier. -j1 after the extra arguments: always alone.
  echo "test: io, one at a time ($io tests)"
  # The command beside may be done already (a lint with nothing to analyse): then there is nothing to pause.
  if [ -n "$beside_pid" ] && kill -STOP -- "-$beside_pid" 2>/dev/null; then echo "test: paused beside the io tests"; fi
  ctest --output-on-failure --no-tests=error -L '^io$' "$@" -j1 || rc_io=$?
  keep_output
  if [ -n "$beside_pid" ]; then kill -CONT -- "-$beside_pid" 2>/dev/null || true; fi
  echo "test: io done at $SECONDS s (exit $rc_io)"
fi
rc_skip=0
bash "$root/scripts/skips.sh" "$outputs" "$root/tests/allowed-skips.txt" || rc_skip=$?
rc_beside=0
if [ -n "$beside_pid" ]; then
  wait "$beside_pid" || rc_beside=$?
  echo "test: beside the tests ($TEST_BESIDE), done at $SECONDS s (exit $rc_beside):"
  cat "$beside_log" && rm -f "$beside_log"
fi
if [ "$rc_beside" -ne 0 ]; then
  echo "test: FAILED beside the tests: $TEST_BESIDE (exit $rc_beside)" >&2
fi
if [ "$rc_rest" -ne 0 ] || [ "$rc_io" -ne 0 ] || [ "$rc_beside" -ne 0 ] || [ "$rc_skip" -ne 0 ]; then
  echo "test: FAILED (unit, ui and integration: exit $rc_rest; io: exit $rc_io; skips: exit $rc_skip); the failed" \
    "tests and the skips not allowed are listed above" >&2
  exit 1
fi
