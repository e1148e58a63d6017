#!/usr/bin/env bash
#===- test.sh - Install, build and run both test suites --------------------===//
#
# Installs the dependencies, builds the project, then runs `check-stencil`
# (fast, executes nothing) and `check-stencil-integration` (lowers, compiles
# and runs code; installs the build tree and builds examples/embed against
# it). Both suites always run; the script exits non-zero if the build or any
# test fails, and its last line is `N passed, N failed` over both suites (a
# failed build or a suite that fails before lit reports counts as one).
#
# Environment: BUILD_DIR (default build/), JOBS.
#
#===----------------------------------------------------------------------===//
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc)}"

passed=0
failed=0
status=0

# The install path runs on every machine: --check resolves every package
# and simulates the install even where everything is already installed.
if ! "$ROOT/scripts/install-deps.sh" || ! "$ROOT/scripts/install-deps.sh" --check; then
  echo "test.sh: installing the dependencies failed" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
# A failed full build (e.g. of the benchmarks) counts as one failure; the
# suites still run, since they only need stencil-opt and the libraries.
if ! "$ROOT/scripts/build.sh"; then
  echo "test.sh: the build failed; running the test suites anyway" >&2
  status=1
  failed=1
fi

LOG_DIR="$BUILD_DIR/test-logs"
mkdir -p "$LOG_DIR"

# count <log> <label...>: sums lit's summary lines such as "  Passed: 12 (80.00%)".
count() {
  local log="$1" n=0 c
  shift
  for label in "$@"; do
    c="$(sed -n "s/^ *$label *: *\([0-9][0-9]*\).*/\1/p" "$log" | tail -n 1)"
    n=$((n + ${c:-0}))
  done
  echo "$n"
}

for target in check-stencil check-stencil-integration; do
  log="$LOG_DIR/$target.log"
  echo "== ninja $target"
  # Output goes through tee (which never closes the pipe early, see
  # TOOLCHAIN.md pitfall 12) so that it is both shown and kept for parsing.
  rc=0
  ninja -C "$BUILD_DIR" -j "$JOBS" "$target" 2>&1 | tee "$log" || rc=$?
  p="$(count "$log" Passed "Expectedly Failed")"
  f="$(count "$log" Failed Unresolved "Timed Out" "Unexpectedly Passed")"
  if [ "$rc" -ne 0 ]; then
    status=1
    # A failure before lit reported anything (e.g. a build error) still counts.
    if [ "$f" -eq 0 ]; then
      f=1
      echo "test.sh: $target failed before lit reported results (see $log)" >&2
    fi
  fi
  passed=$((passed + p))
  failed=$((failed + f))
done

[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed"
exit "$status"
