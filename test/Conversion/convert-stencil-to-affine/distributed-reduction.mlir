// RUN: stencil-opt %s --convert-stencil-to-affine -split-input-file -verify-diagnostics -o /dev/null

// A domain marked `stencil.distributed_sum` (by --stencil-distribute, which
// refuses reductions into arrays itself: test/Distribution/reductions.mlir)
// that also reduces into an array through a selection is refused by the
// lowering: each rank would only add its own points into its copy of the
// array. (Fully reduced ones, fixed elements and rank-0 arrays, are summed
// across ranks like the results.)
func.func @sum(%u: memref<?x?xf64>, %cb: memref<?xf64>, %n: index) -> f64 {
  // expected-error @below {{sums into an array across ranks through a subset of the iteration dimensions (a reduction), which is not supported yet; fixed elements and rank-0 arrays are}}
  %s = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> f64 {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %a to %cb[0] dims [1] : memref<?xf64>
    stencil.yield %a : f64
  } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "slices"}}
  return %s : f64
}

// -----

// Where each rank holds a box, the lowering passes every point's terms to
// the run-time library; a reduction into an array has no terms to pass.
func.func @boxes(%u: memref<?x?xf64>, %c: memref<f64>, %n: index) -> f64 {
  // expected-error @below {{sums across ranks from boxes of the domain, which is supported only for a rectangular domain without reductions into arrays}}
  %s = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> f64 {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %a to %c[] dims [] : memref<f64>
    stencil.yield %a : f64
  } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "boxes"}}
  return %s : f64
}
