#!/bin/sh
# bench/gpu/profile.sh - memory checker and profiler over the GPU bundle.
#
# Runs where bench/gpu/run.sh runs (a machine with an NVIDIA GPU, its
# driver and the CUDA toolkit's compute-sanitizer and Nsight Compute, ncu),
# from the bundle build/bench/gpu/bundle:
#
#   sh build/bench/gpu/bundle/profile.sh [BUNDLE_DIR]
#
# 1. compute-sanitizer's memcheck over `stencil-bench-gpu --check` at sizes
#    up to 33 (every kernel, its 32- and 64-bit versions, each variant):
#    an access outside an allocation fails it. Written to memcheck.txt.
# 2. ncu on the first two launches of the f32 sweeps at n = 512 whose
#    speed docs/GPU.md discusses: wave3d's primal and gather adjoint,
#    dense27's primal (4 points per thread), primal with one point per
#    thread, gather adjoint (one point) and gather adjoint with two points
#    per thread. Clocks as the driver sets them (--clock-control none).
#    Written to ncu.txt.
# Results go to $OUT (the device tool's output folder) or ./gpu-results.
set -eu
dir=${1:-$(dirname "$0")}
out=${OUT:-gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bench="$dir/stencil-bench-gpu"
status=0
compute-sanitizer --tool memcheck --leak-check no --error-exitcode 3 \
  "$bench" --libdir "$dir" --check --max-size 33 >"$out/memcheck.txt" 2>&1 \
  || status=$?
tail -n 3 "$out/memcheck.txt"
echo "profile.sh: memcheck exit status $status"
: >"$out/ncu.txt"
for sweep in wave3d_f32/n512/primal wave3d_f32/n512/gather \
             dense27_f32/n512/primal dense27_f32/n512/primal_c1 \
             dense27_f32/n512/gather dense27_f32/n512/gather_c2; do
  echo "==== $sweep" >>"$out/ncu.txt"
  ncu --clock-control none --launch-count 2 \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
    --section ComputeWorkloadAnalysis --section WarpStateStats \
    "$bench" --libdir "$dir" --sizes 512 --benchmark_min_time=0.001 \
    "--benchmark_filter=^gpu/$sweep/" >>"$out/ncu.txt" 2>&1 \
    || echo "profile.sh: ncu failed on $sweep" | tee -a "$out/ncu.txt"
done
grep -E "^====|Duration|Memory Throughput|DRAM Throughput|L1/TEX Hit|L1/TEX Cache Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy" \
  "$out/ncu.txt" || true
exit $status
