#!/usr/bin/env bash
#===- fuzz.sh - Run a libFuzzer target on its seed corpus -----------------===//
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET]   (default 60 s, TARGET ir)
#
# TARGET ir: runs build-san/bin/stencil-fuzz (built by scripts/test.sh, or
# by scripts/build.sh with -DSTENCIL_SANITIZE=address,undefined
# -DSTENCIL_BUILD_FUZZER=ON; docs/Testing.md) for SECONDS on a corpus seeded
# from every .mlir file of the repository. Each input runs many pipelines
# and compiles its C headers with clang (tools/stencil-fuzz/Pipelines.cpp),
# which the 20 s per input allow under the sanitizers.
#
# TARGET import-c: runs build-san/bin/stencil-import-c-fuzz (the same build,
# with the C importer) on a corpus seeded from the .c files of
# test/Import/C: C source in, the importer and stencil-adjoint,convert-to-omp
# on its output. An input gets 10 s. Clang's diagnostics of the malformed C are the
# expected answer and are not shown (-close_fd_mask=2; libFuzzer's and the
# sanitizers' reports still are).
#
# The corpus the fuzzer grows is kept in $FUZZ_DIR/corpus (default
# build-san/fuzz, build-san/fuzz-import-c), so longer runs pick up where
# the last one stopped. A crash, sanitizer error, timeout or invariant
# violation (a header that does not compile among them) stops the run with
# a non-zero exit and leaves the input in $FUZZ_DIR/artifacts; replay it
# with `stencil-fuzz ARTIFACT` (`stencil-import-c-fuzz ARTIFACT`). Prints
# the number of executions at the end.
#
#===----------------------------------------------------------------------===//
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SAN_BUILD_DIR="${SAN_BUILD_DIR:-$ROOT/build-san}"
SECONDS_TO_RUN="${1:-60}"
TARGET="${2:-ir}"
case "$TARGET" in
  ir)
    FUZZER="$SAN_BUILD_DIR/bin/stencil-fuzz"
    FUZZ_DIR="${FUZZ_DIR:-$SAN_BUILD_DIR/fuzz}"
    CORPUS_ARGS=()
    DICT="$ROOT/tools/stencil-fuzz/stencil.dict"
    FLAGS=(-timeout=20 -max_len=16384)
    ;;
  import-c)
    FUZZER="$SAN_BUILD_DIR/bin/stencil-import-c-fuzz"
    FUZZ_DIR="${FUZZ_DIR:-$SAN_BUILD_DIR/fuzz-import-c}"
    CORPUS_ARGS=(--import-c)
    DICT="$ROOT/tools/stencil-fuzz/import-c.dict"
    FLAGS=(-timeout=10 -max_len=16384 -close_fd_mask=2)
    ;;
  *)
    echo "fuzz.sh: TARGET is ir or import-c, not '$TARGET'" >&2
    exit 1
    ;;
esac

if [ ! -x "$FUZZER" ]; then
  echo "fuzz.sh: $FUZZER is missing; build it first (docs/Testing.md)" >&2
  exit 1
fi
mkdir -p "$FUZZ_DIR/corpus" "$FUZZ_DIR/artifacts"
python3 "$ROOT/tools/stencil-fuzz/make-corpus.py" "${CORPUS_ARGS[@]}" \
  "$ROOT" "$FUZZ_DIR/seeds"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
"$FUZZER" "$FUZZ_DIR/corpus" "$FUZZ_DIR/seeds" \
  -dict="$DICT" -max_total_time="$SECONDS_TO_RUN" -rss_limit_mb=4096 \
  "${FLAGS[@]}" -print_final_stats=1 \
  -artifact_prefix="$FUZZ_DIR/artifacts/" 2>&1 | tee "$FUZZ_DIR/fuzz.log"
