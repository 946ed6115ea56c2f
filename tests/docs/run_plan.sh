#!/usr/bin/env bash
# scripts/run.sh builds what it runs: a fresh configure with its options (scripts/deps.sh) plans the program it starts
# (the window or the CLI) and the libraries it links, and no test, test helper or bench driver.
# Usage: run_plan.sh SOURCE_DIR
set -euo pipefail
src=$1
source "$src/scripts/deps.sh"
grep -q '"${DIRBENCH_RUN_CMAKE_ARGS\[@\]}"' "$src/scripts/run.sh" || { echo "run.sh does not configure with DIRBENCH_RUN_CMAKE_ARGS"; exit 1; }
grep -q -- '--target "$target"' "$src/scripts/run.sh" && grep -q 'target=${DIRBENCH_RUN_TARGETS\[0\]}' "$src/scripts/run.sh" \
  && grep -q 'target=${DIRBENCH_RUN_TARGETS\[1\]}' "$src/scripts/run.sh" || { echo "run.sh does not build one of DIRBENCH_RUN_TARGETS"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake -S "$src" -B "$dir" -G Ninja "${DIRBENCH_RUN_CMAKE_ARGS[@]}" >"$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; exit 1; }
# Every edge the build of the two targets needs (the targets' own dependency closure).
mapfile -t planned < <(ninja -C "$dir" -t commands "${DIRBENCH_RUN_TARGETS[@]}" | grep -oE ' -o [^ ]+' | awk '{print $2}' | sort -u)
echo "run_plan: ${#planned[@]} outputs to build for ${DIRBENCH_RUN_TARGETS[*]}"
((${#planned[@]} > 10)) || { echo "run_plan: too few outputs planned: the plan was not read"; exit 1; }
tests=$(printf '%s\n' "${planned[@]}" | grep -E '(^|/)(tests|bench)/|tst_|fuzz' || true)
if [ -n "$tests" ]; then
  echo "run_plan: scripts/run.sh would build test or bench outputs:"
  echo "$tests" | head -20
  exit 1
fi
# And nothing of the test suite is even configured.
all=$(ninja -C "$dir" -t targets all)
if grep -qE '(^|/)tst_[a-z0-9_]+:' <<<"$all"; then
  echo "run_plan: the configure with run.sh's options defines test targets"
  exit 1
fi
for t in "${DIRBENCH_RUN_TARGETS[@]}"; do
  ninja -C "$dir" -t query "$t" >/dev/null || { echo "run_plan: no target $t"; exit 1; }
done
echo "run_plan: only the programs and what they link"
