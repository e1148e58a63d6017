#!/usr/bin/env bash
#===- test.sh - Install, build and run every test -------------------------===//
#
# Installs the dependencies (and checks the install path with
# `install-deps.sh --check`), then builds and tests three configurations:
#
#   build/      clang-22, Release: check-stencil (fast, executes nothing) and
#               check-stencil-integration (lowers, compiles and runs code;
#               installs the build tree and builds examples/embed against it)
#   build-gcc/  GCC, the compiler only: check-stencil (the IR the passes
#               emit must not depend on the host compiler)
#   build-san/  clang-22 with AddressSanitizer, UndefinedBehaviorSanitizer
#               and libFuzzer coverage: check-stencil,
#               check-stencil-integration, then 60 s of scripts/fuzz.sh
#               and 30 s of `scripts/fuzz.sh 30 import-c` (the C importer's
#               target, where it is built)
#
# Every suite always runs; the script exits non-zero if a build or any test
# fails, and its last line is `N passed, N failed` over all of them (a failed
# build, a suite that fails before lit reports, or a failed fuzz run counts
# as one failure). docs/Testing.md describes each part.
#
# Environment: BUILD_DIR (default build/), JOBS, STENCIL_TEST_QUICK=1 (only
# the build/ configuration), FUZZ_SECONDS (default 60), FUZZ_IMPORT_C_SECONDS
# (default 30).
#
#===----------------------------------------------------------------------===//
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
export JOBS="${JOBS:-$(nproc)}"
GCC_BUILD_DIR="${GCC_BUILD_DIR:-$ROOT/build-gcc}"
SAN_BUILD_DIR="${SAN_BUILD_DIR:-$ROOT/build-san}"

passed=0
failed=0

# The install path runs on every machine: --check resolves every package
# and simulates the install even where everything is already installed.
if ! "$ROOT/scripts/install-deps.sh" || ! "$ROOT/scripts/install-deps.sh" --check; then
  echo "test.sh: installing the dependencies failed" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
echo "== install-deps.sh and --check: $SECONDS s"

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

# build <dir> <cmake args...>: configures and builds; a failure counts as one
# failed test (the suites still run: they may need only part of the build).
build() {
  local dir="$1"
  shift
  local start=$SECONDS
  echo "== build $dir"
  if ! BUILD_DIR="$dir" "$ROOT/scripts/build.sh" "$@"; then
    echo "test.sh: the build of $dir failed; running its suites anyway" >&2
    failed=$((failed + 1))
  fi
  took "build $dir" "$start"
}

# took <what> <start>: the time a step took (CI's budget is 30 minutes).
took() {
  echo "== $1: $(($SECONDS - $2)) s (total $SECONDS s)"
}

# suite <dir> <target>: runs a lit suite and adds its counts.
suite() {
  local dir="$1" target="$2" log rc=0 p f start=$SECONDS
  log="$dir/test-logs/$target.log"
  mkdir -p "$dir/test-logs"
  echo "== ninja -C $dir $target"
  # Output goes through tee, which never closes the pipe early (lit can
  # hang when a reader such as `head` closes it), so that it is both shown
  # and kept for parsing.
  ninja -C "$dir" -j "$JOBS" "$target" 2>&1 | tee "$log" || rc=$?
  p="$(count "$log" Passed "Expectedly Failed")"
  f="$(count "$log" Failed Unresolved "Timed Out" "Unexpectedly Passed")"
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    # A failure before lit reported anything (e.g. a build error) still counts.
    f=1
    echo "test.sh: $target in $dir failed before lit reported results (see $log)" >&2
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  took "$target in $dir" "$start"
}

# fuzz <seconds> <target> <dir>: runs scripts/fuzz.sh; a finding counts as
# one failure.
fuzz() {
  local start=$SECONDS
  echo "== scripts/fuzz.sh $1 $2"
  if SAN_BUILD_DIR="$SAN_BUILD_DIR" "$ROOT/scripts/fuzz.sh" "$1" "$2"; then
    passed=$((passed + 1))
  else
    echo "test.sh: the fuzzer found a failure (see $SAN_BUILD_DIR/$3/artifacts)" >&2
    failed=$((failed + 1))
  fi
  took "scripts/fuzz.sh $2" "$start"
}

build "$BUILD_DIR"
suite "$BUILD_DIR" check-stencil
suite "$BUILD_DIR" check-stencil-integration

if [ "${STENCIL_TEST_QUICK:-0}" != 1 ]; then
  BUILD_TARGETS="stencil-opt stencil-translate stencil-compile" build "$GCC_BUILD_DIR" \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DSTENCIL_BUILD_BENCHMARKS=OFF
  suite "$GCC_BUILD_DIR" check-stencil

  build "$SAN_BUILD_DIR" -DSTENCIL_SANITIZE=address,undefined \
    -DSTENCIL_BUILD_FUZZER=ON -DSTENCIL_BUILD_BENCHMARKS=OFF
  # LLVM's own allocations at exit are not ours to fix: no leak checking.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
  suite "$SAN_BUILD_DIR" check-stencil
  suite "$SAN_BUILD_DIR" check-stencil-integration
  fuzz "${FUZZ_SECONDS:-60}" ir fuzz
  # The C importer's target, where Clang's C++ libraries were found.
  if [ -x "$SAN_BUILD_DIR/bin/stencil-import-c-fuzz" ]; then
    fuzz "${FUZZ_IMPORT_C_SECONDS:-30}" import-c fuzz-import-c
  fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
