#!/usr/bin/env bash
#===- setup.sh - Install, build and run the bundled example ---------------===//
#
# On a fresh Debian 12 machine (as root): installs the dependencies, builds
# the project and runs the main job on examples/wave3d.mlir. The build
# compiles it with `stencil-compile --stencil-adjoint --convert-to-omp` (the
# wave equation's gather adjoint, lowered with OpenMP) through the CMake
# function stencil_add_kernel (examples/CMakeLists.txt) and links it with
# examples/c/wave3d_adjoint_main.c; this script runs the result, which calls
# the primal and the adjoint, checks the dot-product test
# <J v, w> = <v, J^T w> and prints a gradient checksum and both times.
#
# Environment: BUILD_DIR (default build/), WAVE_N (grid size, default 64),
# OMP_NUM_THREADS.
#
#===----------------------------------------------------------------------===//
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$ROOT/build}"

WAVE_N="${WAVE_N:-64}"

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"

echo "== $BUILD_DIR/bin/wave3d-adjoint-example $WAVE_N"
"$BUILD_DIR/bin/wave3d-adjoint-example" "$WAVE_N"
