#!/usr/bin/env bash
#===- setup.sh - Install, build and run the bundled example ---------------===//
#
# On a fresh Debian 12 machine (as root): installs the dependencies, builds
# the project and runs the main job on examples/wave3d.mlir:
# `stencil-opt --stencil-adjoint --convert-to-omp` builds the wave equation's
# gather adjoint and lowers it with OpenMP, scripts/stencil-compile turns it
# into an object file and a C header, and examples/c/wave3d_adjoint_main.c
# calls the primal and the adjoint, checks the dot-product test
# <J v, w> = <v, J^T w> and prints a gradient checksum and both times.
#
# Environment: BUILD_DIR (default build/), STENCIL_OPT_FLAGS (the stencil-opt
# passes of the main job), WAVE_N (grid size, default 64), OMP_NUM_THREADS.
#
#===----------------------------------------------------------------------===//
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build}"

# The stencil-opt flags of the main job, in one place.
STENCIL_OPT_FLAGS="${STENCIL_OPT_FLAGS:---stencil-adjoint --convert-to-omp}"
EXAMPLE="$ROOT/examples/wave3d.mlir"
DRIVER="$ROOT/examples/c/wave3d_adjoint_main.c"
WAVE_N="${WAVE_N:-64}"

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"

BIN="$BUILD_DIR/bin"
OUT="$BUILD_DIR/example"
CLANG=/usr/lib/llvm-22/bin/clang
mkdir -p "$OUT"

echo "== stencil-opt $STENCIL_OPT_FLAGS $EXAMPLE"
"$BIN/stencil-compile" "$EXAMPLE" --stencil-opt "$BIN/stencil-opt" \
  --passes "$STENCIL_OPT_FLAGS" -o "$OUT/wave3d.o" --header "$OUT/wave3d.h"
"$CLANG" -O2 -ffp-contract=off -fopenmp -I"$OUT" "$DRIVER" "$OUT/wave3d.o" -lm \
  -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -o "$OUT/wave3d_adjoint"

echo "== $OUT/wave3d_adjoint $WAVE_N"
"$OUT/wave3d_adjoint" "$WAVE_N"
