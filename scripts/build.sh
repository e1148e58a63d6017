#!/usr/bin/env bash
#===- build.sh - Configure and build the project --------------------------===//
#
# Configures the project with clang-22, lld and the Debian LLVM/MLIR 22
# packages (scripts/install-deps.sh installs them; MLIR_DIR and the lit of
# /usr/lib/llvm-22/bin, which has no llvm-lit, are set below) and builds
# every target. The build
# directory is `build/` at the repository root unless BUILD_DIR is set;
# JOBS (default: number of cores) limits Ninja's parallelism; BUILD_TARGETS
# (default: all) names the Ninja targets to build. Extra arguments are passed
# to the CMake configure step (e.g. -DSTENCIL_BUILD_BENCHMARKS=OFF, or
# -DCMAKE_CXX_COMPILER=g++ to build with GCC: later -D options win).
#
#===----------------------------------------------------------------------===//
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc)}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"

cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
  -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_USE_LINKER=lld \
  -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
  -DCMAKE_C_COMPILER="$LLVM_PREFIX/bin/clang" \
  -DCMAKE_CXX_COMPILER="$LLVM_PREFIX/bin/clang++" \
  "$@"

# shellcheck disable=SC2086 # BUILD_TARGETS is a list of targets
ninja -C "$BUILD_DIR" -j "$JOBS" ${BUILD_TARGETS:-}
