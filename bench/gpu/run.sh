#!/bin/sh
# bench/gpu/run.sh - the GPU checks and benchmark (docs/GPU.md).
#
# Runs on a machine with an NVIDIA GPU and its driver, from the bundle that
# the build makes when it finds a CUDA toolkit (build/bench/gpu/bundle:
# stencil-bench-gpu, the kernel libraries, libbenchmark and libomp; the
# CUDA runtime is linked in statically). Nothing else is needed there: no
# LLVM, MLIR or CUDA toolkit.
#
#   sh build/bench/gpu/bundle/run.sh [BUNDLE_DIR] [Google Benchmark flags]
#
# 1. `--check`: primal, gather and atomic adjoints against the CPU build of
#    the same IR, 1 to 512^3 points; bitwise determinism of the gather
#    adjoint over 20 runs and 5 block shapes; the atomic adjoint's spread.
#    A failed check stops the script (exit 1) before anything is timed.
#    Then `stencil-timeloop-gpu --check`: time loops (wave3d_loop, its
#    coefficient passive and active) against the CPU build, and every
#    snapshot count bitwise equal to store-all.
# 2. The benchmark (5 repetitions, medians), then the summary table:
#    adjoint / primal, atomic / gather, bandwidth against a device-to-device
#    copy, points per second.
# Results go to $OUT (the device tool's output folder) or ./gpu-results.
set -eu
dir=${1:-$(dirname "$0")}
[ $# -gt 0 ] && shift
out=${OUT:-gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv \
  | tee "$out/device.txt" || true
"$dir/stencil-bench-gpu" --libdir "$dir" --check | tee "$out/checks.txt"
status=$(tail -n 1 "$out/checks.txt")
case "$status" in
  *", 0 failed") ;;
  *) echo "run.sh: checks failed ($status); not timing" >&2; exit 1 ;;
esac
"$dir/stencil-timeloop-gpu" --libdir "$dir" --check > "$out/timeloop-checks.txt" || true
status=$(tail -n 1 "$out/timeloop-checks.txt")
echo "time loops: $status"
case "$status" in
  *", 0 failed") ;;
  *) echo "run.sh: time-loop checks failed ($status); not timing" >&2; exit 1 ;;
esac
"$dir/stencil-timeloop-gpu" --libdir "$dir" --time 256:16:4,512:8:2 \
  | tee "$out/timeloop-times.txt"
"$dir/stencil-bench-gpu" --libdir "$dir" --benchmark_repetitions=5 \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json "$@" \
  | tee "$out/bench.txt"
