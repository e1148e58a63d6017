// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-scatter-to-gather="boundary=exact max-exact-nests=8" --canonicalize | FileCheck %s
// RUN: not stencil-opt %s -split-input-file --stencil-scatter-to-gather="max-gather-ops=20" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: not stencil-opt %s -split-input-file --convert-to-omp="boundary=exact max-exact-nests=8 max-gather-ops=20" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: stencil-opt %s -split-input-file --stencil-scatter-to-gather="boundary=exact max-gather-ops=300" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXACT-OPS

// Work limits of the gather conversion. Three distinct offsets in each of two
// dimensions make (2*3-1)^2 = 25 exact boxes: above max-exact-nests the
// domain falls back to the compact form (1 core + 4 slabs) with a remark.
// Each of the 9 shifted statements recomputes its slice of the body; above
// max-gather-ops the conversion fails at the domain and says why.

// CHECK-LABEL: func.func @star
// CHECK-NOT: else
// CHECK: affine.parallel
// OPS: error: 'stencil.domain' op has a gather form that would clone about 225 body ops (5 nests, each recomputing every shifted statement), more than max-gather-ops=20; a nonlinear body grows with the square of the number of taps unless --stencil-cut-shared (the pipeline's `cut`) first stores the values its statements share. Lower it with a smaller cut-min-gain, with scatter=serial or scatter=atomic, or raise max-gather-ops
// PIPE: remark: boundary=exact would split this domain into up to 25 boxes, more than max-exact-nests=8; using boundary=compact (5 nests)
// PIPE: error: 'stencil.domain' op has a gather form that would clone about 225 body ops
// The 25 exact boxes and the 5 compact fallback nests would clone 30 * 45 ops.
// EXACT-OPS: remark: boundary=exact would clone about 1350 body ops, more than max-gather-ops=300; using boundary=compact (5 nests)
// EXACT-OPS-NOT: error: 'stencil.domain'
func.func @star(%ub: memref<?x?xf64>, %rb: memref<?x?xf64>, %u: memref<?x?xf64>, %n: index) {
  // expected-remark@+1 {{boundary=exact would split this domain into up to 25 boxes, more than max-exact-nests=8; using boundary=compact (5 nests)}}
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %g = stencil.gather %rb[0, 0] : memref<?x?xf64>
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    %s = math.sin %x : f64
    %v = arith.mulf %g, %s : f64
    stencil.accumulate %v to %ub[-1, -1] : memref<?x?xf64>
    stencil.accumulate %v to %ub[-1, 0] : memref<?x?xf64>
    stencil.accumulate %v to %ub[-1, 1] : memref<?x?xf64>
    stencil.accumulate %v to %ub[0, -1] : memref<?x?xf64>
    stencil.accumulate %v to %ub[0, 0] : memref<?x?xf64>
    stencil.accumulate %v to %ub[0, 1] : memref<?x?xf64>
    stencil.accumulate %v to %ub[1, -1] : memref<?x?xf64>
    stencil.accumulate %v to %ub[1, 0] : memref<?x?xf64>
    stencil.accumulate %v to %ub[1, 1] : memref<?x?xf64>
  }
  return
}
