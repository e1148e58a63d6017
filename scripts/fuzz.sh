#!/usr/bin/env bash
#===- fuzz.sh - Run the libFuzzer target on the seed corpus ---------------===//
#
# Usage: scripts/fuzz.sh [SECONDS]   (default 60)
#
# Runs build-san/bin/stencil-fuzz (built by scripts/test.sh, or by
# scripts/build.sh with -DSTENCIL_SANITIZE=address,undefined
# -DSTENCIL_BUILD_FUZZER=ON; docs/Testing.md) for SECONDS on a corpus seeded
# from every .mlir file of the repository. The corpus the fuzzer grows is
# kept in $FUZZ_DIR/corpus (default build-san/fuzz), so longer runs pick up
# where the last one stopped. Each input runs many pipelines and compiles
# its C headers with clang (tools/stencil-fuzz/Pipelines.cpp), which the
# 20 s per input allow under the sanitizers. A crash, sanitizer error,
# timeout or invariant violation (a header that does not compile among
# them) stops the run with a non-zero exit and
# leaves the input in $FUZZ_DIR/artifacts; replay it with
# `stencil-fuzz ARTIFACT`. Prints the number of executions at the end.
#
#===----------------------------------------------------------------------===//
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SAN_BUILD_DIR="${SAN_BUILD_DIR:-$ROOT/build-san}"
FUZZ_DIR="${FUZZ_DIR:-$SAN_BUILD_DIR/fuzz}"
SECONDS_TO_RUN="${1:-60}"
FUZZER="$SAN_BUILD_DIR/bin/stencil-fuzz"

if [ ! -x "$FUZZER" ]; then
  echo "fuzz.sh: $FUZZER is missing; build it first (docs/Testing.md)" >&2
  exit 1
fi
mkdir -p "$FUZZ_DIR/corpus" "$FUZZ_DIR/artifacts"
python3 "$ROOT/tools/stencil-fuzz/make-corpus.py" "$ROOT" "$FUZZ_DIR/seeds"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
"$FUZZER" "$FUZZ_DIR/corpus" "$FUZZ_DIR/seeds" \
  -dict="$ROOT/tools/stencil-fuzz/stencil.dict" \
  -max_total_time="$SECONDS_TO_RUN" -timeout=20 -rss_limit_mb=4096 \
  -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$FUZZ_DIR/artifacts/" 2>&1 | tee "$FUZZ_DIR/fuzz.log"
